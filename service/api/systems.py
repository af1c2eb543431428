"""What each pairing system does when the start list closes (DESIGN: handlers stay thin).

Round-robins and FLAMPARK pair every round in advance; Swiss systems pair round by
round later (`POST /rounds`).
"""

from __future__ import annotations

from typing import Any

from service.db.tables import TournamentRow
from service.engine.model import Round
from service.engine.pairing.flampark import (
    FlamparkError,
    TooFewPlayersError,
    flampark_schedule,
)
from service.engine.pairing.roundrobin import round_robin_rounds
from service.errors import InvalidInput

__all__ = ["ROUND_ROBINS", "initial_rounds", "schedule_for"]

ROUND_ROBINS = frozenset({"round-robin", "double-round-robin"})


def schedule_for(player_count: int, rounds: int, options: dict[str, Any]) -> Any:
    """A FLAMPARK schedule from stored or requested options; engine errors -> 422."""
    try:
        return flampark_schedule(
            player_count,
            rounds,
            kinds=options.get("kinds"),
            round_order=options.get("round_order"),
            variant=options.get("variant", "individual"),
            rematch_byes=bool(options.get("rematch_byes", False)),
        )
    except TooFewPlayersError as exc:
        raise InvalidInput(str(exc), field="players") from None
    except FlamparkError as exc:
        raise InvalidInput(str(exc), field="flampark") from None


def initial_rounds(row: TournamentRow, player_count: int) -> tuple[tuple[Round, ...], list[str]]:
    """Rounds to store when the list closes, and warnings for the organizer."""
    if row.system in ROUND_ROBINS:
        return round_robin_rounds(player_count, double=row.system == "double-round-robin"), []
    if row.system == "flampark":
        assert row.total_rounds is not None
        schedule = schedule_for(player_count, row.total_rounds, row.settings.get("flampark") or {})
        return schedule.rounds, list(schedule.warnings)
    return (), []
