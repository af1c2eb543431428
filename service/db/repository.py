"""Tournament persistence: storing tournaments, start lists and paired rounds.

Every write runs inside the caller's transaction and appends its events there, so a
failed request leaves nothing behind. Writers lock the tournament first
(`lock_tournament`), which makes read-modify-write sequences safe under concurrency.
The rules live in the application layer's workflows (`service.app`), the only callers
of the functions here. The reads live in modules of their own (`tournament_reads`,
`player_reads`, `game_reads`), which the routes may import.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.event_types import TournamentCreated
from service.db.events import append_event, load_locked
from service.db.loading import Schedule, stored_schedule
from service.db.tables import ByeRow, GameRow, PlayerRow, TournamentRow
from service.db.tokens import hash_token, new_token
from service.db.tournament_reads import tournament_or_not_found
from service.engine.model import Round

__all__ = [
    "create_tournament",
    "delete_round",
    "get_locked_tournament",
    "number_players",
    "store_players",
    "store_round",
    "store_rounds",
]


async def create_tournament(
    session: AsyncSession,
    *,
    name: str,
    system: str,
    settings: dict[str, Any],
    total_rounds: int | None,
) -> tuple[TournamentRow, str]:
    """Store a new tournament; returns it with its organizer token (shown once)."""
    token = new_token("org")
    row = TournamentRow(
        id=uuid.uuid4().hex,
        name=name,
        system=system,
        settings=settings,
        total_rounds=total_rounds,
        organizer_token_hash=hash_token(token),
    )
    session.add(row)
    await session.flush()
    await append_event(session, row.id, TournamentCreated(name, system))
    return row, token


async def get_locked_tournament(session: AsyncSession, tournament_id: str) -> TournamentRow:
    """The tournament, locked for the rest of the transaction in the same statement
    (`events.load_locked`), or NotFound."""
    return tournament_or_not_found(await load_locked(session, tournament_id), tournament_id)


async def number_players(
    session: AsyncSession, numbered: Sequence[tuple[PlayerRow, int, str]]
) -> None:
    """Store each player's start number and token digest: (player, start number,
    `tokens.hash_token` of the token issued)."""
    for player, number, digest in numbered:
        player.start_number = number
        player.token_hash = digest
        session.add(player)
    await session.flush()


INSERT_CHUNK = 1_000
"""Rows a multi-row insert of a start list sends in one statement."""


async def store_players(
    session: AsyncSession, tournament: TournamentRow, players: Sequence[dict[str, Any]]
) -> None:
    """Persist a whole start list (rows of the `players` table's columns, the tournament's
    id aside) with one multi-row insert: an imported file's 10,000 players, added one by
    one to the session, held the event loop half a second in the flush."""
    await session.flush()
    if players:
        rows = [{**player, "tournament_id": tournament.id} for player in players]
        connection = await session.connection()
        insert = PlayerRow.__table__.insert()  # type: ignore[attr-defined]
        for start in range(0, len(rows), INSERT_CHUNK):
            # one statement per chunk: the loop serves others between them (the bound
            # parameters of 10,000 rows held it over 100 ms in one go on PostgreSQL)
            await connection.execute(insert, rows[start : start + INSERT_CHUNK])


async def store_round(session: AsyncSession, tournament: TournamentRow, rnd: Round) -> None:
    """Persist a paired round (games in table order and byes)."""
    await store_rounds(session, tournament, (rnd,))


async def store_rounds(
    session: AsyncSession, tournament: TournamentRow, rounds: Sequence[Round]
) -> Schedule:
    """Persist paired rounds with one multi-row insert per table (a 400-player
    round-robin is 79,800 games: row-by-row ORM inserts took most of a minute), and
    return what was stored (`loading.stored_schedule`: games that already carry a
    result, from an imported file, are stored as confirmed)."""
    schedule = stored_schedule(rounds)
    games: list[dict[str, Any]] = [
        {
            "tournament_id": tournament.id,
            "round": number,
            "table_no": table,
            "white": white,
            "black": black,
            "result": result,
            "status": status,
            "reports": {},
            "extra": {},
            "shortened_minutes": None,
        }
        for number, table, white, black, result, status in schedule.games
    ]
    byes: list[dict[str, Any]] = [
        {"tournament_id": tournament.id, "round": number, "player": player, "kind": kind}
        for number, player, kind in schedule.byes
    ]
    await session.flush()
    connection = await session.connection()
    if games:
        await connection.execute(GameRow.__table__.insert(), games)  # type: ignore[attr-defined]
    if byes:
        await connection.execute(ByeRow.__table__.insert(), byes)  # type: ignore[attr-defined]
    return schedule


async def delete_round(session: AsyncSession, tournament_id: str, number: int) -> None:
    """Remove a round's games and byes (a pairing taken back or replaced by hand)."""
    await session.flush()
    for table in (GameRow, ByeRow):
        await session.exec(
            delete(table).where(
                col(table.tournament_id) == tournament_id, col(table.round) == number
            )
        )
