"""The WBF IMP scale, both ways (Law 78B; the table of the lecture *Wynik rozdania*).

A points difference converts to International Match Points by the Law 78B bands
(0-10 -> 0, 20-40 -> 1, ..., 3500-3990 -> 23, 4000+ -> 24), with the sign of the
difference. `imp_range` goes the other way: the differences that give an IMP value.

Reading (the Law's table covers multiples of 10 only): a difference that is not a
multiple of 10 (an unrounded datum, a weighted or averaged score) is first rounded to
the nearest multiple of 10, a trailing 5 away from zero, which is the same as using
the band midpoints 15, 45, 85, ... as thresholds (so 15 -> 1 IMP). The alternative
`ImpRounding.LOWER_BOUND` keeps the Law's lower bounds (15 -> 0, 20 -> 1).
Differences may be `int` or `Fraction`.
"""

from __future__ import annotations

import enum
import math
from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction

from service.engine.bridge.errors import BridgeInputError

__all__ = [
    "IMP_LOWER_BOUNDS",
    "MAX_IMPS",
    "ImpRange",
    "ImpRounding",
    "imp_range",
    "imps",
    "round_imps_for_non_offenders",
]

IMP_LOWER_BOUNDS: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip
"""The smallest difference giving 1, 2, ..., 24 IMPs (Law 78B)."""

MAX_IMPS = len(IMP_LOWER_BOUNDS)
"""24: the top of the scale (4000 or more)."""

_MIDPOINTS = tuple(bound - 5 for bound in IMP_LOWER_BOUNDS)


class ImpRounding(enum.StrEnum):
    """How a difference that is not a multiple of 10 meets the scale."""

    NEAREST = "nearest"
    """Round to the nearest 10, a trailing 5 away from zero (default)."""
    LOWER_BOUND = "lower-bound"
    """Compare with the Law's lower bounds as they stand (19 -> 0, 20 -> 1)."""


def imps(difference: int | Fraction, rounding: ImpRounding | str = ImpRounding.NEAREST) -> int:
    """IMPs for a points difference (Law 78B), signed like the difference.

    Antisymmetric (`imps(-d) == -imps(d)`) and monotone. For multiples of 10 both
    rounding policies agree.
    """
    if isinstance(difference, bool) or not isinstance(difference, int | Fraction):
        raise BridgeInputError("difference", f"must be an int or Fraction, got {difference!r}")
    size: int | Fraction = -difference if difference < 0 else difference
    if isinstance(size, int) and size % 10 == 0:
        count = bisect_right(IMP_LOWER_BOUNDS, size)
    elif ImpRounding(rounding) is ImpRounding.NEAREST:
        count = bisect_right(_MIDPOINTS, size)
    else:
        count = bisect_right(IMP_LOWER_BOUNDS, size)
    return -count if difference < 0 else count


@dataclass(frozen=True, slots=True)
class ImpRange:
    """The differences (multiples of 10, inclusive) that score a given IMP value."""

    low: int | None
    """Smallest difference; `None` for -24 (no lower end)."""
    high: int | None
    """Largest difference; `None` for +24 (no upper end)."""

    def __contains__(self, difference: object) -> bool:
        if not isinstance(difference, int | Fraction):
            return False
        return (self.low is None or difference >= self.low) and (
            self.high is None or difference <= self.high
        )


def imp_range(imp: int) -> ImpRange:
    """The range of differences for an IMP value, -24..24 (Law 78B read backwards).

    0 -> -10..10, 1 -> 20..40, 13 -> 750..890, 24 -> 4000.., -2 -> -80..-50.
    """
    if isinstance(imp, bool) or not isinstance(imp, int):
        raise BridgeInputError("imp", f"must be an integer -24..24, got {imp!r}")
    if not -MAX_IMPS <= imp <= MAX_IMPS:
        raise BridgeInputError("imp", f"must be -24..24, got {imp}")
    if imp == 0:
        return ImpRange(-10, 10)
    size = abs(imp)
    low = IMP_LOWER_BOUNDS[size - 1]
    high = IMP_LOWER_BOUNDS[size] - 10 if size < MAX_IMPS else None
    if imp > 0:
        return ImpRange(low, high)
    return ImpRange(None if high is None else -high, -low)


def round_imps_for_non_offenders(value: int | Fraction, non_offenders_positive: bool) -> int:
    """Whole IMPs from fractional ones, rounded in favour of the non-offending side.

    The lecture (practice taught on EBL courses): a weighted score at IMPs gives
    fractional IMPs; where only whole IMPs can be recorded they are rounded in the
    non-offenders' favour. `value` is seen from one side; `non_offenders_positive`
    says whether that side is the non-offending one (then round up, else down).
    """
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise BridgeInputError("value", f"must be an int or Fraction, got {value!r}")
    return math.ceil(value) if non_offenders_positive else math.floor(value)
