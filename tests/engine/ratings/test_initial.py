"""A new player's initial rating (B.02, 2024, art. 8.2), worked by hand."""

from __future__ import annotations

from fractions import Fraction

from service.engine.ratings.initial import initial_rating


def test_two_hypothetical_draws_against_1800() -> None:
    """3/5 against 1600..2000: Ra = (9000 + 2 x 1800) / 7 = 1800, p = (3 + 1) / 7 =
    0.571 -> 0.57, dp = 50: Ru = 1850."""
    games = [(1600, 2), (1700, 2), (1800, 2), (1900, 0), (2000, 0)]
    initial = initial_rating(games)
    assert initial.average == Fraction(1800)
    assert initial.percent == 57
    assert (initial.status, initial.rating) == ("rated", 1850)


def test_rounded_to_the_nearest_whole_number() -> None:
    """2.5/5 against 1500, 1600, 1700, 1800, 1900: Ra = 12100/7 = 1728.57, p = 3.5/7 =
    0.50, dp 0: Ru = 1729."""
    games = [(1500, 2), (1600, 0), (1700, 1), (1800, 0), (1900, 2)]
    assert initial_rating(games).rating == 1729


def test_at_most_2200() -> None:
    """5/5 against 2400s: Ra = 15600/7 = 2228.57, p = 6/7 -> 0.86, dp 309: 2538 -> 2200."""
    initial = initial_rating([(2400, 2)] * 5)
    assert initial.computed == 2200
    assert initial.rating == 2200


def test_fewer_than_five_rated_games() -> None:
    assert initial_rating([(2000, 2)] * 4).status == "not-enough-games"


def test_a_zero_score_is_disregarded() -> None:
    assert initial_rating([(1500, 0)] * 6).status == "zero-score"


def test_below_the_floor_is_not_published() -> None:
    """1/2 out of 5 against 1400s: Ra = 10600/7 = 1514.29, p = 1.5/7 -> 0.21, dp -230:
    1284 < 1400."""
    initial = initial_rating([(1400, 1)] + [(1400, 0)] * 4)
    assert (initial.status, initial.rating, initial.computed) == ("below-floor", None, 1284)
