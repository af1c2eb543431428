"""FLAMPARK schedule timings (SPEC 2): the whole tournament, every round, computed at once.

Run: python bench/bench_flampark.py. Prints seconds per full schedule (best of a few
runs) for 10,000 players and 13 rounds, basic and mixed kinds, and the colour quality
(three-in-a-rows and repeats) of each.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.engine.pairing.flampark import FlamparkSchedule, flampark_schedule

MIXED = ["basic"] * 6 + ["x2"] * 4 + ["x4"] * 2 + ["x8"]
ORDER = [13, 1, 7, 2, 12, 3, 8, 4, 11, 5, 9, 6, 10]


def _colour_quality(schedule: FlamparkSchedule) -> tuple[int, int]:
    colours: dict[int, list[bool]] = {}
    for rnd in schedule.rounds:
        for game in rnd.games:
            colours.setdefault(game.white, []).append(True)
            colours.setdefault(game.black, []).append(False)
    triples = repeats = 0
    for seq in colours.values():
        for i in range(1, len(seq)):
            if seq[i] == seq[i - 1]:
                repeats += 1
                if i >= 2 and seq[i - 2] == seq[i]:
                    triples += 1
    return triples, repeats


def _time(label: str, runs: int, **kwargs: object) -> None:
    best = float("inf")
    schedule = None
    for _ in range(runs):
        start = time.perf_counter()
        schedule = flampark_schedule(**kwargs)  # type: ignore[arg-type]
        best = min(best, time.perf_counter() - start)
    assert schedule is not None
    games = sum(len(r.games) for r in schedule.rounds)
    triples, repeats = _colour_quality(schedule)
    print(
        f"{label:<44} {best:8.3f} s  {games:7d} games  "
        f"three-in-a-row {triples:5d}  repeats {repeats:6d}"
    )


def main() -> None:
    _time("10000 players, 13 basic rounds", 3, player_count=10_000, rounds=13)
    _time("10001 players, 13 basic rounds (odd)", 3, player_count=10_001, rounds=13)
    _time(
        "10000 players, 13 mixed rounds, shuffled",
        3,
        player_count=10_000,
        rounds=13,
        kinds=MIXED,
        round_order=ORDER,
    )
    _time(
        "10007 players, 13 mixed, shuffled, rematches",
        3,
        player_count=10_007,
        rounds=13,
        kinds=MIXED,
        round_order=ORDER,
        rematch_byes=True,
    )
    _time(
        "10000 players, 13 rounds, group variant",
        3,
        player_count=10_000,
        rounds=13,
        variant="group",
    )
    _time(
        "56 players, 10 rounds, FK6 mix",
        20,
        player_count=56,
        rounds=10,
        kinds=["basic"] * 5 + ["x2"] * 3 + ["x4", "x8"],
    )


if __name__ == "__main__":
    main()
