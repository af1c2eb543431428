"""The Baku acceleration as TRF-26 250 records (FIDE C.04.5.1)."""

from __future__ import annotations

from fractions import Fraction

from service.engine.model import PointSystem
from service.engine.trf_pairing_records import (
    accelerations_of,
    baku_records,
    is_baku,
)

CHESS = PointSystem()


def test_baku_groups_and_virtual_points() -> None:
    """161 players, nine rounds (C.04.5.1's own examples): GA is 2 x ceil(161 / 4) = 82
    players; five accelerated rounds, 1 point in rounds 1-3 and 0.5 in rounds 4-5."""
    records = baku_records(161, 9, CHESS)
    assert records == ((1, 3, 1, 82, Fraction(1)), (4, 5, 1, 82, Fraction(1, 2)))
    points = accelerations_of(records)
    assert sorted(points) == list(range(1, 83))
    assert points[82] == (1, 1, 1, Fraction(1, 2), Fraction(1, 2))
    assert 83 not in points
    # 5 rounds: 3 accelerated, 1 point in rounds 1-2; 3 rounds: 2, then 1 and 0.5
    assert baku_records(14, 5, CHESS) == ((1, 2, 1, 8, 1), (3, 3, 1, 8, Fraction(1, 2)))
    assert baku_records(10, 3, CHESS) == ((1, 1, 1, 6, 1), (2, 2, 1, 6, Fraction(1, 2)))
    assert baku_records(10, 1, CHESS) == ((1, 1, 1, 6, 1),)
    # 3/1/0: a win and a draw of the tournament's points
    football = PointSystem(win=Fraction(3), draw=Fraction(1))
    assert baku_records(8, 4, football) == ((1, 1, 1, 4, 3), (2, 2, 1, 4, 1))


def test_baku_is_recognised_whatever_its_records() -> None:
    """The same virtual points written per player (XXA) or as ranges (250) are Baku;
    another split is not."""
    points = accelerations_of(baku_records(14, 5, CHESS))
    per_player = {n: (*values, Fraction(0)) for n, values in points.items()}
    assert is_baku(per_player, 14, 5, CHESS)
    assert not is_baku(per_player, 20, 5, CHESS)
    assert not is_baku({1: (Fraction(1),)}, 14, 5, CHESS)
