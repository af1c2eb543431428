"""A team match: open and closed room per board -> IMPs -> VP (docs/rules/bridge.md).

The home team sits NS in the open room and EW in the closed room; a board's net for
the home team is open NS score - closed NS score, converted to IMPs (Law 78B). The
match margin is converted to victory points on the chosen scale for the number of
boards played (the lecture *Wynik rozdania*'s match protocol: "każde rozdanie na IMPy, różnica
zdobytych IMPów na VP").

Adjusted boards (Law 12C): either room may hold a `WeightedScore` (IMP every
component pairing, then weight: 60 % of +420 and 40 % of -50 against +170 is
0.6 x 6 + 0.4 x (-6) = +1.2 IMPs), or the whole board may be an `ImpAdjustment`
giving each team its own IMPs (Ave+ / Ave- = +3 / -3; both teams may get -3).
IMPs are exact `Fraction`s. `imp_adjustment` adds match-level IMP corrections.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from service.engine.bridge.entries import WeightedScore, components
from service.engine.bridge.errors import BridgeInputError
from service.engine.bridge.imps import ImpRounding, imps
from service.engine.bridge.vp import BandScale, vp

__all__ = [
    "ImpAdjustment",
    "TeamBoard",
    "TeamMatchResult",
    "aggregate_margin",
    "board_imps",
    "team_match",
]


@dataclass(frozen=True, slots=True)
class ImpAdjustment:
    """An artificial adjusted board at IMPs: each team's IMPs set directly."""

    home: int | Fraction
    """IMPs for the home team (e.g. +3 for average-plus)."""
    away: int | Fraction
    """IMPs for the visitors (e.g. -3 for average-minus)."""


TeamBoard = tuple[int | WeightedScore, int | WeightedScore] | ImpAdjustment
"""(open-room NS score, closed-room NS score), or an artificial adjustment."""


def board_imps(
    open_ns: int | WeightedScore,
    closed_ns: int | WeightedScore,
    imp_rounding: ImpRounding | str = ImpRounding.NEAREST,
) -> Fraction:
    """The home team's IMPs on one board (negative when the visitors gain)."""
    for field, value in (("open_ns", open_ns), ("closed_ns", closed_ns)):
        if isinstance(value, bool) or not isinstance(value, int | WeightedScore):
            raise BridgeInputError(field, f"must be an NS score or a WeightedScore, got {value!r}")
    total = Fraction(0)
    for weight, score in components(open_ns):
        for other_weight, other_score in components(closed_ns):
            total += weight * other_weight * imps(score - other_score, imp_rounding)
    return total


@dataclass(frozen=True, slots=True)
class TeamMatchResult:
    """The IMP and VP score of a team match."""

    board_imps: tuple[tuple[Fraction, Fraction], ...]
    """(home, away) IMPs won per board (one side is 0 on a normal board)."""
    imps: tuple[Fraction, Fraction]
    """(home, away) total IMPs, adjustments included."""
    margin: Fraction
    """Home IMPs minus away IMPs."""
    vp: tuple[Decimal, Decimal]
    """(home, away) victory points."""


def team_match(
    boards: Sequence[TeamBoard],
    *,
    scale: str | BandScale = "wbf-2013",
    boards_in_match: int | None = None,
    imp_adjustment: tuple[int | Fraction, int | Fraction] = (0, 0),
    imp_rounding: ImpRounding | str = ImpRounding.NEAREST,
) -> TeamMatchResult:
    """Score a team match board by board and convert the margin to VP.

    `boards_in_match` (default: the number of boards given) selects the VP table,
    for a match scored before every board is in.
    """
    per_board: list[tuple[Fraction, Fraction]] = []
    for number, board in enumerate(boards, start=1):
        if isinstance(board, ImpAdjustment):
            per_board.append((Fraction(board.home), Fraction(board.away)))
            continue
        if not isinstance(board, tuple) or len(board) != 2:
            raise BridgeInputError("boards", f"board {number}: expected (open NS, closed NS)")
        value = board_imps(board[0], board[1], imp_rounding)
        per_board.append((max(value, Fraction(0)), max(-value, Fraction(0))))
    home = sum((b[0] for b in per_board), Fraction(0)) + Fraction(imp_adjustment[0])
    away = sum((b[1] for b in per_board), Fraction(0)) + Fraction(imp_adjustment[1])
    count = len(boards) if boards_in_match is None else boards_in_match
    margin = home - away
    result = vp(margin, count, scale)
    return TeamMatchResult(
        board_imps=tuple(per_board),
        imps=(home, away),
        margin=margin,
        vp=result.for_side(margin),
    )


def aggregate_margin(boards: Sequence[tuple[int, int]]) -> int:
    """Total-points ("zapis sumaryczny", Law 78C) margin of the home team.

    The sum over the boards of open-room NS score minus closed-room NS score.
    """
    total = 0
    for number, board in enumerate(boards, start=1):
        if (
            not isinstance(board, tuple)
            or len(board) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in board)
        ):
            raise BridgeInputError("boards", f"board {number}: expected (open NS, closed NS)")
        total += board[0] - board[1]
    return total
