"""Benchmark: live matchpoint and Butler scoring of a large pairs session.

A 200-table, 30-board session: every board is played at every table, results arrive
one at a time in a shuffled order, and after each result only that board is
rescored (board-local recompute) by matchpoints and by Butler (Polish datum); the
averaged cross-IMPs (Cavendish) are timed alongside.
Prints the seconds per result and for the whole session.

Cost per recompute is O(k log k) for k results already on the board (a sort and a
count for matchpoints, a sort and one IMP look-up per distinct score for Butler), so a
board of T tables costs O(T^2 log T) over the session and the session O(B T^2 log T).
Cross-IMPs cost O(d^2) per recompute for d distinct scores on the board.

Run: .venv/bin/python bench/bench_bridge.py [tables] [boards]
"""

from __future__ import annotations

import random
import sys
import time

from service.engine.bridge import board_conditions, butler, cavendish, matchpoints, ns_score

CONTRACTS = ["4S", "3NT", "4H", "5D", "2S", "3C", "6NT", "1NT", "4SX", "2HX"]
SEATS = ["N", "E", "S", "W"]


def make_session(tables: int, boards: int, seed: int = 2026) -> list[list[int]]:
    """Plausible NS scores: a few contracts per board, tricks around the par."""
    rng = random.Random(seed)
    session = []
    for board in range(1, boards + 1):
        vulnerability = board_conditions(board).vulnerability
        options = rng.sample(CONTRACTS, 3)
        scores = []
        for _ in range(tables):
            contract = rng.choice(options)
            level = int(contract[0])
            tricks = max(0, min(13, 6 + level + rng.choice([-2, -1, 0, 0, 0, 1, 1, 2])))
            scores.append(ns_score(contract, rng.choice(SEATS), vulnerability, tricks))
        session.append(scores)
    return session


def run(tables: int, boards: int) -> None:
    session = make_session(tables, boards)
    arrivals = [(board, table) for board in range(boards) for table in range(tables)]
    random.Random(7).shuffle(arrivals)
    received: list[list[int]] = [[] for _ in range(boards)]
    mp_seconds = 0.0
    butler_seconds = 0.0
    cross_seconds = 0.0
    start = time.perf_counter()
    for board, table in arrivals:
        received[board].append(session[board][table])
        scores = received[board]
        t0 = time.perf_counter()
        matchpoints(scores)
        t1 = time.perf_counter()
        butler(scores, "pzbs")
        t2 = time.perf_counter()
        cavendish(scores)
        t3 = time.perf_counter()
        mp_seconds += t1 - t0
        butler_seconds += t2 - t1
        cross_seconds += t3 - t2
    total = time.perf_counter() - start
    results = len(arrivals)
    print(f"session: {tables} tables x {boards} boards = {results} results")
    figures = (
        ("matchpoints", mp_seconds),
        ("butler", butler_seconds),
        ("cavendish", cross_seconds),
    )
    for label, seconds in figures:
        per_result = seconds / results * 1e6
        print(f"{label + ':':12} {seconds:.3f} s total, {per_result:.1f} us per result")
    print(f"all three:   {total:.3f} s for the session, {total / results * 1e3:.3f} ms per result")
    t0 = time.perf_counter()
    full = [matchpoints(scores) for scores in session]
    t1 = time.perf_counter()
    print(f"one full rescore of the session (matchpoints): {t1 - t0:.3f} s ({len(full)} boards)")


if __name__ == "__main__":
    arguments = [int(arg) for arg in sys.argv[1:3]]
    run(*(arguments + [200, 30][len(arguments) :]))
