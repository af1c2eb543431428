"""The performance rating of a title norm (FIDE B.01, applied from 1 January 2024,
art. 1.4.6-1.4.9).

Rp = Ra + dp (1.4.8): Ra the average rating of the opponents met over the board,
rounded to the nearest whole number, halves up (1.4.7); dp from table 1.4.9 (the same
as B.02 table 8.1.1) for the percentage scored, rounded to the nearest whole number,
halves up (1.4.9), without the 400-point limit of rating changes. An unrated opponent
counts as rated 1400 (1.4.6d). The adjusted rating floor (1.4.6b-c): when opponents
are rated below the floor of the norm's title (GM 2200, IM 2050, WGM 2000, WIM 1850),
the lowest-rated one of them, and only that one, is counted at the floor
(docs/rules/ratings.md#norms)."""

from __future__ import annotations

from dataclasses import dataclass

from service.engine.scoring.tiebreaks.fide_tables import dp_for_percent

__all__ = ["ADJUSTED_FLOOR", "UNRATED_AS", "NormPerformance", "norm_performance"]

UNRATED_AS = 1400
"""The rating an unrated opponent counts with for norms."""
ADJUSTED_FLOOR = {"GM": 2200, "IM": 2050, "WGM": 2000, "WIM": 1850}
"""The adjusted rating floor of each norm's title."""


@dataclass(frozen=True, slots=True)
class NormPerformance:
    """Ra (after the floors), the percentage scored and Rp."""

    average: int
    percent: int
    performance: int


def norm_performance(ratings: list[int], halves: int, floor: int) -> NormPerformance | None:
    """Rp over the opponents' ratings (0 = unrated) and the score in halves, with the
    adjusted rating floor `floor`; None without a game."""
    if not ratings:
        return None
    counted = [r or UNRATED_AS for r in ratings]
    lowest = min(range(len(counted)), key=counted.__getitem__)
    if counted[lowest] < floor:
        counted[lowest] = floor
    count = len(counted)
    average = _nearest(sum(counted), count)
    percent = _nearest(100 * halves, 2 * count)
    return NormPerformance(average, percent, average + dp_for_percent(percent))


def _nearest(numerator: int, denominator: int) -> int:
    """numerator / denominator (both >= 0, denominator > 0) to the nearest whole
    number, halves up (1.4.7, 1.4.9)."""
    return (2 * numerator + denominator) // (2 * denominator)
