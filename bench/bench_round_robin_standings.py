"""Round-robin standings for 1,000 players (999 rounds, 499,500 games) with SB, DE, WIN.

Prints the time to build the schedule and to compute the standings, then the live
table's case: one result changes and the standings are computed again, from nothing
and with the previous digest brought forward (`previous=`), alternating, 5 times each
(medians and their ratio; the round-robin reading given, as the API gives it). Last,
the live reader's case under the write bench: a 400-player round-robin, batches of 150
results spread over the schedule (`live_batches`). Run with `make bench` or
`python bench/bench_round_robin_standings.py [players]`.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from dataclasses import replace

from service.engine.model import GameResult, Player, Round, Tournament
from service.engine.pairing.roundrobin import round_robin_rounds
from service.engine.scoring.reading import DEFAULT_ROUND_ROBIN
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


def live_batches(players: int = 400, batch: int = 150, batches: int = 10) -> None:
    """The live reader's case under the write bench (bench_writes.py: about 750 results
    a second, standings read 5 times a second): a round-robin with an eighth of its
    games finished, then batches of `batch` results spread over the whole schedule, the
    table after each computed from nothing and brought forward, alternating, with the
    round-robin's default tie-breaks. The heap is frozen first, as the service does."""
    rng = random.Random(2027)
    schedule = round_robin_rounds(players)
    outcomes = (GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS)
    games = [list(r.games) for r in schedule]
    slots = [(i, j) for i, r in enumerate(games) for j in range(len(r))]
    rng.shuffle(slots)
    current = [Round(r.number, tuple(g), r.byes) for r, g in zip(schedule, games, strict=True)]
    field = tuple(Player(n, f"Player {n}", 2800 - n) for n in range(1, players + 1))

    def report(chosen: list[tuple[int, int]]) -> Tournament:
        for i, j in chosen:
            games[i][j] = replace(games[i][j], result=rng.choice(outcomes))
        for i in {i for i, _ in chosen}:
            current[i] = Round(schedule[i].number, tuple(games[i]), schedule[i].byes)
        return Tournament(players=field, rounds=tuple(current), total_rounds=len(current))

    codes = DEFAULT_ROUND_ROBIN
    finished = len(slots) // 8
    previous = compute_standings(report(slots[:finished]), codes, round_robin=True)
    gc.collect()
    gc.freeze()
    fresh: list[float] = []
    brought: list[float] = []
    for step in range(batches):
        start_at = finished + step * batch
        tournament = report(slots[start_at : start_at + batch])
        start = time.perf_counter()
        again = compute_standings(tournament, codes, round_robin=True)
        fresh.append(time.perf_counter() - start)
        start = time.perf_counter()
        previous = compute_standings(tournament, codes, round_robin=True, previous=previous.context)
        brought.append(time.perf_counter() - start)
        assert previous.rows == again.rows
    gc.unfreeze()
    a, b = statistics.median(fresh), statistics.median(brought)
    print(
        f"{players} players, batches of {batch} results over the schedule ({', '.join(codes)}): "
        f"from nothing {a * 1000:.1f} ms, brought forward {b * 1000:.1f} ms (ratio {b / a:.2f})"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
    live_batches()
