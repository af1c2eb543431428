"""Amounts at output: an exact share in cents.

A share such as 850/3 has no exact decimal; the answer gives it rounded down to the cent
(so the amounts paid never add up to more than the prizes announced) and the exact
fraction beside it (docs/rules/prizes.md#amounts)."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from fractions import Fraction

__all__ = ["cents", "exact"]


def cents(amount: Fraction) -> Decimal:
    """The amount rounded down to the cent."""
    whole = amount.numerator * 100 // amount.denominator
    return (Decimal(whole) / 100).quantize(Decimal("0.01"), rounding=ROUND_DOWN)


def exact(amount: Fraction) -> str:
    """The exact amount: `283` or `850/3`."""
    return str(amount)
