"""Timing of the Berger round-robin schedule and of the JCA Swiss pairing.

Plain script: prints figures, asserts nothing. Round-robin schedules are O(n^2);
a JCA round is dominated by the matching checks (near O(n^2) on Swiss graphs).
The JCA part simulates whole events with random results (fixed seeds).
"""

from __future__ import annotations

import random
import time

from service.engine.model import Game, GameResult, Player, Round, Tournament
from service.engine.pairing.jca import pair_round
from service.engine.pairing.roundrobin import round_robin_rounds


def bench_round_robin() -> None:
    print("Berger round-robin (double), whole schedule")
    for count in (16, 50, 100, 250):
        start = time.perf_counter()
        rounds = round_robin_rounds(count, double=True)
        elapsed = time.perf_counter() - start
        games = sum(len(r.games) for r in rounds)
        print(f"  {count:5d} players  {games:8d} games  {elapsed * 1000:9.1f} ms")


def _simulate(
    count: int, rounds: int, seed: int, *, reverse: bool = False, handicap: int | None = None
) -> list[float]:
    rng = random.Random(seed)
    players = tuple(Player(i, rating=2700 - i) for i in range(1, count + 1))
    tournament = Tournament(players)
    timings: list[float] = []
    results = (GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW)
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        pairing = pair_round(
            tournament, seed=seed, reverse_from_middle=reverse, handicap_split=handicap
        )
        timings.append(time.perf_counter() - start)
        played = tuple(
            Game(number, g.white, g.black, rng.choice(results), g.table) for g in pairing.games
        )
        tournament = Tournament(players, (*tournament.rounds, Round(number, played, pairing.byes)))
    return timings


def bench_jca() -> None:
    print("JCA Swiss, 9 rounds with random results")
    for count in (50, 200, 500, 1000):
        for label, reverse in (("plain", False), ("reverse", True)):
            timings = _simulate(count, 9, seed=1, reverse=reverse)
            print(
                f"  {count:5d} players {label:8s} per round max {max(timings) * 1000:7.1f} ms"
                f"  mean {sum(timings) / len(timings) * 1000:7.1f} ms"
            )
    print("JCA Swiss, a field nearly played out: 30 players, 27 rounds, A/B handicap")
    timings = _simulate(30, 27, seed=6, handicap=15)
    print(f"  per round max {max(timings) * 1000:7.1f} ms  total {sum(timings):6.2f} s")


if __name__ == "__main__":
    bench_round_robin()
    bench_jca()
