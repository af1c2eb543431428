"""Cavendish (cross-IMP) scoring of a board, and the Polish cap on a round.

Originally every score is compared with every other table's score on the board
and the IMPs are summed, as if each pair played a match against every other. The
"averaged Cavendish" divides that sum so the figure reads like a team match
(the lecture *Wynik rozdania*: "+9.2 IMPs instead of 128.8 (14 tables)").

Readings:

- Divisor. The lecture divides "by the number of tables"; the default
  `divisor="tables"` divides by the number of results on the board, n. Most
  programs (ACBLscore's average IMPs, the Polish "Cavendish uśredniony" page) divide
  by the number of comparisons, n - 1: `divisor="comparisons"`. `divisor="total"`
  keeps the plain sum.
- Cap per board. The lecture mentions a WBF-style limit of 17 IMPs per board; it is
  applied to each comparison (`comparison_cap=17`), symmetrically, as the Polish
  "Cavendish uśredniony" page does (differences of 1500 or more all count 17),
  which keeps the cross-IMPs of a board summing to zero.
- Cap per round (the Polish rule, as the lecture states it): a table may win at most
  10 + k IMPs in a round of k boards; losses are not capped (`capped_round_total`). It
  applies equally to Butler rounds.

Weighted scores are IMPed component by component and weighted (IMP first, then
weight); an artificial score is left out of the comparisons and gets
(percent - 50) x 3 / 10 IMPs per side on the averaged scale, times the divisor's
comparisons for `"total"`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from service.engine.bridge.butler import artificial_imps
from service.engine.bridge.entries import ArtificialScore, BoardEntry, WeightedScore, components
from service.engine.bridge.errors import BridgeInputError
from service.engine.bridge.imps import ImpRounding, imps

__all__ = ["CavendishDivisor", "CavendishResult", "capped_round_total", "cavendish"]


class CavendishDivisor(enum.StrEnum):
    """What the summed cross-IMPs of a table are divided by."""

    TOTAL = "total"
    """Nothing: the plain sum of comparisons."""
    TABLES = "tables"
    """The number of results on the board (the lecture's wording)."""
    COMPARISONS = "comparisons"
    """The number of comparisons, results - 1 (common software practice)."""


@dataclass(frozen=True, slots=True)
class CavendishResult:
    """Cross-IMPs of every table on one board, in input order."""

    ns_imps: tuple[Fraction, ...]
    """North-South IMPs per table (after the divisor)."""
    ew_imps: tuple[Fraction, ...]
    """East-West IMPs per table."""
    comparisons: int
    """How many other real results each real result was compared with."""


def cavendish(
    scores: Sequence[BoardEntry],
    *,
    divisor: CavendishDivisor | str = CavendishDivisor.TABLES,
    comparison_cap: int | None = None,
    imp_rounding: ImpRounding | str = ImpRounding.NEAREST,
    imps_per_10_percent: int | Fraction = 3,
) -> CavendishResult:
    """Cross-IMP one board: each NS score against every other table's NS score."""
    try:
        kind = CavendishDivisor(divisor)
    except ValueError:
        raise BridgeInputError("divisor", f"unknown divisor {divisor!r}") from None
    if comparison_cap is not None and (
        isinstance(comparison_cap, bool)
        or not isinstance(comparison_cap, int)
        or comparison_cap < 0
    ):
        raise BridgeInputError(
            "comparison_cap", f"must be a non-negative integer, got {comparison_cap!r}"
        )
    real: list[tuple[int, tuple[tuple[Fraction, int], ...]]] = []
    for index, entry in enumerate(scores):
        if isinstance(entry, bool) or not isinstance(entry, int | WeightedScore | ArtificialScore):
            raise BridgeInputError("scores", f"unexpected board entry {entry!r}")
        if not isinstance(entry, ArtificialScore):
            real.append((index, tuple(components(entry))))
    n = len(real)
    comparisons = max(n - 1, 0)
    if kind is CavendishDivisor.TABLES:
        scale = Fraction(1, max(n, 1))
    elif kind is CavendishDivisor.COMPARISONS:
        scale = Fraction(1, max(comparisons, 1))
    else:
        scale = Fraction(1)

    cache: dict[int, int] = {}

    def imp_of(difference: int) -> int:
        value = cache.get(difference)
        if value is None:
            value = imps(difference, imp_rounding)
            if comparison_cap is not None:
                value = max(-comparison_cap, min(comparison_cap, value))
            cache[difference] = value
        return value

    ns: list[Fraction] = [Fraction(0)] * len(scores)
    ew: list[Fraction] = [Fraction(0)] * len(scores)
    if all(len(parts) == 1 and parts[0][0] == 1 for _, parts in real):
        # Plain scores only: IMP each distinct pair of scores once, weighted by counts
        # (O(d^2) for d distinct scores instead of O(n^2) comparisons).
        counts: dict[int, int] = {}
        for _, parts in real:
            counts[parts[0][1]] = counts.get(parts[0][1], 0) + 1
        totals = {
            value: sum(count * imp_of(value - other) for other, count in counts.items())
            for value in counts
        }
        figures = {value: (total * scale, -total * scale) for value, total in totals.items()}
        for index, parts in real:
            ns[index], ew[index] = figures[parts[0][1]]
        real = []
    for position, (index, own) in enumerate(real):
        total = Fraction(0)
        for other_position, (_, other) in enumerate(real):
            if other_position == position:
                continue
            for weight, score in own:
                for other_weight, other_score in other:
                    total += weight * other_weight * imp_of(score - other_score)
        ns[index] = total * scale
        ew[index] = -total * scale
    per_artificial = Fraction(comparisons) if kind is CavendishDivisor.TOTAL else Fraction(1)
    for index, entry in enumerate(scores):
        if isinstance(entry, ArtificialScore):
            ns[index] = artificial_imps(entry.ns_percent, imps_per_10_percent) * per_artificial
            ew[index] = artificial_imps(entry.ew_percent, imps_per_10_percent) * per_artificial
    return CavendishResult(tuple(ns), tuple(ew), comparisons)


def capped_round_total(
    board_imps: Sequence[int | Fraction], *, cap: int | Fraction | None = None
) -> Fraction:
    """A table's IMPs for a round, winnings capped (the Polish rule of the lecture).

    With k boards in the round the total may not exceed 10 + k (or `cap` when
    given); a losing total is never raised.
    """
    limit = Fraction(10 + len(board_imps)) if cap is None else Fraction(cap)
    total = sum((Fraction(value) for value in board_imps), Fraction(0))
    return min(total, limit)
