"""FLAMPARK progress premium PP (Formuła FLAMPARK, "Premia za postęp PP"; docs/rules/flampark.md).

The organizer sets a pool; every player who improved their tournament rating gets

    PP = dR * (R - wB) * wA

``dR = Ru - R`` the gain (Ru the FLAMPARK result on the rating scale, R the starting
rating), ``wB`` the weight of the own rating (800 .. 1000, chosen by the organizer), and
``wA`` the factor that makes the premiums add up to the pool. The text says the premium is
recomputed live, after every result; :func:`progress_premium` is a pure function of the
current results, so calling it again is the recomputation.

Readings taken where the text is open (pinned by tests):

* Who gets a premium: players with ``dR > 0`` ("every player who improved"). A player
  whose starting rating is at or below ``wB`` would get a zero or negative product,
  i.e. nothing or a penalty for improving, which the text's "every player who improves
  receives PP" excludes; such a player gets 0 and does not share the pool.
* ``wA`` is exact: ``pool / sum(dR * (R - wB))`` over those players. When nobody
  qualifies there is no ``wA`` and every premium is 0 (the pool stays undistributed).
* Money is paid in whole units of ``unit`` (a cent by default; FK6 handed premiums out in
  envelopes, so an organizer may choose whole currency units). Each exact share is
  rounded down to the unit, and the units left over go one each to the largest remainders
  (the largest-remainder method); equal remainders go to the lower start number first.
  The premiums then sum to the pool exactly, and no premium is more than one unit away
  from its exact share.

Complexity: O(n log n) for n players (the sort of the remainders), exact arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

from service.engine.scoring.flampark import FlamparkError, FlamparkScore

__all__ = [
    "CENT",
    "WB_RANGE",
    "PremiumError",
    "apportion",
    "premium_factor",
    "premium_weights",
    "progress_premium",
    "progress_premium_from_ru",
]

CENT = Decimal("0.01")
"""The default money unit: premiums are paid to the cent."""
WB_RANGE = range(800, 1001)
"""Allowed values of wB, "from 800 to 1000" (Formuła FLAMPARK)."""


class PremiumError(FlamparkError):
    """Bad progress-premium input (``wb`` out of range, a pool not in whole units, ...)."""


def premium_weights(
    ru: Mapping[int, Fraction], ratings: Mapping[int, int], *, wb: int
) -> dict[int, Fraction]:
    """``dR * (R - wB)`` for every player in ``ratings`` (0 when the reading gives none).

    ``ru`` maps start numbers to the FLAMPARK result on the rating scale; players
    missing from it (no counted game yet) get 0.
    """
    return {
        number: Fraction(numerator, denominator)
        for number, (numerator, denominator) in _weight_pairs(ru, ratings, wb=wb).items()
    }


def premium_factor(weights: Mapping[int, Fraction], *, pool: Decimal) -> Fraction | None:
    """wA, exact: the pool over the sum of the weights; None when no one qualifies."""
    _check_pool(pool)
    total = sum(weights.values(), Fraction(0))
    if total <= 0:
        return None
    return Fraction(pool) / total


def apportion(
    weights: Mapping[int, Fraction], *, pool: Decimal, unit: Decimal = CENT
) -> dict[int, Decimal]:
    """Split ``pool`` in proportion to ``weights``, in whole ``unit``s, summing exactly.

    Largest-remainder method: every share is rounded down to the unit, and the units left
    over go one each to the largest remainders, equal remainders to the lower start
    number. All zeros when the weights sum to zero.
    """
    units = _pool_units(pool, unit)
    pairs: dict[int, tuple[int, int]] = {}
    for number, weight in weights.items():
        if weight < 0:
            raise PremiumError(f"negative weight for player {number}", field="weights")
        pairs[number] = (weight.numerator, weight.denominator)
    return _in_units(_apportion_units(pairs, units), unit)


def progress_premium(
    scores: Mapping[int, FlamparkScore],
    ratings: Mapping[int, int],
    *,
    pool: Decimal,
    wb: int,
    unit: Decimal = CENT,
) -> dict[int, Decimal]:
    """PP for every player in ``ratings`` (the start list), summing exactly to ``pool``.

    ``scores`` are the current FLAMPARK results (players without a counted game may be
    missing); ``ratings`` the starting ratings R; ``wb`` the own-rating weight (800 ..
    1000); ``unit`` the smallest amount paid. Non-improvers get 0; when nobody improved,
    everybody gets 0.
    """
    ru = {number: score.ru for number, score in scores.items()}
    return progress_premium_from_ru(ru, ratings, pool=pool, wb=wb, unit=unit)


def progress_premium_from_ru(
    ru: Mapping[int, Fraction],
    ratings: Mapping[int, int],
    *,
    pool: Decimal,
    wb: int,
    unit: Decimal = CENT,
) -> dict[int, Decimal]:
    """:func:`progress_premium` from the players' Ru alone (what a live accumulator
    keeps up to date; see ``FlamparkAccumulator.ru_map``)."""
    units = _pool_units(pool, unit)
    pairs = _weight_pairs(ru, ratings, wb=wb)
    return _in_units(_apportion_units(pairs, units), unit)


def _weight_pairs(
    ru: Mapping[int, Fraction], ratings: Mapping[int, int], *, wb: int
) -> dict[int, tuple[int, int]]:
    """Weights as (numerator, denominator) pairs: integer arithmetic, no gcd per player."""
    _check_wb(wb)
    _check_ratings(ratings)
    for number in ru:
        if number not in ratings:
            raise PremiumError(f"no starting rating for player {number}", field="ratings")
    pairs: dict[int, tuple[int, int]] = {}
    for number in sorted(ratings):
        rating = ratings[number]
        result = ru.get(number)
        if result is None or rating <= wb:
            pairs[number] = (0, 1)
            continue
        gain = result.numerator - rating * result.denominator
        pairs[number] = (gain * (rating - wb), result.denominator) if gain > 0 else (0, 1)
    return pairs


def _apportion_units(pairs: Mapping[int, tuple[int, int]], units: int) -> dict[int, int]:
    """Largest-remainder split of ``units`` over weights given as fraction pairs.

    The weights are brought to one common denominator, so every share and remainder is
    an integer over the same divisor and compares exactly without Fractions.
    """
    shares = dict.fromkeys(sorted(pairs), 0)
    positive = {n: p for n, p in pairs.items() if p[0] > 0}
    if not positive or units == 0:
        return shares
    common = math.lcm(*(den for _, den in positive.values()))
    scaled = {n: num * (common // den) for n, (num, den) in positive.items()}
    total = sum(scaled.values())
    remainders: list[tuple[int, int]] = []
    handed = 0
    for number in sorted(scaled):
        whole, rest = divmod(units * scaled[number], total)
        shares[number] = whole
        handed += whole
        remainders.append((-rest, number))
    remainders.sort()
    for _, number in remainders[: units - handed]:
        shares[number] += 1
    return shares


def _in_units(shares: Mapping[int, int], unit: Decimal) -> dict[int, Decimal]:
    return {number: count * unit for number, count in shares.items()}


def _check_wb(wb: int) -> None:
    if isinstance(wb, bool) or not isinstance(wb, int) or wb not in WB_RANGE:
        raise PremiumError(f"wB must be a whole number from 800 to 1000, got {wb!r}", field="wb")


def _check_ratings(ratings: Mapping[int, int]) -> None:
    for number, rating in ratings.items():
        if isinstance(rating, bool) or not isinstance(rating, int) or rating <= 0:
            raise PremiumError(
                f"player {number} needs a positive starting rating, got {rating!r}",
                field=f"ratings[{number}]",
            )


def _check_pool(pool: Decimal) -> None:
    if not isinstance(pool, Decimal) or not pool.is_finite() or pool < 0:
        raise PremiumError(
            f"pool must be a non-negative Decimal amount, got {pool!r}", field="pool"
        )


def _pool_units(pool: Decimal, unit: Decimal) -> int:
    """The pool as a whole number of units, validating both."""
    if not isinstance(unit, Decimal) or not unit.is_finite() or unit <= 0:
        raise PremiumError(f"unit must be a positive Decimal, got {unit!r}", field="unit")
    _check_pool(pool)
    units = Fraction(pool) / Fraction(unit)
    if units.denominator != 1:
        raise PremiumError(f"pool {pool} is not a whole number of units of {unit}", field="pool")
    return units.numerator
