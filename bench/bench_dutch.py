"""Benchmark: FIDE Dutch pairing of round 5 of 9 at growing field sizes.

The field is built by pairing rounds 1-4 with the engine itself and drawing random
results from a seeded generator; then round 5 is paired and timed.

    python bench/bench_dutch.py [sizes...]   (default: 100 500 1000 2000)
"""

from __future__ import annotations

import random
import sys
import time

from service.engine.model import Game, GameResult, Player, Round, Tournament
from service.engine.pairing.dutch import pair_round

RESULTS = (GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS)


def build_field(size: int, rounds_before: int, seed: int = 2026) -> Tournament:
    """A tournament of `size` players after `rounds_before` engine-paired rounds."""
    rng = random.Random(seed)
    players = tuple(Player(i, f"Player {i}", 2800 - i) for i in range(1, size + 1))
    tournament = Tournament(players=players, total_rounds=9)
    for _ in range(rounds_before):
        pairing = pair_round(tournament)
        games = tuple(
            Game(pairing.round, g.white, g.black, rng.choice(RESULTS), g.table)
            for g in pairing.games
        )
        played = Round(pairing.round, games, pairing.byes)
        tournament = Tournament(
            players=players, rounds=(*tournament.rounds, played), total_rounds=9
        )
    return tournament


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [100, 500, 1000, 2000]
    print(f"{'players':>8} {'build r1-4 (s)':>15} {'round 5 (s)':>12}")
    for size in sizes:
        start = time.perf_counter()
        field = build_field(size, 4)
        built = time.perf_counter() - start
        start = time.perf_counter()
        pairing = pair_round(field)
        elapsed = time.perf_counter() - start
        assert len(pairing.games) == size // 2
        print(f"{size:>8} {built:>15.2f} {elapsed:>12.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
