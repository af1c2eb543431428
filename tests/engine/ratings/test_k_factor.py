"""The development coefficient K (B.02, 2024, art. 8.3.3 and 8.3.3.1)."""

from __future__ import annotations

from service.engine.ratings.k_factor import capped, development_coefficient, is_junior


def test_a_given_k_is_taken() -> None:
    assert development_coefficient(1500, k=20).k == 20


def test_ten_once_the_rating_has_reached_2400() -> None:
    assert development_coefficient(2400).k == 10
    assert development_coefficient(2350, reached_2400=True).k == 10


def test_forty_for_a_junior_under_2300() -> None:
    """Until the end of the year of the 18th birthday: born 2008, still 40 in 2026."""

    def k(rating: int, born: int) -> int | None:
        return development_coefficient(
            rating, birth_year=born, year=2026, reached_2400=False, games_before=200
        ).k

    assert k(2299, 2008) == 40
    assert k(2299, 2007) == 20
    assert k(2300, 2010) == 20
    assert is_junior(2008, 2026) is True
    assert is_junior(None, 2026) is None


def test_forty_for_a_new_player_until_30_games() -> None:
    assert development_coefficient(2350, games_before=29, reached_2400=False).k == 40
    assert development_coefficient(2350, games_before=30, reached_2400=False).k == 20


def test_what_is_missing_is_named_not_assumed() -> None:
    """Without the facts a rule needs, no K: the missing facts are named."""
    decided = development_coefficient(1900)
    assert decided.k is None
    assert decided.missing == ("reached_2400", "games_before", "birth_year")
    no_year = development_coefficient(1900, reached_2400=False, games_before=50, birth_year=1990)
    assert no_year.missing == ("year",)
    # 2300 and above: age does not matter
    assert development_coefficient(2310, reached_2400=False, games_before=50).k == 20


def test_k_times_games_at_most_700() -> None:
    """Art. 8.3.3.1: 40 x 18 = 720 > 700, so K = 38; 20 x 35 = 700 stays."""
    assert capped(40, 17) == 40
    assert capped(40, 18) == 38
    assert capped(20, 35) == 20
    assert capped(20, 36) == 19
