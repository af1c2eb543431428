"""Patton and board-a-match team scoring (lecture *Wynik rozdania*, "Turniej systemem Pattona").

A team match is a list of boards, each with the NS score in the open room (home
team sitting NS) and in the closed room (home team sitting EW). The home team's
net on a board is open - closed.

Board-a-match: every board is worth 2 points: the better net takes 2:0, an exact
tie is 1:1 (the lecture: "a difference of 10 points or more is 2:0").

Patton: the board points work the same way, except that a difference of 10 is
still a tie (the lecture: "ale różnica 10 to jeszcze remis"), plus balance points
("punkty za saldo", usually as many as for the boards, 2 per board). Each team's
balance is the total of the points it scored in both rooms (home: the positive open
-room scores plus the negated negative closed-room scores; the visitors the other
way round). Its share is (larger - smaller) / larger.

The lecture's bands for an 8-point balance: below 10 % 4:4, below 20 % 5:3, below the
third threshold 6:2, below 50 % 7:1, 50 % or more 8:0. Reading: the third
threshold is garbled in the OCR ("23;/3%") and is read as 33 1/3 %; the balance is
taken relative to the larger total, as the Polish Patton scorer used at PZBS youth
camps does. For B balance points the bands give B/2 + i x B/8 to the winner
(i = 0..4), which is 4..8 of 8 for a 4-board match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from service.engine.bridge.errors import BridgeInputError

__all__ = [
    "DEFAULT_BALANCE_THRESHOLDS",
    "BoardAMatchResult",
    "PattonResult",
    "balance_points",
    "board_a_match",
    "board_points",
    "patton",
    "scored_points",
]

DEFAULT_BALANCE_THRESHOLDS: tuple[Fraction, ...] = (
    Fraction(1, 10),
    Fraction(1, 5),
    Fraction(1, 3),
    Fraction(1, 2),
)
"""Shares below which the winner gets 1/2, 5/8, 6/8, 7/8 of the balance points."""


def _check_boards(boards: Sequence[tuple[int, int]]) -> None:
    for number, pair in enumerate(boards, start=1):
        if len(pair) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in pair):
            raise BridgeInputError(
                "boards", f"board {number}: expected (open NS, closed NS) scores"
            )


def board_points(open_ns: int, closed_ns: int, *, tie_margin: int = 10) -> tuple[int, int]:
    """(home, away) points of one board: 2:0, 1:1 or 0:2.

    A net difference of at most `tie_margin` is a tie (10 in Patton, 0 in
    board-a-match).
    """
    _check_boards([(open_ns, closed_ns)])
    net = open_ns - closed_ns
    if abs(net) <= tie_margin:
        return (1, 1)
    return (2, 0) if net > 0 else (0, 2)


def scored_points(boards: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """(home, away) total of points scored in both rooms (the Patton balance)."""
    _check_boards(boards)
    home = sum(max(o, 0) + max(-c, 0) for o, c in boards)
    away = sum(max(-o, 0) + max(c, 0) for o, c in boards)
    return home, away


def balance_points(
    home_scored: int,
    away_scored: int,
    total: int | Fraction,
    thresholds: Sequence[Fraction] = DEFAULT_BALANCE_THRESHOLDS,
) -> tuple[Fraction, Fraction]:
    """(home, away) balance points out of `total` from the scored totals."""
    if home_scored < 0 or away_scored < 0:
        raise BridgeInputError("scored", "scored totals cannot be negative")
    whole = Fraction(total)
    half = whole / 2
    larger = max(home_scored, away_scored)
    if larger == 0 or home_scored == away_scored:
        return half, half
    share = Fraction(larger - min(home_scored, away_scored), larger)
    band = sum(1 for threshold in thresholds if share >= threshold)
    step = half / len(thresholds)
    winner = half + band * step
    return (winner, whole - winner) if home_scored > away_scored else (whole - winner, winner)


@dataclass(frozen=True, slots=True)
class PattonResult:
    """A Patton match: board points, balance points and totals (home, away)."""

    boards: tuple[tuple[int, int], ...]
    """(home, away) points per board."""
    board_points: tuple[int, int]
    """Sum of the board points."""
    scored: tuple[int, int]
    """Points scored by each team in both rooms."""
    balance_points: tuple[Fraction, Fraction]
    """Balance points."""
    total: tuple[Fraction, Fraction]
    """Board points plus balance points."""


def patton(
    boards: Sequence[tuple[int, int]],
    *,
    tie_margin: int = 10,
    balance_total: int | Fraction | None = None,
    thresholds: Sequence[Fraction] = DEFAULT_BALANCE_THRESHOLDS,
) -> PattonResult:
    """Score a Patton match from (open NS, closed NS) per board.

    `balance_total` defaults to the board points at stake (2 per board).
    """
    _check_boards(boards)
    per_board = tuple(board_points(o, c, tie_margin=tie_margin) for o, c in boards)
    home_bp = sum(p[0] for p in per_board)
    away_bp = sum(p[1] for p in per_board)
    scored = scored_points(boards)
    stake = 2 * len(boards) if balance_total is None else balance_total
    balance = balance_points(scored[0], scored[1], stake, thresholds)
    return PattonResult(
        boards=per_board,
        board_points=(home_bp, away_bp),
        scored=scored,
        balance_points=balance,
        total=(home_bp + balance[0], away_bp + balance[1]),
    )


@dataclass(frozen=True, slots=True)
class BoardAMatchResult:
    """A board-a-match: points per board and in total (home, away)."""

    boards: tuple[tuple[int, int], ...]
    """(home, away) points per board."""
    total: tuple[int, int]
    """Sum over the boards."""


def board_a_match(boards: Sequence[tuple[int, int]], *, tie_margin: int = 0) -> BoardAMatchResult:
    """Score a board-a-match from (open NS, closed NS) per board: 2:0 / 1:1 / 0:2."""
    _check_boards(boards)
    per_board = tuple(board_points(o, c, tie_margin=tie_margin) for o, c in boards)
    return BoardAMatchResult(
        per_board, (sum(p[0] for p in per_board), sum(p[1] for p in per_board))
    )
