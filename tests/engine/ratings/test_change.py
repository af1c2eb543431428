"""Rating change K x (W - We) (B.02, 2024, art. 8.3) with worked numbers."""

from __future__ import annotations

from fractions import Fraction

from service.engine.ratings.change import rated_result


def test_one_game_each_result() -> None:
    """2000 against 1900 expects 0.64 (band 99-106); with K = 20 a win gains 7.2, a draw
    loses 2.8 and a loss 12.8."""
    assert rated_result(2000, [(1900, 2)]).change(20) == Fraction(72, 10)
    assert rated_result(2000, [(1900, 1)]).change(20) == Fraction(-28, 10)
    assert rated_result(2000, [(1900, 0)]).change(20) == Fraction(-128, 10)


def test_an_event_sums_its_games() -> None:
    """2000 draws 19 games against 2200 (expects 0.24 each): W = 9.5, We = 4.56,
    change = K x 4.94; with K = 36 (40 capped: 36 x 19 = 684 <= 700) 177.84."""
    result = rated_result(2000, [(2200, 1)] * 19)
    assert result.score == Fraction(19, 2)
    assert result.expected == Fraction(456, 100)
    assert result.change(36) == Fraction(17784, 100)


def test_every_game_limited_to_400() -> None:
    """Two wins of a 2400 against 1600 and 1500: both count as 2000 (0.92 each): +1.6
    with K = 10."""
    assert rated_result(2400, [(1600, 2), (1500, 2)]).change(10) == Fraction(16, 10)
