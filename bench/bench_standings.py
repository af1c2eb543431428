"""Benchmark: standings for 10,000 players x 11 rounds (BH-C1, BH, SB, ARO, TPR, DE).

Plain script: `python bench/bench_standings.py [players] [rounds]`; prints seconds.
The event is generated deterministically (seeded): each round pairs neighbours in
the current score order, results drawn from the rating gap, a few forfeits, byes
and absences so the FIDE art. 16 paths run too.
"""

from __future__ import annotations

import os
import random
import sys
import time

from service.engine.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from service.engine.scoring.standings import compute_standings
from service.engine.scoring.tiebreaks.context import build_context
from service.engine.scoring.tiebreaks.registry import parse_tiebreak

CODES = ("BH-C1", "BH", "SB", "ARO", "TPR", "DE")


def make_tournament(players: int, rounds: int, seed: int = 20260301) -> Tournament:
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2800) for _ in range(players)), reverse=True)
    field = tuple(Player(i + 1, f"P{i + 1}", ratings[i]) for i in range(players))
    score = {p.start_number: 0.0 for p in field}
    played: list[Round] = []
    for number in range(1, rounds + 1):
        order = sorted(score, key=lambda n: (-score[n], n))
        games: list[Game] = []
        byes: list[Bye] = []
        if rng.random() < 0.5:  # somebody is absent this round
            absent = order.pop(rng.randrange(len(order)))
            byes.append(Bye(number, absent, ByeKind.ZERO_POINT))
        if len(order) % 2:
            byes.append(Bye(number, order.pop(), ByeKind.PAIRING_ALLOCATED))
            score[byes[-1].player] += 1
        for i in range(0, len(order), 2):
            white, black = order[i], order[i + 1]
            gap = field[white - 1].rating - field[black - 1].rating
            roll = rng.random()
            if roll < 0.002:
                result = GameResult.WHITE_WINS_FORFEIT
            else:
                p_white = 1 / (1 + 10 ** (-gap / 400))
                result = (
                    GameResult.WHITE_WINS
                    if roll < p_white * 0.8
                    else GameResult.DRAW
                    if roll < p_white * 0.8 + 0.2
                    else GameResult.BLACK_WINS
                )
            games.append(Game(number, white, black, result, i // 2 + 1))
            if result in (GameResult.WHITE_WINS, GameResult.WHITE_WINS_FORFEIT):
                score[white] += 1
            elif result is GameResult.DRAW:
                score[white] += 0.5
                score[black] += 0.5
            else:
                score[black] += 1
        played.append(Round(number, tuple(games), tuple(byes)))
    return Tournament(field, tuple(played), total_rounds=rounds)


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    start = time.perf_counter()
    tournament = make_tournament(players, rounds)
    print(f"generate {players} players x {rounds} rounds: {time.perf_counter() - start:.3f} s")

    start = time.perf_counter()
    ctx = build_context(tournament)
    print(f"context (one pass over the rounds): {time.perf_counter() - start:.3f} s")
    for code in CODES:
        tb = parse_tiebreak(code)
        if hasattr(tb, "values"):
            start = time.perf_counter()
            tb.values(ctx)
            print(f"  {code:6} values for everybody: {time.perf_counter() - start:.3f} s")

    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        standings = compute_standings(tournament, CODES)
        best = min(best, time.perf_counter() - start)
    shared = sum(
        1 for a, b in zip(standings.rows, standings.rows[1:], strict=False) if a.rank == b.rank
    )
    print(f"compute_standings {','.join(CODES)}: {best:.3f} s (best of 3)")
    print(f"rows {len(standings.rows)}, rows sharing a rank with the next: {shared}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) while measuring: {load:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
