"""Reading a tournament's players: the start list, one player, numbers and ratings.

Nothing here adds or changes rows (`service.db.repository` stores players for the
application layer's workflows), so the routes read through it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.tables import EventRow, PlayerRow
from service.errors import Conflict, NotFound

__all__ = [
    "count_players",
    "get_player",
    "list_players",
    "next_player_number",
    "ratings_of",
    "start_number_of",
]


async def list_players(session: AsyncSession, tournament_id: str) -> list[PlayerRow]:
    """Players in start-number order (registration order before the list closes)."""
    statement = (
        select(PlayerRow)
        .where(PlayerRow.tournament_id == tournament_id)
        .order_by(col(PlayerRow.start_number), col(PlayerRow.id))
    )
    return list((await session.exec(statement)).all())


async def count_players(session: AsyncSession, tournament_id: str) -> int:
    """How many players are registered."""
    statement = select(func.count()).where(PlayerRow.tournament_id == tournament_id)
    return int((await session.exec(statement)).one())


async def get_player(session: AsyncSession, tournament_id: str, number: int) -> PlayerRow:
    """A player of this tournament by player number, or NotFound."""
    statement = select(PlayerRow).where(
        PlayerRow.tournament_id == tournament_id, PlayerRow.number == number
    )
    player = (await session.exec(statement)).first()
    if player is None:
        raise NotFound(f"no player {number} in this tournament", field="number")
    return player


async def start_number_of(session: AsyncSession, tournament_id: str, number: int) -> int:
    """The start number of player `number` (404 when no such player, 409 while the
    start list is open and start numbers are not given yet)."""
    player = await get_player(session, tournament_id, number)
    if player.start_number is None:
        raise Conflict(
            f"player {number} has no start number yet: they are given when the start list "
            "closes (POST /start)",
            field="number",
        )
    return player.start_number


async def next_player_number(session: AsyncSession, tournament_id: str) -> int:
    """The number the next registered player gets: one more than any given so far,
    counting registrations that were removed (a number is never given twice) and the
    players a TRF import numbered. Call with the tournament locked."""
    highest = select(func.max(PlayerRow.number)).where(PlayerRow.tournament_id == tournament_id)
    added = select(func.count()).where(
        EventRow.tournament_id == tournament_id, EventRow.type == "player_added"
    )
    given = max(int((await session.exec(highest)).one() or 0), (await session.exec(added)).one())
    return int(given) + 1


async def ratings_of(
    session: AsyncSession, tournament_id: str, numbers: Sequence[int]
) -> dict[int, int]:
    """Starting ratings of some players, by start number."""
    statement = select(PlayerRow.start_number, PlayerRow.rating).where(
        PlayerRow.tournament_id == tournament_id, col(PlayerRow.start_number).in_(numbers)
    )
    return {n: r for n, r in (await session.exec(statement)).all() if n is not None}
