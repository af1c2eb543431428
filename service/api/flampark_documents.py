"""FLAMPARK schedules as documents (shared by the compute endpoint and the CLI)."""

from __future__ import annotations

from service.api.schemas.flampark import ScheduleGame, ScheduleResponse, ScheduleRound
from service.engine.pairing.flampark import FlamparkSchedule

__all__ = ["schedule_document"]


def schedule_document(schedule: FlamparkSchedule) -> ScheduleResponse:
    """The schedule in played order: games by table, byes by start number."""
    return ScheduleResponse(
        player_count=schedule.player_count,
        rounds=[
            ScheduleRound(
                round=rnd.number,
                kind=kind,
                games=[
                    ScheduleGame(table=g.table, white=g.white, black=g.black) for g in rnd.games
                ],
                byes=[b.player for b in rnd.byes],
            )
            for rnd, kind in zip(schedule.rounds, schedule.kinds, strict=True)
        ],
        warnings=list(schedule.warnings),
    )
