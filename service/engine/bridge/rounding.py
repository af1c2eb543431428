"""Rounding helpers shared by the bridge modules.

Scores are kept exact (`int`, `Fraction`) inside the engine; these turn them into the
printed figures: half-up decimals (percentages such as 85.71, VP to 2 places) and the
datum roundings used by Butler scoring.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

__all__ = ["figure", "round_half_up", "to_decimal"]


def to_decimal(value: int | Fraction) -> Decimal:
    """An exact-enough Decimal for a Fraction (numerator / denominator, 28 digits)."""
    if isinstance(value, int):
        return Decimal(value)
    return Decimal(value.numerator) / Decimal(value.denominator)


def round_half_up(value: int | Fraction | Decimal, places: int = 2) -> Decimal:
    """Round to `places` decimals, halves away from zero (85.714... -> 85.71).

    Computed exactly for Fractions (no binary floating point on the way).
    """
    if isinstance(value, Decimal):
        return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    exact = Fraction(value) * 10**places
    magnitude = abs(exact)
    units = math.floor(magnitude + Fraction(1, 2))
    signed = units if exact >= 0 else -units
    return Decimal(signed).scaleb(-places)


def figure(value: int | Fraction | Decimal, places: int = 2) -> int | float:
    """A figure as a JSON number: an int when whole, else rounded half-up to `places`
    decimals (matchpoints, percentages, IMPs, VP as the service shows them)."""
    if isinstance(value, int):
        return value
    exact = Fraction(value)
    if exact.denominator == 1:
        return int(exact)
    return float(round_half_up(exact, places))
