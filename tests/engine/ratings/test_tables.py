"""The FIDE conversion tables as the rating rules read them (B.02, 2024, 8.1.1 and
8.1.2), against published rows, and the 400-point rule with its 2025 amendment."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.engine.ratings.change import expected_score
from service.engine.scoring.tiebreaks.fide_tables import dp_for_percent


@pytest.mark.parametrize(
    ("difference", "higher"),
    [
        (0, 50), (3, 50), (4, 51), (10, 51), (11, 52), (99, 64), (106, 64), (107, 65),
        (198, 76), (206, 76), (345, 89), (357, 89), (358, 90), (392, 92), (400, 92),
    ],
)  # fmt: skip
def test_table_8_1_2_published_rows(difference: int, higher: int) -> None:
    """Rows of table 8.1.2: a difference band gives the higher-rated player PD and the
    lower-rated 1 - PD."""
    assert expected_score(2000 + difference, 2000) == Fraction(higher, 100)
    assert expected_score(2000, 2000 + difference) == Fraction(100 - higher, 100)


@pytest.mark.parametrize(
    ("p", "dp"),
    [(100, 800), (99, 677), (92, 401), (83, 273), (66, 117), (51, 7), (50, 0), (17, -273),
     (1, -677)],
)  # fmt: skip
def test_table_8_1_1_published_rows(p: int, dp: int) -> None:
    """Rows of table 8.1.1 (fractional score -> rating difference), mirrored below 0.50."""
    assert dp_for_percent(p) == dp


def test_a_difference_above_400_counts_as_400() -> None:
    """Art. 8.3.1: 2200 against 1000 expects 0.92, 1800 against 2400 expects 0.08 (the
    limit applies in every game, not once an event)."""
    assert expected_score(2200, 1000) == Fraction(92, 100)
    assert expected_score(1800, 2400) == Fraction(8, 100)
    assert expected_score(2000, 1588) == Fraction(92, 100)  # 412 counts as 400


def test_from_2650_the_whole_difference_counts() -> None:
    """Art. 8.3.1 as amended from 1 October 2025: a player rated 2650 or more uses the
    whole difference; the lower-rated opponent keeps the 400 limit."""
    assert expected_score(2700, 2288) == Fraction(93, 100)  # 412: band 412-432
    assert expected_score(2700, 1900) == Fraction(1)  # 800: over 735
    assert expected_score(2649, 1900) == Fraction(92, 100)
    assert expected_score(1900, 2700) == Fraction(8, 100)
