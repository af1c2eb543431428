"""A new player's initial rating (FIDE B.02, 2024, art. 8.2.1-8.2.3 and 7.1.4).

Ra = the average rating of the player's rated opponents and of two hypothetical
opponents rated 1800 against whom the player drew; p = the player's score in the same
games (the two draws included) as a fraction; Ru = Ra + dp (table 8.1.1), rounded to
the nearest whole number and at most 2200. A score of zero in the player's first event
is disregarded (8.2.1); a rating is published from five games against rated opponents
(7.1.4) and only when it is at least 1400 (7.1.4).

Readings (docs/rules/ratings.md#initial-rating): one event is rated on its own (7.1.4
pools a new player's games over up to 26 months: the figures here are this event's);
p is taken to the nearest hundredth, halves up, to read table 8.1.1 (as B.01 1.4.9
rounds percentages); Ra is exact and only Ru is rounded, halves up."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from service.engine.scoring.tiebreaks.fide_tables import dp_for_percent

__all__ = ["FLOOR", "HYPOTHETICAL", "MAX_INITIAL", "MIN_GAMES", "InitialRating", "initial_rating"]

HYPOTHETICAL = 1800
"""The rating of the two hypothetical opponents, each a draw (art. 8.2.2)."""
MAX_INITIAL = 2200
"""The highest initial rating (art. 8.2.3)."""
MIN_GAMES = 5
"""Games against rated opponents needed for a published rating (art. 7.1.4)."""
FLOOR = 1400
"""No initial rating below this is published (art. 7.1.4)."""


@dataclass(frozen=True, slots=True)
class InitialRating:
    """The outcome for an unrated player: `rating` when one is computed, else why not
    (`status`: `rated`, `not-enough-games`, `zero-score` or `below-floor`)."""

    status: str
    rating: int | None
    """The initial rating, when one is published."""
    computed: int | None = None
    """Ru as computed, published or not (below the floor: not published)."""
    average: Fraction | None = None
    """Ra, the two hypothetical opponents included."""
    percent: int | None = None
    """p in hundredths, the two hypothetical draws included."""


def round_half_up(value: Fraction) -> int:
    """The nearest whole number, halves up."""
    return int((2 * value + 1) // 2)


def initial_rating(games: list[tuple[int, int]]) -> InitialRating:
    """The initial rating from the games against rated opponents (opponent's rating,
    score in halves)."""
    if len(games) < MIN_GAMES:
        return InitialRating("not-enough-games", None)
    halves = sum(h for _, h in games)
    if halves == 0:
        return InitialRating("zero-score", None)
    count = len(games) + 2
    average = Fraction(sum(r for r, _ in games) + 2 * HYPOTHETICAL, count)
    percent = round_half_up(Fraction(100 * (halves + 2), 2 * count))
    value = min(round_half_up(average + dp_for_percent(percent)), MAX_INITIAL)
    if value < FLOOR:
        return InitialRating("below-floor", None, value, average, percent)
    return InitialRating("rated", value, value, average, percent)
