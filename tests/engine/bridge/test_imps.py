"""The WBF IMP scale both ways (service.engine.bridge.imps).

The lecture is *Wynik rozdania*, the Polish scoring course docs/rules/bridge.md follows;
its figures are in tests/data/seeds/003-bridge.json.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.engine.bridge import (
    BridgeInputError,
    ImpRounding,
    imp_range,
    imps,
    round_imps_for_non_offenders,
)
from tests.data import bridge_reference, spec_bridge


def _reference_bands() -> dict[int, tuple[int, int | None]]:
    """IMP -> (low, high) from the Law 78B table (tests/data/reference/bridge-scoring.json)."""
    bands = bridge_reference()["imp_bands"]
    return {int(imp): (low, high) for imp, (low, high) in bands.items()}


def _reference_vectors() -> list[tuple[int, int]]:
    return [(difference, imp) for difference, imp in bridge_reference()["imp_vectors"]]


BANDS = _reference_bands()
VECTORS = _reference_vectors()


def test_reference_data_was_read():
    assert sorted(BANDS) == list(range(25))
    assert len(VECTORS) == 52


@pytest.mark.parametrize("imp", range(25))
def test_band_edges(imp):
    low, high = BANDS[imp]
    assert imps(low) == imp
    if high is not None:
        assert imps(high) == imp
        assert imps(high + 10) == imp + 1
    if imp > 0:
        assert imps(low - 10) == imp - 1
        assert imps(-low) == -imp


@pytest.mark.parametrize("imp", range(-24, 25))
def test_imp_range_inverts_the_scale(imp):
    low, high = BANDS[abs(imp)]
    expected = (low, high) if imp >= 0 else (None if high is None else -high, -low)
    if imp == 0:
        expected = (-10, 10)
    result = imp_range(imp)
    assert (result.low, result.high) == expected
    for edge in (result.low, result.high):
        if edge is not None:
            assert imps(edge) == imp
            assert edge in result


@pytest.mark.parametrize(("difference", "expected"), VECTORS)
def test_reference_vectors(difference, expected):
    assert imps(difference) == expected
    assert imps(difference, ImpRounding.LOWER_BOUND) == expected


def test_spec_examples():
    """Some bands quoted from the lecture's table (tests/data/spec/bridge.json)."""
    found = spec_bridge()["imp_band_examples"]
    assert len(found) >= 8
    for low, high, imp in found:
        assert imps(low) == imps(high) == imp


def test_large_differences_do_not_lose_an_imp():
    """The 2990 bound is easy to drop (a known bug in the wild): 3000 -> 22, 4000 -> 24."""
    assert imps(2990) == 21
    assert imps(3000) == 22
    assert imps(3990) == 23
    assert imps(4000) == 24
    assert imps(-7600) == -24


def test_non_multiples_of_ten():
    assert imps(Fraction(15)) == 1
    assert imps(15) == 1
    assert imps(14) == 0
    assert imps(Fraction(29, 2)) == 0
    assert imps(-15) == -1
    assert imps(45) == 2
    assert imps(15, ImpRounding.LOWER_BOUND) == 0
    assert imps(19, "lower-bound") == 0
    assert imps(Fraction(-445, 1)) == -10


@pytest.mark.parametrize("bad", [1.5, "20", None, True])
def test_invalid_difference(bad):
    with pytest.raises(BridgeInputError, match=r"^difference:"):
        imps(bad)


@pytest.mark.parametrize("bad", [25, -25, 1.0])
def test_invalid_imp_value(bad):
    with pytest.raises(BridgeInputError, match=r"^imp:"):
        imp_range(bad)


differences = st.integers(-8000, 8000) | st.fractions(-8000, 8000)


@given(differences)
def test_antisymmetric(difference):
    assert imps(-difference) == -imps(difference)


@given(differences, differences)
def test_monotone(a, b):
    low, high = sorted((a, b))
    assert imps(low) <= imps(high)
    assert imps(low, "lower-bound") <= imps(high, "lower-bound")


@given(st.integers(-900, 900).map(lambda k: 10 * k))
def test_multiples_of_ten_fall_in_their_range(difference):
    value = imps(difference)
    assert difference in imp_range(value)
    assert 0 <= abs(value) <= 24


@pytest.mark.parametrize(
    ("value", "non_offenders_positive", "expected"),
    [
        (Fraction(6, 5), True, 2),
        (Fraction(6, 5), False, 1),
        (Fraction(-6, 5), True, -1),
        (Fraction(-6, 5), False, -2),
        (3, False, 3),
    ],
)
def test_rounding_in_favour_of_the_non_offenders(value, non_offenders_positive, expected):
    """The lecture: fractional IMPs are rounded in favour of the non-offending side."""
    assert round_imps_for_non_offenders(value, non_offenders_positive) == expected
