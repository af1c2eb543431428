"""Benchmark: team standings of a 1,000-team, 9-round Swiss (FIDE C.07 team tie-breaks).

Generates a seeded 1,000-team, 4-board team Swiss through the C.04.6 engine (colour
preferences "none", the quickest to generate) and times the ranking of its teams by
the default Swiss list (PTS, MPVGP, EDE, EMGSB, BH:MP, BC) and by that list with every
other team code after it. A TRF-26 file numbers at most 999 teams, so reading a team
file (the other half of `POST /v1/compute/standings`) is timed when the event has 999
teams or fewer (`bench_team_standings.py 999`). Medians of several runs, in seconds.

Run: .venv/bin/python bench/bench_team_standings.py [teams] [rounds] [runs]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from service.engine.pairing.team_swiss import (
    ColourPreferenceType,
    TeamSwissSettings,
    generate_team_tournament,
)
from service.engine.teams.generated import generated_team_document
from service.engine.teams.model import TeamSystem
from service.engine.teams.ranking import rank_teams
from service.engine.teams.registry import DEFAULT_TEAM_TIEBREAKS
from service.engine.teams.trf import MAX_TRF_TEAMS, parse_team_trf, write_team_trf

EVERY_OTHER_CODE = (
    "GPTS",
    "EMMSB",
    "EGMSB",
    "EGGSB",
    "EMGSB/C1",
    "WIN",
    "PS",
    "TBR",
    "BBE",
    "DE",
    "EDET",
    "EDEB",
    "BH:GP",
    "BH:MP/C1",
    "FB:MP",
    "SSSC",
)


def _median(runs: int, work: Callable[[], object]) -> float:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def main() -> None:
    teams = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    settings = TeamSwissSettings(rounds=rounds, colour_preferences=ColourPreferenceType.NONE)
    start = time.perf_counter()
    event = generate_team_tournament(teams, settings, seed=2026)
    generated = time.perf_counter() - start
    document = generated_team_document(event)
    print(
        f"{teams} teams x {rounds} rounds x {event.boards} boards (generated in {generated:.1f} s)"
    )
    default = list(DEFAULT_TEAM_TIEBREAKS[TeamSystem.SWISS])
    ranked = _median(runs, lambda: rank_teams(document.event, default))
    every = _median(runs, lambda: rank_teams(document.event, [*default, *EVERY_OTHER_CODE]))
    if teams <= MAX_TRF_TEAMS:
        text = write_team_trf(document)
        read = _median(runs, lambda: parse_team_trf(text, system=TeamSystem.SWISS))
        print(f"read the team file ({len(text):,} bytes)  median {read:.3f} s over {runs} runs")
    else:
        print(
            f"(a TRF-26 file holds at most {MAX_TRF_TEAMS} teams: run with 999 to time reading one)"
        )
    print(f"rank, {len(default)} default codes        median {ranked:.3f} s over {runs} runs")
    print(
        f"rank, {len(default) + len(EVERY_OTHER_CODE)} codes                 "
        f"median {every:.3f} s over {runs} runs"
    )


if __name__ == "__main__":
    main()
