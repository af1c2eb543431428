"""The matcher's reserve as a relation (pairing/matching/reserve.py `ReservedPairs`):
symmetric, counted, cleared and copied as a set of pairs would be."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.pairing.matching.reserve import ReservedPairs

_SIZE = 9
_pairs = st.tuples(st.integers(0, _SIZE - 1), st.integers(0, _SIZE - 1)).filter(
    lambda p: p[0] != p[1]
)
_steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(0, _SIZE - 1), st.sets(st.integers(0, _SIZE - 1))),
        st.tuples(st.just("discard"), _pairs),
        st.tuples(st.just("clear"), st.integers(0, _SIZE - 1)),
    ),
    max_size=30,
)


def _agrees(reserve: ReservedPairs, model: set[frozenset[int]]) -> None:
    for v in range(_SIZE):
        expected = sorted(u for u in range(_SIZE) if frozenset((v, u)) in model)
        assert list(reserve.partners(v)) == expected
        row = reserve.row(v)
        assert [u for u in range(_SIZE) if row is not None and row[u]] == expected
        for u in range(_SIZE):
            assert reserve.holds(v, u) == (frozenset((v, u)) in model)
    assert reserve.holders() == sorted({v for pair in model for v in pair})
    assert bool(reserve) == bool(model)


def _step(reserve: ReservedPairs, model: set[frozenset[int]], step: Any) -> set[frozenset[int]]:
    """Apply one drawn step to the relation and to its model; the model after it."""
    if step[0] == "add":
        _, v, partners = step
        partners.discard(v)
        reserve.add(v, partners)
        return model | {frozenset((v, u)) for u in partners}
    if step[0] == "discard":
        _, (v, u) = step
        assert reserve.discard(v, u) == (frozenset((v, u)) in model)
        return model - {frozenset((v, u))}
    _, v = step
    reserve.clear(v)
    return {pair for pair in model if v not in pair}


@settings(max_examples=200, deadline=None)
@given(_steps)
def test_behaves_as_a_set_of_unordered_pairs(steps: list[Any]) -> None:
    reserve = ReservedPairs(_SIZE)
    model: set[frozenset[int]] = set()
    copies: list[tuple[ReservedPairs, set[frozenset[int]]]] = []
    for step in steps:
        model = _step(reserve, model, step)
        _agrees(reserve, model)
        copies.append((reserve.copy(), set(model)))
    for copied, then in copies:  # later steps on the original never reach a copy
        _agrees(copied, then)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, _SIZE),
    st.integers(0, 4),
    st.lists(_pairs, max_size=8),
    _steps,
)
def test_a_band_is_every_pair_far_enough_apart_but_the_excluded(
    size: int, near: int, excluded: list[tuple[int, int]], steps: list[Any]
) -> None:
    """`add_band` lays in one call what `add` would pair by pair: every pair of the
    first `size` vertices more than `near` apart, less the excluded ones (in either
    order); the relation then behaves as a set of pairs under later changes."""
    reserve = ReservedPairs(_SIZE)
    reserve.add_band(near, size, excluded)
    unordered = {frozenset(pair) for pair in excluded}
    model = {
        frozenset((v, u))
        for v in range(size)
        for u in range(v)
        if v - u > near and frozenset((v, u)) not in unordered
    }
    _agrees(reserve, model)
    for step in steps:
        model = _step(reserve, model, step)
        _agrees(reserve, model)


def test_a_band_goes_on_an_empty_relation_only() -> None:
    reserve = ReservedPairs(_SIZE)
    reserve.add(3, [0])
    with pytest.raises(ValueError, match="empty relation"):
        reserve.add_band(1, _SIZE, [])
