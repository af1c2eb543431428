"""Commit a write and announce its events to live listeners."""

from __future__ import annotations

from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.state import AppState
from service.db.tables import TournamentRow

__all__ = ["commit_and_publish"]


async def commit_and_publish(
    session: AsyncSession, state: AppState, tournament: TournamentRow
) -> None:
    """Commit, then tell the bus the tournament's newest sequence number.

    Notifying after commit guarantees listeners find the event rows when they read.
    """
    await session.commit()
    await session.refresh(tournament)
    await state.bus.publish(tournament.id, tournament.last_seq)
