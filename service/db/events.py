"""The per-tournament event log (DESIGN: every standings-changing write appends an event).

Sequence numbers come from `tournaments.last_seq`, bumped with an atomic UPDATE in the
writer's transaction, so they are gapless per tournament on SQLite and PostgreSQL and
two writers can never take the same number.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.tables import EventRow

__all__ = ["STANDINGS_EVENTS", "append_event", "events_since", "lock_tournament"]

STANDINGS_EVENTS = frozenset(
    {
        "tournament_started",
        "result_confirmed",
        "result_corrected",
        "round_paired",
        "imported",
        "settings_changed",
    }
)
"""Event types after which the standings may differ."""


async def lock_tournament(session: AsyncSession, tournament_id: str) -> None:
    """Serialise writers of one tournament for the rest of the transaction.

    A no-op UPDATE row-locks the tournament on PostgreSQL and takes SQLite's write lock,
    so read-modify-write sequences (two players reporting one game) cannot interleave.
    """
    await session.exec(  # type: ignore[call-overload]
        text("UPDATE tournaments SET last_seq = last_seq WHERE id = :id"),
        params={"id": tournament_id},
    )


async def append_event(
    session: AsyncSession, tournament_id: str, event_type: str, payload: dict[str, Any]
) -> int:
    """Add an event in the caller's transaction; returns its sequence number."""
    result = await session.exec(  # type: ignore[call-overload]
        text("UPDATE tournaments SET last_seq = last_seq + 1 WHERE id = :id RETURNING last_seq"),
        params={"id": tournament_id},
    )
    seq = int(result.scalar_one())
    session.add(EventRow(tournament_id=tournament_id, seq=seq, type=event_type, payload=payload))
    return seq


async def events_since(
    session: AsyncSession, tournament_id: str, since: int, limit: int = 10_000
) -> list[EventRow]:
    """Events with `seq > since`, oldest first."""
    statement = (
        select(EventRow)
        .where(EventRow.tournament_id == tournament_id, col(EventRow.seq) > since)
        .order_by(col(EventRow.seq))
        .limit(limit)
    )
    return list((await session.exec(statement)).all())
