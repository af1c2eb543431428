"""Reading a tournament: its row, and the whole tournament as an engine value.

Nothing here adds, changes or locks rows (`service.db.repository` and
`service.db.events` do, for the application layer's workflows), so the routes read
through it.
"""

from __future__ import annotations

from sqlalchemy import bindparam
from sqlalchemy import select as sa_select
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.columns import fetch_columns
from service.db.loading import engine_tournament
from service.db.player_reads import list_players
from service.db.tables import ByeRow, GameRow, TournamentRow
from service.engine.model import Tournament
from service.errors import NotFound

__all__ = [
    "get_tournament",
    "load_engine_tournament",
    "tournament_or_not_found",
]


async def get_tournament(session: AsyncSession, tournament_id: str) -> TournamentRow:
    """The tournament, or NotFound (`repository.get_locked_tournament` loads it locked)."""
    return tournament_or_not_found(await session.get(TournamentRow, tournament_id), tournament_id)


def tournament_or_not_found(row: TournamentRow | None, tournament_id: str) -> TournamentRow:
    """The tournament loaded, or NotFound naming the id asked for."""
    if row is None:
        raise NotFound(f"no tournament {tournament_id!r}", field="tournament_id")
    return row


async def load_engine_tournament(
    session: AsyncSession, tournament: TournamentRow, *, confirmed_only: bool = True
) -> Tournament:
    """The whole tournament as an engine value.

    Reads plain columns through the session's connection (no ORM objects; on
    PostgreSQL not even SQLAlchemy's rows, `fetch_columns`): this is what a cold view of
    a tournament costs, and a large event has tens of thousands of games."""
    players = await list_players(session, tournament.id)
    connection = await session.connection()
    key = {"tournament": tournament.id}
    games = await fetch_columns(connection, _ENGINE_GAMES, key)
    byes = await fetch_columns(connection, _ENGINE_BYES, key)
    return engine_tournament(tournament, players, games, byes, confirmed_only=confirmed_only)


_ENGINE_GAMES = (
    sa_select(
        col(GameRow.round),
        col(GameRow.table_no),
        col(GameRow.white),
        col(GameRow.black),
        col(GameRow.result),
        col(GameRow.status),
    )
    .where(col(GameRow.tournament_id) == bindparam("tournament"))
    .order_by(col(GameRow.round), col(GameRow.table_no))
)
"""`loading.GameColumns`, in round and table order."""


_ENGINE_BYES = sa_select(col(ByeRow.round), col(ByeRow.player), col(ByeRow.kind)).where(
    col(ByeRow.tournament_id) == bindparam("tournament")
)
"""`loading.ByeColumns`."""
