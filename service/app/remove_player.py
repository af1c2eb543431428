"""Remove a player while the start list is open (docs/api.md#players). Their number is
never given again (`db.player_reads.next_player_number` counts the registrations
removed). Once the list is closed a player withdraws instead (`withdraw`).
"""

from __future__ import annotations

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.lifecycle import require_open
from service.db.event_types import PlayerRemoved
from service.db.events import append_event, lock_tournament
from service.db.player_reads import get_player
from service.db.tables import TournamentRow

__all__ = ["remove_player"]


async def remove_player(session: AsyncSession, tournament: TournamentRow, number: int) -> None:
    """The workflow: lock, check the list is open, delete the row, append the event."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    require_open(tournament)
    player = await get_player(session, tournament.id, number)
    await session.delete(player)
    await append_event(session, tournament.id, PlayerRemoved(number))
