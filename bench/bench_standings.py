"""Benchmark: standings for 10,000 players x 11 rounds (BH-C1, BH, SB, ARO, TPR, DE).

Plain script: `python bench/bench_standings.py [players] [rounds]`; prints seconds.
Two deterministic (seeded) events, each round pairing neighbours in the current
score order with results drawn from the rating gap:

1. nearly every game played (one absence every other round, the odd player's
   pairing-allocated bye, 0.2 % forfeits);
2. an event under way: about 5 % of the rounds unplayed (requested full-, half- and
   zero-point byes, absences, forfeit wins and losses, double forfeits), 1 % late
   entries, 1 % withdrawals, and half the last round's games still without a result.

For the second, every tie-break is timed twice: its column path (`raw`, what the
standings use) and the round-by-round walk kept beside it (`reference_raw`, the
way participants with an unplayed round were computed before the column paths).
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable

from service.engine.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from service.engine.scoring.standings import compute_standings
from service.engine.scoring.tiebreaks.base import TieBreak
from service.engine.scoring.tiebreaks.context import TieBreakContext, build_context
from service.engine.scoring.tiebreaks.registry import parse_tiebreak

CODES = ("BH-C1", "BH", "SB", "ARO", "TPR", "DE")
SWISS = ("BH-C1", "BH", "SB", "DE", "WIN")
EVERY_CODE = (
    "BH-C1", "BH", "BH-M1", "BH-C2/P", "FB", "AOB", "SB", "SB-C1", "SB-S", "SB-D",
    "WIN", "WON", "BPG", "BWG", "REP", "PS", "STD", "KS",
    "ARO", "ARO-C1", "TPR", "PTP", "APRO", "APPO", "PERF-JCA",
)  # fmt: skip
_REQUESTED = (ByeKind.FULL_POINT, ByeKind.HALF_POINT, ByeKind.ZERO_POINT, None)
_FORFEITS = (
    GameResult.WHITE_WINS_FORFEIT,
    GameResult.BLACK_WINS_FORFEIT,
    GameResult.DOUBLE_FORFEIT,
)


def _by_rating(roll: float, gap: int) -> GameResult:
    """A result drawn from `roll` in [0, 1): Elo expectation for white, 20 % draws."""
    p_white = 1 / (1 + 10 ** (-gap / 400))
    if roll < p_white * 0.8:
        return GameResult.WHITE_WINS
    if roll < p_white * 0.8 + 0.2:
        return GameResult.DRAW
    return GameResult.BLACK_WINS


def _credit(score: dict[int, float], white: int, black: int, result: GameResult | None) -> None:
    """Add a game's points to the running scores used to pair the next round."""
    if result in (GameResult.WHITE_WINS, GameResult.WHITE_WINS_FORFEIT):
        score[white] += 1
    elif result is GameResult.DRAW:
        score[white] += 0.5
        score[black] += 0.5
    elif result in (GameResult.BLACK_WINS, GameResult.BLACK_WINS_FORFEIT):
        score[black] += 1


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
            result = GameResult.WHITE_WINS_FORFEIT if roll < 0.002 else _by_rating(roll, gap)
            games.append(Game(number, white, black, result, i // 2 + 1))
            _credit(score, white, black, result)
        played.append(Round(number, tuple(games), tuple(byes)))
    return Tournament(field, tuple(played), total_rounds=rounds)


def make_unfinished_tournament(
    players: int,
    rounds: int,
    seed: int = 20260302,
    unplayed: float = 0.05,
    unfinished: float = 0.5,
) -> Tournament:
    """Case 2: `unplayed` of the rounds without a game, `unfinished` of the last
    round's games without a result (None: byes not listed are absences)."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2800) for _ in range(players)), reverse=True)
    field = tuple(Player(i + 1, f"P{i + 1}", ratings[i]) for i in range(players))
    score = {p.start_number: 0.0 for p in field}
    first = dict.fromkeys(score, 1)
    last = dict.fromkeys(score, rounds)
    for number in score:
        roll = rng.random()
        if roll < 0.01:
            first[number] = rng.randint(2, max(2, rounds // 2))
        elif roll < 0.02:
            last[number] = rng.randint(max(1, rounds // 2), max(1, rounds - 1))
    played: list[Round] = []
    for number in range(1, rounds + 1):
        games: list[Game] = []
        byes: list[Bye] = []
        present: list[int] = []
        for player in sorted(score, key=lambda n: (-score[n], n)):
            if not first[player] <= number <= last[player]:
                continue
            if rng.random() < unplayed / 2:
                kind = rng.choice(_REQUESTED)
                if kind is not None:
                    byes.append(Bye(number, player, kind))
                    score[player] += {ByeKind.FULL_POINT: 1.0, ByeKind.HALF_POINT: 0.5}.get(kind, 0)
                continue
            present.append(player)
        if len(present) % 2:
            byes.append(Bye(number, present.pop(), ByeKind.PAIRING_ALLOCATED))
            score[byes[-1].player] += 1
        for i in range(0, len(present), 2):
            white, black = present[i], present[i + 1]
            result: GameResult | None
            if number == rounds and rng.random() < unfinished:
                result = None
            elif rng.random() < unplayed / 2:
                result = rng.choice(_FORFEITS)
            else:
                gap = field[white - 1].rating - field[black - 1].rating
                result = _by_rating(rng.random(), gap)
            games.append(Game(number, white, black, result, i // 2 + 1))
            _credit(score, white, black, result)
        played.append(Round(number, tuple(games), tuple(byes)))
    return Tournament(field, tuple(played), total_rounds=rounds)


def _best(run: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _fresh(tournament: Tournament, run: Callable[[TieBreakContext], object]) -> float:
    """Best of 2, each on a fresh context (no aggregate cached by an earlier run)."""
    best = float("inf")
    for _ in range(2):
        ctx = build_context(tournament)
        start = time.perf_counter()
        run(ctx)
        best = min(best, time.perf_counter() - start)
    return best


def _standings(tournament: Tournament, codes: tuple[str, ...]) -> None:
    seconds = _best(lambda: compute_standings(tournament, codes))
    print(f"compute_standings {','.join(codes)}: {seconds:.3f} s (best of 3)")


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    print("== case 1: nearly every game played")
    start = time.perf_counter()
    tournament = make_tournament(players, rounds)
    print(f"generate {players} players x {rounds} rounds: {time.perf_counter() - start:.3f} s")

    start = time.perf_counter()
    ctx = build_context(tournament)
    print(f"context (one pass over the rounds): {time.perf_counter() - start:.3f} s")
    for code in CODES:
        tb = parse_tiebreak(code)
        if isinstance(tb, TieBreak):
            start = time.perf_counter()
            tb.values(ctx)
            print(f"  {code:6} values for everybody: {time.perf_counter() - start:.3f} s")

    standings = compute_standings(tournament, CODES)
    _standings(tournament, CODES)
    _standings(tournament, SWISS)
    shared = sum(
        1 for a, b in zip(standings.rows, standings.rows[1:], strict=False) if a.rank == b.rank
    )
    print(f"rows {len(standings.rows)}, rows sharing a rank with the next: {shared}")

    print("== case 2: 5 % unplayed rounds, half the last round unfinished")
    tournament = make_unfinished_tournament(players, rounds)
    ctx = build_context(tournament)
    everything = [pd.all_played for pd in ctx.players.values()].count(True)
    print(f"participants with every round played over the board: {everything} of {players}")
    print(f"context (one pass over the rounds): {_best(lambda: build_context(tournament)):.3f} s")
    _standings(tournament, CODES)
    _standings(tournament, SWISS)
    print("  code       columns  round by round (s)")
    for code in EVERY_CODE:
        tb = parse_tiebreak(code)
        assert isinstance(tb, TieBreak)
        fast = _fresh(tournament, tb.raw)
        slow = _fresh(tournament, tb.reference_raw)
        print(f"  {code:9} {fast:8.3f} {slow:8.3f}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) while measuring: {load:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
