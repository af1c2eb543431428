"""What each pairing system does when the start list closes, and the next-round pairing
by system name (DESIGN: handlers stay thin; the application layer, used by the start and
pair-a-round workflows, the routes and the CLI).

Round-robins and FLAMPARK pair every round in advance; Swiss systems pair round by
round later (`POST /rounds`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from service.db.tables import TournamentRow
from service.engine.model import Bye, Round, Tournament
from service.engine.pairing import dutch, jca
from service.engine.pairing.flampark import (
    FlamparkScheduleError,
    TooFewPlayersError,
    flampark_schedule,
)
from service.engine.pairing.result import Pairing
from service.engine.pairing.roundrobin import round_robin_rounds
from service.errors import InvalidInput

__all__ = [
    "PAIRING_SYSTEMS",
    "ROUND_ROBINS",
    "SWISS",
    "initial_rounds",
    "pair_next",
    "schedule_for",
]

ROUND_ROBINS = frozenset({"round-robin", "double-round-robin"})
SWISS = {"swiss-dutch": "dutch", "swiss-jca": "jca"}
"""Tournament systems paired round by round, and the pairing system behind each."""


def schedule_for(player_count: int, rounds: int, options: dict[str, Any]) -> Any:
    """A FLAMPARK schedule from stored or requested options; an engine error names the
    request field it concerns (`players` or `flampark`)."""
    try:
        return flampark_schedule(
            player_count,
            rounds,
            kinds=options.get("kinds"),
            round_order=options.get("round_order"),
            variant=options.get("variant", "individual"),
            rematch_byes=bool(options.get("rematch_byes", False)),
        )
    except FlamparkScheduleError as exc:
        exc.field = "players" if isinstance(exc, TooFewPlayersError) else "flampark"
        raise


def initial_rounds(row: TournamentRow, player_count: int) -> tuple[tuple[Round, ...], list[str]]:
    """Rounds to store when the list closes, and warnings for the organizer."""
    if row.system in ROUND_ROBINS:
        return round_robin_rounds(player_count, double=row.system == "double-round-robin"), []
    if row.system == "flampark":
        assert row.total_rounds is not None
        schedule = schedule_for(player_count, row.total_rounds, row.settings.get("flampark") or {})
        return schedule.rounds, list(schedule.warnings)
    return (), []


PAIRING_SYSTEMS = ("dutch", "jca", "flampark")
"""Systems the next-round pairing (API, compute endpoint, `arbiter pair`) accepts."""


def pair_next(
    system: str,
    tournament: Tournament,
    *,
    byes: Iterable[Bye] = (),
    options: dict[str, Any] | None = None,
    accelerations: Mapping[int, Sequence[Fraction]] | None = None,
    forbidden_pairs: Iterable[frozenset[int]] = (),
    explain: bool = False,
) -> Pairing:
    """Pair round `len(tournament.rounds) + 1` by `system` (dutch, jca or flampark).

    FLAMPARK pairs from start numbers alone: the next round is the next one of the
    whole schedule for the field (`tournament.total_rounds` rounds)."""
    settings = options or {}
    announced = tuple(byes)
    if system == "dutch":
        return dutch.pair_round(
            tournament,
            rules=settings.get("rules", "dutch-2026"),
            byes=announced,
            accelerations=accelerations,
            forbidden_pairs=forbidden_pairs,
            explain=explain,
        )
    if system == "jca":
        return jca.pair_round(
            tournament,
            byes=announced,
            seed=settings.get("seed"),
            reverse_from_middle=bool(settings.get("reverse_from_middle", False)),
            handicap_split=settings.get("handicap_split"),
            explain=explain,
        )
    if system == "flampark":
        total = tournament.total_rounds or len(tournament.rounds) + 1
        schedule = schedule_for(len(tournament.players), total, settings)
        number = len(tournament.rounds) + 1
        if number > len(schedule.rounds):
            raise InvalidInput(f"all {total} rounds are already paired", field="rounds")
        rnd = schedule.rounds[number - 1]
        return Pairing(number, rnd.games, rnd.byes, warnings=schedule.warnings)
    raise InvalidInput(
        f"unknown system {system!r}; expected one of {', '.join(PAIRING_SYSTEMS)}",
        field="system",
    )
