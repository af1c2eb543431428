"""Archive a tournament (docs/api.md#settings-and-archival): it leaves every list and
answers 410 Gone to everyone but its organizer, who can still read and export it;
nothing can be written to it any more. Its data and its status are kept
(`engine.lifecycle`: archiving keeps the state). A `tournament_archived` event tells
live clients.
"""

from __future__ import annotations

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.lifecycle import move
from service.db.event_types import TournamentArchived
from service.db.events import append_event, lock_tournament
from service.db.tables import TournamentRow, utcnow
from service.engine.lifecycle import LifecycleEvent

__all__ = ["archive"]


async def archive(session: AsyncSession, tournament: TournamentRow) -> None:
    """The workflow: lock, mark archived, append the event."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    move(tournament, LifecycleEvent.ARCHIVE)
    tournament.archived_at = utcnow()
    session.add(tournament)
    await append_event(session, tournament.id, TournamentArchived())
