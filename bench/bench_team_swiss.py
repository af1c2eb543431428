"""Benchmark: pairing one round of a 500-team Swiss (FIDE C.04.6 engine).

Generates a random 500-team event (seeded) through round 4, then times pairing round
5 from that history: median of several runs, in seconds. The engine never enumerates
bracket pairings blindly: each bracket is paired by a greedy walk checked by a
matching oracle (O(n^4) worst case per bracket, near O(n^2) in practice) and
upfloater sets are bounded (engine.UPFLOATER_SET_LIMIT per size).

Run: .venv/bin/python bench/bench_team_swiss.py [teams] [round] [runs]
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace

from service.engine.pairing.team_swiss import (
    ColourPreferenceType,
    TeamSwissSettings,
    generate_team_tournament,
    pair_team_round,
    states_before,
)


def main() -> None:
    teams = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    round_number = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    for kind in ColourPreferenceType:
        settings = TeamSwissSettings(rounds=9, colour_preferences=kind)
        history = generate_team_tournament(
            teams, replace(settings, rounds=round_number - 1), seed=2026
        )
        history = replace(history, settings=settings)
        states = states_before(history, round_number)
        timings = []
        for _ in range(runs):
            start = time.perf_counter()
            pair_team_round(states, round_number, settings)
            timings.append(time.perf_counter() - start)
        print(
            f"{teams} teams, round {round_number}, colour preferences {kind.value}: "
            f"median {statistics.median(timings):.3f} s over {runs} runs"
        )


if __name__ == "__main__":
    main()
