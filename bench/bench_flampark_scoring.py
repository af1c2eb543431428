"""Benchmark: FLAMPARK scores and progress premium for a large field (docs/rules/flampark.md).

5,000 players x 11 rounds (27,500 games, shortening in 40 % of them as in FK6), then:
the full batch scores, the full progress premium, building the live accumulator, and the
cost of one more result (a correction) followed by the premium recomputation the text
asks for after every result. Prints seconds (the best of several runs); exact arithmetic throughout.
"""

from __future__ import annotations

import random
import time
from decimal import Decimal
from fractions import Fraction

from service.engine.model import Game, GameResult, Player, Round, Tournament
from service.engine.scoring.flampark import FlamparkAccumulator, flampark_scores
from service.engine.scoring.progress_premium import (
    progress_premium,
    progress_premium_from_ru,
)

PLAYERS = 5_000
ROUNDS = 11
BASE_MINUTES = 15
POOL = Decimal("25000.00")
WB = 800


def build() -> tuple[Tournament, dict[tuple[int, int], Fraction | int]]:
    rng = random.Random(7)
    players = tuple(
        Player(n, rating=2700 - (n - 1) * 1700 // (PLAYERS - 1)) for n in range(1, PLAYERS + 1)
    )
    rounds = []
    shortened: dict[tuple[int, int], Fraction | int] = {}
    for number in range(1, ROUNDS + 1):
        order = list(range(1, PLAYERS + 1))
        rng.shuffle(order)
        games = []
        for i in range(0, PLAYERS - 1, 2):
            white, black = order[i], order[i + 1]
            result = rng.choice(
                [GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS] * 10
                + [GameResult.WHITE_WINS_FORFEIT]
            )
            games.append(Game(number, white, black, result, i // 2 + 1))
            if rng.random() < 0.4:
                shortened[(number, white)] = rng.choice([1, 2, 5, 10, Fraction(15, 2)])
        rounds.append(Round(number, tuple(games)))
    return Tournament(players, tuple(rounds), total_rounds=ROUNDS), shortened


def timed(label: str, func, repeat: int = 3):  # type: ignore[no-untyped-def]
    """Run ``func`` ``repeat`` times; print the best time (least disturbed by load)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    print(f"{label:<58} {best:10.6f} s")
    return result


def main() -> None:
    tournament, shortened = build()
    ratings = {p.start_number: p.rating for p in tournament.players}
    print(f"{PLAYERS} players x {ROUNDS} rounds, {len(shortened)} shortened games")
    scores = timed(
        "flampark_scores (full batch)",
        lambda: flampark_scores(tournament, base_minutes=BASE_MINUTES, shortened=shortened),
    )
    premiums = timed(
        "progress_premium (full)",
        lambda: progress_premium(scores, ratings, pool=POOL, wb=WB),
    )
    assert sum(premiums.values()) == POOL
    acc = timed(
        "FlamparkAccumulator.from_tournament",
        lambda: FlamparkAccumulator.from_tournament(
            tournament, base_minutes=BASE_MINUTES, shortened=shortened
        ),
    )
    game = tournament.rounds[-1].games[0]
    flips = [GameResult.DRAW, GameResult.WHITE_WINS, GameResult.BLACK_WINS]
    state = {"i": 0}

    def one_result() -> None:
        state["i"] += 1
        acc.record(game.round, game.white, game.black, flips[state["i"] % 3])

    timed("accumulator.record (one result, two players)", one_result, repeat=1000)

    def premium_after_result() -> dict[int, Decimal]:
        one_result()
        return progress_premium_from_ru(acc.ru_map(), ratings, pool=POOL, wb=WB)

    live = timed("one result + premium from the running sums (live)", premium_after_result, 20)
    assert sum(live.values()) == POOL

    def scores_after_result() -> dict[int, Decimal]:
        one_result()
        return progress_premium(acc.scores(), ratings, pool=POOL, wb=WB)

    timed("one result + all FlamparkScores + premium", scores_after_result, 5)
    check = flampark_scores(
        Tournament(
            tournament.players,
            (
                *tournament.rounds[:-1],
                Round(
                    ROUNDS,
                    (
                        Game(ROUNDS, game.white, game.black, flips[state["i"] % 3]),
                        *tournament.rounds[-1].games[1:],
                    ),
                ),
            ),
        ),
        base_minutes=BASE_MINUTES,
        shortened=shortened,
    )
    assert check == acc.scores(), "accumulator diverged from the batch computation"
    print("accumulator agrees with the batch computation")


if __name__ == "__main__":
    main()
