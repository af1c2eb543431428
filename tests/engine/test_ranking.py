"""Shared places, "1-2-2-4" (service/engine/ranking.py): the one numbering of ties."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from service.engine.ranking import shared_places


def test_ties_share_a_place_and_the_next_key_takes_its_position() -> None:
    assert shared_places([10, 8, 8, 5]) == [1, 2, 2, 4]
    assert shared_places([Fraction(3, 2), Fraction(3, 2), Fraction(3, 2)]) == [1, 1, 1]
    assert shared_places([]) == []
    assert shared_places([(2, "a"), (2, "b")]) == [1, 2]  # keys differ: places differ


def test_keys_of_their_own_never_tie() -> None:
    unranked = [object(), object()]
    assert shared_places([7, *unranked]) == [1, 2, 3]


@given(st.lists(st.integers(0, 5)).map(lambda xs: sorted(xs, reverse=True)))
def test_a_place_is_one_more_than_the_entries_strictly_ahead(keys: list[int]) -> None:
    places = shared_places(keys)
    assert places == [1 + sum(k > key for k in keys) for key in keys]
