"""A rated player's rating change over an event (FIDE B.02, 2024, art. 8.3).

Per game against a rated opponent: D = the rating difference, counted as 400 when it
is more than 400 (art. 8.3.1; for every game since March 2024, and since 1 October
2025 only for players rated below 2650: a player rated 2650 or more uses the whole
difference); PD = the expected score from table 8.1.2; the change is K x (W - PD),
summed over the event. Games against unrated opponents are not rated for a rated
player (8.3.1 reads "each game played against a rated player")."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from service.engine.scoring.tiebreaks.fide_tables import expected_percent

__all__ = ["ELITE", "MAX_DIFFERENCE", "RatedResult", "expected_score", "rated_result"]

MAX_DIFFERENCE = 400
"""Art. 8.3.1: a larger difference counts as this."""
ELITE = 2650
"""Art. 8.3.1 as amended from 1 October 2025: from this rating the difference is whole."""


def expected_score(rating: int, opponent: int) -> Fraction:
    """PD of a player rated `rating` against `opponent` (art. 8.3.2a, table 8.1.2),
    the difference limited to 400 for a player rated below 2650."""
    if rating < ELITE:
        opponent = min(max(opponent, rating - MAX_DIFFERENCE), rating + MAX_DIFFERENCE)
    return Fraction(expected_percent(rating, opponent), 100)


@dataclass(frozen=True, slots=True)
class RatedResult:
    """A rated player's rated games of the event, summed."""

    games: int
    score: Fraction
    expected: Fraction

    def change(self, k: int) -> Fraction:
        """K x (W - We), art. 8.3.2: exact (hundredths of a point times K)."""
        return k * (self.score - self.expected)


def rated_result(rating: int, games: list[tuple[int, int]]) -> RatedResult:
    """The rated games (opponent's rating, score in halves) of a player rated
    `rating`, summed: count, score W and expected score We."""
    score = Fraction(sum(h for _, h in games), 2)
    expected = sum((expected_score(rating, r) for r, _ in games), Fraction(0))
    return RatedResult(len(games), score, expected)
