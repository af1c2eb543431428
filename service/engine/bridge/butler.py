"""Butler scoring: every NS score IMPed against a board datum (docs/rules/bridge.md).

The datum is the mean of the board's scores after discarding extremes, rounded to
a multiple of 10; each NS score gets IMPs for (score - datum), EW the negative.

Datum methods:

- ``"pzbs"`` (the Polish rule, lecture *Wynik rozdania*): keep no more than half of the scores,
  dropping equally from the top and the bottom; the stated exceptions are 5 scores
  (keep 3) and 2 scores (drop none); examples 5 -> 1-3-1, 6 -> 2-2-2, 7 -> 2-3-2,
  8 -> 2-4-2. Reading: keep the largest count of the same parity as n that
  is at most n / 2, so the drops are equal at both ends; 1 score keeps itself,
  3 keep the median (1-1-1), 4 keep the middle two (the lecture's club advice: "4
  tables: the mean of 2 scores").
- ``"trim"``: drop `trim` scores from each end (one copy of a tied extreme each),
  as many clubs do with 1; never drops everything (at least one score is kept).
- ``"mean"``: no discarding.

Datum rounding: the Polish rule rounds **down** to a full 10 (445 -> 440). Reading:
"down" is taken literally as towards minus infinity (-445 -> -450); "toward-zero",
"nearest" (a trailing 5 away from zero), "nearest-even" (ACBLscore: 425 -> 420,
435 -> 440) and "none" (keep the exact mean) are available.

Worked board (the lecture): 690, 660, 630, 630, 620, -100, -100, -200 -> kept 630,
630, 620, -100, sum 1780, mean 445, datum 440; IMPs 620 -> 5, 690 -> 6, 660 -> 6,
-100 -> -11, 630 -> 5, -200 -> -12.

Adjusted entries: an artificial score is left out of the datum and scores
(percent - 50) x 3 / 10 IMPs per side (60 % -> +3, 40 % -> -3; Law 12C2(b)). A
weighted score enters the datum with its weighted mean, and scores the weighted sum
of its components' IMPs against the datum (IMP first, then weight).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from service.engine.bridge.entries import ArtificialScore, BoardEntry, WeightedScore, components
from service.engine.bridge.errors import BridgeInputError
from service.engine.bridge.imps import ImpRounding, imps

__all__ = [
    "ButlerResult",
    "Datum",
    "DatumMethod",
    "DatumRounding",
    "artificial_imps",
    "butler",
    "datum",
    "pzbs_kept_count",
]


class DatumMethod(enum.StrEnum):
    """Which scores the datum is the mean of."""

    PZBS = "pzbs"
    """Keep at most half, equal drops from both ends (the Polish rule)."""
    TRIM = "trim"
    """Drop a fixed number from each end."""
    MEAN = "mean"
    """Keep every score."""


class DatumRounding(enum.StrEnum):
    """How the mean becomes the datum."""

    DOWN = "down"
    """Down to a multiple of 10, towards minus infinity (the Polish rule)."""
    TOWARD_ZERO = "toward-zero"
    """To a multiple of 10 towards zero."""
    NEAREST = "nearest"
    """To the nearest multiple of 10, a trailing 5 away from zero."""
    NEAREST_EVEN = "nearest-even"
    """To the nearest multiple of 10, a trailing 5 to the even ten (425 -> 420)."""
    NONE = "none"
    """The exact mean."""


def pzbs_kept_count(n: int) -> int:
    """How many of n scores the Polish rule keeps (the reading above; 8 -> 4, 5 -> 3)."""
    if n < 0:
        raise BridgeInputError("scores", f"count must not be negative, got {n}")
    if n <= 2:
        return n
    if n == 5:
        return 3
    keep = n // 2
    if keep % 2 != n % 2:
        keep -= 1
    return keep


def _round_datum(mean: Fraction, rounding: DatumRounding) -> Fraction:
    if rounding is DatumRounding.NONE:
        return mean
    tens = mean / 10
    if rounding is DatumRounding.DOWN:
        whole = math.floor(tens)
    elif rounding is DatumRounding.TOWARD_ZERO:
        whole = math.trunc(tens)
    elif rounding is DatumRounding.NEAREST:
        whole = math.floor(abs(tens) + Fraction(1, 2)) * (1 if tens >= 0 else -1)
    else:
        whole = round(tens)  # Fraction.__round__ rounds halves to even
    return Fraction(whole * 10)


@dataclass(frozen=True, slots=True)
class Datum:
    """A board's datum and how it was reached."""

    value: Fraction
    """The datum (an integer multiple of 10 unless rounding is "none")."""
    mean: Fraction
    """The exact mean of the kept scores."""
    kept: tuple[int | Fraction, ...]
    """The scores the mean was taken over, highest first."""
    dropped_high: int
    """Scores discarded from the top."""
    dropped_low: int
    """Scores discarded from the bottom."""


def datum(
    scores: Sequence[int | Fraction],
    method: DatumMethod | str = DatumMethod.PZBS,
    *,
    trim: int = 1,
    rounding: DatumRounding | str = DatumRounding.DOWN,
) -> Datum:
    """The datum of a board's NS scores (at least one score)."""
    if not scores:
        raise BridgeInputError("scores", "a datum needs at least one score")
    try:
        kind = DatumMethod(method)
    except ValueError:
        raise BridgeInputError("datum_method", f"unknown method {method!r}") from None
    try:
        mode = DatumRounding(rounding)
    except ValueError:
        raise BridgeInputError("rounding", f"unknown datum rounding {rounding!r}") from None
    ordered = sorted(scores, reverse=True)
    n = len(ordered)
    if kind is DatumMethod.PZBS:
        drop = (n - pzbs_kept_count(n)) // 2
    elif kind is DatumMethod.TRIM:
        if isinstance(trim, bool) or not isinstance(trim, int) or trim < 0:
            raise BridgeInputError("trim", f"must be a non-negative integer, got {trim!r}")
        drop = min(trim, (n - 1) // 2)
    else:
        drop = 0
    kept = tuple(ordered[drop : n - drop])
    mean = Fraction(sum(kept)) / len(kept)
    return Datum(_round_datum(mean, mode), mean, kept, drop, drop)


def artificial_imps(percent: Fraction, imps_per_10_percent: int | Fraction = 3) -> Fraction:
    """IMPs for an artificial adjusted score: 60 % -> +3, 50 % -> 0, 40 % -> -3."""
    return (percent - 50) * Fraction(imps_per_10_percent) / 10


@dataclass(frozen=True, slots=True)
class ButlerResult:
    """Butler IMPs of every table on one board, in input order."""

    datum: Datum | None
    """The datum, or None when the board has no real result."""
    ns_imps: tuple[Fraction, ...]
    """North-South IMPs per table."""
    ew_imps: tuple[Fraction, ...]
    """East-West IMPs per table (the negative, except for artificial scores)."""


def butler(
    scores: Sequence[BoardEntry],
    datum_method: DatumMethod | str = DatumMethod.PZBS,
    *,
    trim: int = 1,
    rounding: DatumRounding | str = DatumRounding.DOWN,
    imp_rounding: ImpRounding | str = ImpRounding.NEAREST,
    imps_per_10_percent: int | Fraction = 3,
) -> ButlerResult:
    """Butler-score one board: IMPs of each NS score against the datum."""
    means: list[int | Fraction] = []
    for entry in scores:
        if type(entry) is int:
            means.append(entry)
        elif isinstance(entry, WeightedScore):
            means.append(entry.mean)
        elif not isinstance(entry, ArtificialScore):
            raise BridgeInputError("scores", f"unexpected board entry {entry!r}")
    board_datum: Datum | None = None
    if means:
        board_datum = datum(means, datum_method, trim=trim, rounding=rounding)
    base: int | Fraction = 0
    if board_datum is not None:
        base = board_datum.value
        if base.denominator == 1:
            base = int(base)
    ns: list[Fraction] = []
    ew: list[Fraction] = []
    plain: dict[int, tuple[Fraction, Fraction]] = {}  # one IMP look-up per distinct score
    for entry in scores:
        if isinstance(entry, ArtificialScore):
            ns.append(artificial_imps(entry.ns_percent, imps_per_10_percent))
            ew.append(artificial_imps(entry.ew_percent, imps_per_10_percent))
            continue
        if type(entry) is int:
            pair = plain.get(entry)
            if pair is None:
                value = Fraction(imps(entry - base, imp_rounding))
                pair = (value, -value)
                plain[entry] = pair
            ns.append(pair[0])
            ew.append(pair[1])
            continue
        weighted = sum(
            (weight * imps(score - base, imp_rounding) for weight, score in components(entry)),
            Fraction(0),
        )
        ns.append(weighted)
        ew.append(-weighted)
    return ButlerResult(board_datum, tuple(ns), tuple(ew))
