"""The rows a player card shows, read as plain columns, so that the cards of a
400-player round-robin do not load its 79,800 games as ORM objects on the event loop.

Cards are built for a page of players at a time (`service.api.routes.cards`), so only
the games and byes of those players are read, as tuples rather than ORM rows.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import or_, select, union
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.tables import ByeRow, GameRow, PlayerRow

__all__ = ["CardBye", "CardGame", "CardPlayer", "card_rows", "numbered_players", "paired_rounds"]


class CardPlayer(NamedTuple):
    """A numbered player as a card names them."""

    start_number: int
    name: str
    rating: int


class CardGame(NamedTuple):
    """A game as a card lists it."""

    round: int
    table_no: int
    white: int
    black: int


class CardBye(NamedTuple):
    """A bye as a card lists it."""

    round: int
    player: int
    kind: str


async def numbered_players(session: AsyncSession, tournament_id: str) -> list[CardPlayer]:
    """Every player with a start number, in start-number order."""
    statement = (
        select(col(PlayerRow.start_number), col(PlayerRow.name), col(PlayerRow.rating))
        .where(col(PlayerRow.tournament_id) == tournament_id)
        .where(col(PlayerRow.start_number).is_not(None))
        .order_by(col(PlayerRow.start_number))
    )
    rows = (await session.exec(statement)).all()  # type: ignore[call-overload]
    return [CardPlayer(int(n), name, int(rating or 0)) for n, name, rating in rows]


async def paired_rounds(session: AsyncSession, tournament_id: str) -> list[int]:
    """The rounds with a game or a bye, in order."""
    statement = union(
        select(col(GameRow.round)).where(col(GameRow.tournament_id) == tournament_id).distinct(),
        select(col(ByeRow.round)).where(col(ByeRow.tournament_id) == tournament_id).distinct(),
    )
    rows = (await session.exec(statement)).all()  # type: ignore[call-overload]
    return sorted({int(r) for (r,) in rows})


async def card_rows(
    session: AsyncSession, tournament_id: str, first: int, last: int
) -> tuple[list[CardGame], list[CardBye]]:
    """The games and byes of the players numbered `first` to `last`."""
    games = select(
        col(GameRow.round), col(GameRow.table_no), col(GameRow.white), col(GameRow.black)
    ).where(
        col(GameRow.tournament_id) == tournament_id,
        or_(col(GameRow.white).between(first, last), col(GameRow.black).between(first, last)),
    )
    byes = select(col(ByeRow.round), col(ByeRow.player), col(ByeRow.kind)).where(
        col(ByeRow.tournament_id) == tournament_id, col(ByeRow.player).between(first, last)
    )
    game_rows = (await session.exec(games)).all()  # type: ignore[call-overload]
    bye_rows = (await session.exec(byes)).all()  # type: ignore[call-overload]
    return [CardGame(*row) for row in game_rows], [CardBye(*row) for row in bye_rows]
