"""Round-robin standings for 1,000 players (999 rounds, 499,500 games) with SB, DE, WIN.

Prints the time to build the schedule and to compute the standings, then the live
table's case: one result changes and the standings are computed again, from nothing
and with the previous digest brought forward (`previous=`), alternating, 5 times each
(medians and their ratio; the round-robin reading given, as the API gives it). Run
with `make bench` or `python bench/bench_round_robin_standings.py [players]`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import replace

from service.engine.model import GameResult, Player, Round, Tournament
from service.engine.pairing.roundrobin import round_robin_rounds
from service.engine.scoring.standings import compute_standings


def main(players: int = 1000) -> None:
    rng = random.Random(2026)
    started = time.perf_counter()
    schedule = round_robin_rounds(players)
    scheduled = time.perf_counter()
    results = (GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS)
    rounds = tuple(
        Round(r.number, tuple(replace(g, result=rng.choice(results)) for g in r.games), r.byes)
        for r in schedule
    )
    field = tuple(Player(n, f"Player {n}", 2800 - n) for n in range(1, players + 1))
    tournament = Tournament(players=field, rounds=rounds, total_rounds=len(rounds))
    ready = time.perf_counter()
    standings = compute_standings(tournament, ("SB", "DE", "WIN"))
    done = time.perf_counter()
    games = sum(len(r.games) for r in rounds)
    print(f"players={players} rounds={len(rounds)} games={games}")
    print(f"schedule:  {scheduled - started:.3f} s")
    print(f"standings: {done - ready:.3f} s (SB, DE, WIN)")
    print(f"leader: #{standings.rows[0].start_number} with {float(standings.rows[0].points)}")
    fresh: list[float] = []
    brought: list[float] = []
    previous = standings
    for step in range(5):
        middle = len(rounds) // 2 + step
        rnd = tournament.rounds[middle]
        game = replace(rnd.games[0], result=rng.choice(results))
        changed = replace(rnd, games=(game, *rnd.games[1:]))
        rounds_now = (*tournament.rounds[:middle], changed, *tournament.rounds[middle + 1 :])
        tournament = replace(tournament, rounds=rounds_now)
        start = time.perf_counter()
        again = compute_standings(tournament, ("SB", "DE", "WIN"), round_robin=True)
        fresh.append(time.perf_counter() - start)
        start = time.perf_counter()
        previous = compute_standings(
            tournament, ("SB", "DE", "WIN"), round_robin=True, previous=previous.context
        )
        brought.append(time.perf_counter() - start)
        assert previous.rows == again.rows
    a, b = statistics.median(fresh), statistics.median(brought)
    print(f"one more result: from nothing {a:.3f} s, brought forward {b:.3f} s (ratio {b / a:.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
