"""Cross-IMPs and the Polish round cap (service.engine.bridge.cavendish).

The lecture is *Wynik rozdania*, the Polish scoring course docs/rules/bridge.md follows;
its figures are in tests/data/seeds/003-bridge.json.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.engine.bridge import (
    ArtificialScore,
    BridgeInputError,
    CavendishDivisor,
    WeightedScore,
    capped_round_total,
    cavendish,
    imps,
)
from tests.data import seed_003


def test_polish_averaged_cavendish_example():
    """Reference 1.11: 17-IMP cap per comparison, averaged over the 4 comparisons."""
    result = cavendish([730, -170, 100, -420, -400], divisor="comparisons", comparison_cap=17)
    assert list(result.ns_imps) == [14, Fraction(-9, 4), Fraction(17, 4), Fraction(-33, 4),
                                    Fraction(-31, 4)]  # fmt: skip
    assert result.comparisons == 4


def test_bridgehit_example():
    result = cavendish([430, 400, 150, -50], divisor=CavendishDivisor.COMPARISONS)
    assert list(result.ns_imps) == [6, 5, Fraction(-8, 3), Fraction(-25, 3)]


def test_total_and_tables_divisors():
    scores = [430, 400, 150, -50]
    total = cavendish(scores, divisor="total")
    assert list(total.ns_imps) == [18, 15, -8, -25]
    by_tables = cavendish(scores)
    assert list(by_tables.ns_imps) == [imp / 4 for imp in total.ns_imps]
    assert total.ew_imps == tuple(-imp for imp in total.ns_imps)


def test_seed_averaged_reading():
    """The lecture: '+9,2 IMP zamiast 128,8 (14 stołów)': the sum divided by the tables."""
    example = seed_003()["cavendish_averaged"]
    average = Fraction(example["average"])
    total = Fraction(example["total"])
    tables = example["tables"]
    assert total / tables == average


def test_comparison_cap_is_symmetric():
    capped = cavendish([4000, 0, -10], divisor="total", comparison_cap=17)
    assert list(capped.ns_imps) == [34, -17 + 0, -17]
    uncapped = cavendish([4000, 0, -10], divisor="total")
    assert list(uncapped.ns_imps) == [48, -24, -24]


def test_weighted_and_artificial_entries():
    weighted = WeightedScore.of(("0.6", 420), ("0.4", -50))
    result = cavendish([170, weighted, ArtificialScore.of(60, 40)], divisor="total")
    assert result.ns_imps[1] == Fraction(6, 5)  # 0.6 x 6 + 0.4 x -6
    assert result.ns_imps[0] == Fraction(-6, 5)
    assert (result.ns_imps[2], result.ew_imps[2]) == (3, -3)
    averaged = cavendish([170, weighted, ArtificialScore.of(40, 40)], divisor="comparisons")
    assert (averaged.ns_imps[2], averaged.ew_imps[2]) == (-3, -3)


def test_polish_round_cap():
    """The lecture: at most 10 + k IMPs won in a round of k boards; losses uncapped."""
    assert capped_round_total([5, 6, 4]) == 13
    assert capped_round_total([5, 6, 1]) == 12
    assert capped_round_total([Fraction(9, 2), 4]) == Fraction(17, 2)
    assert capped_round_total([-20, -5]) == -25
    assert capped_round_total([12, 12], cap=17) == 17


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"divisor": "median"}, "divisor"),
        ({"comparison_cap": -1}, "comparison_cap"),
        ({"comparison_cap": 1.5}, "comparison_cap"),
    ],
)
def test_invalid_options(kwargs, field):
    with pytest.raises(BridgeInputError) as info:
        cavendish([1, 2], **kwargs)
    assert info.value.field == field


board = st.lists(st.integers(-400, 400).map(lambda k: 10 * k), min_size=1, max_size=20)


@given(board, st.sampled_from(list(CavendishDivisor)), st.none() | st.integers(0, 24))
def test_cross_imps_sum_to_zero(scores, divisor, cap):
    result = cavendish(scores, divisor=divisor, comparison_cap=cap)
    assert sum(result.ns_imps) == 0
    assert result.ew_imps == tuple(-imp for imp in result.ns_imps)


@given(board)
def test_total_is_sum_of_pairwise_imps(scores):
    result = cavendish(scores, divisor="total")
    for index, own in enumerate(scores):
        expected = sum(imps(own - other) for j, other in enumerate(scores) if j != index)
        assert result.ns_imps[index] == expected


@given(
    board,
    st.lists(
        st.tuples(st.integers(1, 4), st.integers(-300, 300).map(lambda k: 10 * k)),
        min_size=1,
        max_size=3,
    ),
    st.sampled_from(list(CavendishDivisor)),
)
def test_cross_imps_with_a_weighted_score_sum_to_zero(scores, parts, divisor):
    total = sum(w for w, _ in parts)
    weighted = WeightedScore(tuple((Fraction(w, total), s) for w, s in parts))
    result = cavendish([*scores, weighted], divisor=divisor, comparison_cap=17)
    assert sum(result.ns_imps) == 0
