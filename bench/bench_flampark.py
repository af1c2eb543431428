"""FLAMPARK schedule timings (docs/rules/flampark.md): every round, computed at once.

Run: python bench/bench_flampark.py. For 10,000 players and 13 rounds (basic, odd
count, mixed kinds in a shuffled order, rematches, group variant) it prints the best
wall-clock seconds of a few runs (perf_counter), the CPU seconds of that run
(process_time, less sensitive to a busy machine), the number of games, and the colour
quality (three-in-a-rows, repeats, largest colour surplus). The last line times the
pairing-quality figures over the mixed schedule.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.engine.model import Player
from service.engine.pairing.flampark import FlamparkSchedule, flampark_schedule
from service.engine.stats import pairing_quality

MIXED = ["basic"] * 6 + ["x2"] * 4 + ["x4"] * 2 + ["x8"]
ORDER = [13, 1, 7, 2, 12, 3, 8, 4, 11, 5, 9, 6, 10]


def _colour_quality(schedule: FlamparkSchedule) -> tuple[int, int, int]:
    colours: dict[int, list[bool]] = {}
    for rnd in schedule.rounds:
        for game in rnd.games:
            colours.setdefault(game.white, []).append(True)
            colours.setdefault(game.black, []).append(False)
    triples = repeats = surplus = 0
    for seq in colours.values():
        surplus = max(surplus, abs(2 * sum(seq) - len(seq)))
        for i in range(1, len(seq)):
            if seq[i] == seq[i - 1]:
                repeats += 1
                if i >= 2 and seq[i - 2] == seq[i]:
                    triples += 1
    return triples, repeats, surplus


def _time(label: str, runs: int, **kwargs: object) -> FlamparkSchedule:
    best = (float("inf"), 0.0)
    schedule = None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        schedule = flampark_schedule(**kwargs)  # type: ignore[arg-type]
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
    assert schedule is not None
    games = sum(len(r.games) for r in schedule.rounds)
    triples, repeats, surplus = _colour_quality(schedule)
    print(
        f"{label:<44} {best[0]:6.3f} s wall {best[1]:6.3f} s cpu {games:6d} games  "
        f"three-in-a-row {triples}  repeats {repeats:5d}  max surplus {surplus}"
    )
    return schedule


def main() -> None:
    _time("10000 players, 13 basic rounds", 3, player_count=10_000, rounds=13)
    _time("10001 players, 13 basic rounds (odd)", 3, player_count=10_001, rounds=13)
    mixed = _time(
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
    players = [Player(n, rating=2800 - n // 5) for n in range(1, 10_001)]
    wall = time.perf_counter()
    quality = pairing_quality(players, mixed.rounds)
    print(
        f"{'pairing_quality, 10000 players, 65000 games':<44} "
        f"{time.perf_counter() - wall:6.3f} s wall  largest gap {quality.largest_start_gap}"
    )


if __name__ == "__main__":
    main()
