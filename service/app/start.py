"""Close the start list: number the players by rating (descending, ties by name), issue
their tokens (shown only this once) and, for round-robins and FLAMPARK, pair every round
(FIDE C.05 Berger tables; the FLAMPARK schedule of Formuła FLAMPARK), stored with bulk inserts.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.offload import run_cpu
from service.app.systems import initial_rounds
from service.db.event_types import TournamentStarted
from service.db.events import append_event
from service.db.loading import Schedule
from service.db.repository import close_start_list, store_rounds
from service.db.tables import PlayerRow, TournamentRow

__all__ = ["Started", "start"]


@dataclass(frozen=True, slots=True)
class Started:
    """The numbered players with their new tokens, the organizer's warnings, and the
    rounds paired in advance as stored (None for systems paired round by round)."""

    issued: list[tuple[PlayerRow, str]]
    warnings: list[str]
    schedule: Schedule | None = None


async def start(session: AsyncSession, tournament: TournamentRow) -> Started:
    """The workflow: lock and number (db), schedule (engine), store rows + event."""
    issued = await close_start_list(session, tournament)
    count = len(issued)
    rounds, warnings = await run_cpu(initial_rounds, tournament, count)
    schedule = await store_rounds(session, tournament, rounds) if rounds else None
    if rounds:
        tournament.total_rounds = len(rounds)
        tournament.current_round = 1
        session.add(tournament)
    await append_event(session, tournament.id, TournamentStarted(count, tournament.total_rounds))
    return Started(issued, warnings, schedule)
