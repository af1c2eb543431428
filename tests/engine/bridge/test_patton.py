"""Patton and board-a-match (service.engine.bridge.patton).

The lecture is *Wynik rozdania*, the Polish scoring course docs/rules/bridge.md follows;
its figures are in tests/data/seeds/003-bridge.json.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.engine.bridge import BridgeInputError, board_a_match, board_points, patton
from service.engine.bridge.patton import balance_points, scored_points

EXAMPLE_A = [(420, 420), (110, 140), (-50, -100), (430, 420)]
EXAMPLE_B = [(620, -200), (-100, -100), (450, 420), (170, -110)]


def test_board_points_patton_tie_of_ten():
    """The lecture: 2:0, 1:1, 0:2, but a difference of 10 is still a tie."""
    assert board_points(430, 420) == (1, 1)
    assert board_points(420, 430) == (1, 1)
    assert board_points(450, 420) == (2, 0)
    assert board_points(-100, -50) == (0, 2)


def test_board_a_match_exact_tie_only():
    """The lecture: an exact tie is 1:1, a difference of 10 or more is 2:0."""
    assert board_a_match([(430, 420)]).total == (2, 0)
    assert board_a_match([(420, 420)]).total == (1, 1)
    result = board_a_match(EXAMPLE_A)
    assert result.boards == ((1, 1), (0, 2), (2, 0), (2, 0))
    assert result.total == (5, 3)


def test_example_a():
    """Reference 1.13 example A: boards 4:4, balance 1060 vs 1030 (2.8 %) -> even."""
    result = patton(EXAMPLE_A)
    assert result.boards == ((1, 1), (0, 2), (2, 0), (1, 1))
    assert result.board_points == (4, 4)
    assert result.scored == (1060, 1030)
    assert result.balance_points == (4, 4)
    assert result.total == (8, 8)


def test_example_b():
    """Reference 1.13 example B: boards 7:1, balance 1650 vs 520 (68 %) -> 8:0."""
    result = patton(EXAMPLE_B)
    assert result.board_points == (7, 1)
    assert result.scored == (1650, 520)
    assert result.balance_points == (8, 0)
    assert result.total == (15, 1)


@pytest.mark.parametrize(
    ("home", "away", "expected"),
    [
        (1000, 901, (4, 4)),  # 9.9 %: below 10 %
        (1000, 900, (5, 3)),  # exactly 10 % is no longer "below 10 %"
        (1000, 801, (5, 3)),
        (1000, 800, (6, 2)),
        (3000, 2001, (6, 2)),  # just below 33 1/3 %
        (3000, 2000, (7, 1)),
        (1000, 501, (7, 1)),
        (1000, 500, (8, 0)),
        (0, 400, (0, 8)),
        (0, 0, (4, 4)),
    ],
)
def test_seed_balance_bands(home, away, expected):
    """The lecture: below 10 % 4:4, below 20 % 5:3, ..., 50 % or more 8:0."""
    assert balance_points(home, away, 8) == expected


def test_balance_scales_with_the_boards():
    result = patton(EXAMPLE_B * 2)
    assert result.balance_points == (16, 0)
    assert patton(EXAMPLE_B, balance_total=4).balance_points == (4, 0)
    assert balance_points(1000, 850, 6) == (Fraction(15, 4), Fraction(9, 4))


def test_invalid_boards():
    with pytest.raises(BridgeInputError) as info:
        patton([(420, "x")])  # type: ignore[list-item]
    assert info.value.field == "boards"
    with pytest.raises(BridgeInputError):
        balance_points(-1, 10, 8)


boards = st.lists(
    st.tuples(
        st.integers(-200, 200).map(lambda k: 10 * k), st.integers(-200, 200).map(lambda k: 10 * k)
    ),
    min_size=1,
    max_size=12,
)


@given(boards)
def test_points_at_stake_are_conserved(match):
    result = patton(match)
    assert sum(result.board_points) == 2 * len(match)
    assert sum(result.balance_points) == 2 * len(match)
    assert sum(result.total) == 4 * len(match)
    assert sum(board_a_match(match).total) == 2 * len(match)


@given(boards)
def test_swapping_rooms_swaps_teams(match):
    swapped = [(closed, open_) for open_, closed in match]
    result = patton(match)
    mirror = patton(swapped)
    assert mirror.total == result.total[::-1]
    assert scored_points(swapped) == result.scored[::-1]
