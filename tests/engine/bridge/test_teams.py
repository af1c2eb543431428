"""Team matches: open and closed room -> IMPs -> VP (service.engine.bridge.teams).

The lecture is *Wynik rozdania*, the Polish scoring course docs/rules/bridge.md follows;
its figures are in tests/data/seeds/003-bridge.json.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.engine.bridge import (
    BridgeInputError,
    ImpAdjustment,
    WeightedScore,
    aggregate_margin,
    board_conditions,
    board_imps,
    ns_score,
    team_match,
    vp,
)

# The lecture, match protocol (round 1, segment 2, table 3), boards 13-24:
# (board, open room contract/declarer/tricks, closed room ..., IMPs to the home team).
# The OCR prints the IMPs unsigned in the column of the side that won them.
SEED_MATCH = [
    (13, ("4H", "N", 9), ("2S", "E", 10), 2),
    (14, ("1NT", "N", 10), ("1NT", "S", 9), 1),
    (15, ("4S", "E", 11), ("6D", "E", 12), 10),
    (16, ("3NT", "S", 7), ("3D", "N", 9), -5),
    (17, ("4S", "W", 11), ("3CX", "N", 4), 12),
    (18, ("2S", "S", 8), ("3S", "W", 8), 2),
    (19, ("4SX", "E", 10), ("5SX", "E", 10), -14),
    (20, ("6NT", "W", 13), ("6NT", "W", 13), 0),
    (21, ("3NTX", "W", 8), ("4SX", "W", 9), 0),
    (22, ("1NT", "E", 8), ("1NT", "S", 7), -5),
    (23, ("3C", "S", 8), ("3D", "N", 9), -5),
    (24, ("2H", "W", 7), ("2H", "W", 6), -2),
]


def _protocol_boards():
    boards = []
    for board, open_room, closed_room, _ in SEED_MATCH:
        vul = board_conditions(board).vulnerability
        boards.append((ns_score(*open_room[:2], vul, open_room[2]),
                       ns_score(*closed_room[:2], vul, closed_room[2])))  # fmt: skip
    return boards


def test_seed_protocol_board_imps():
    for (open_ns, closed_ns), (_, _, _, expected) in zip(
        _protocol_boards(), SEED_MATCH, strict=True
    ):
        assert board_imps(open_ns, closed_ns) == expected


def test_seed_protocol_match():
    result = team_match(_protocol_boards())
    assert result.imps == (27, 31)
    assert result.margin == -4
    expected = vp(4, 12)
    assert result.vp == (expected.loser, expected.winner)
    assert sum(result.vp) == 20


def test_weighted_board():
    """Reference 1.9: 60 % of +420 / 40 % of -50 against +170 -> +1.2 IMPs."""
    weighted = WeightedScore.of(("0.6", 420), ("0.4", -50))
    assert board_imps(weighted, 170) == Fraction(6, 5)
    assert board_imps(170, weighted) == Fraction(-6, 5)
    result = team_match([(weighted, 170), (620, 170)])
    assert result.imps == (Fraction(6, 5) + 10, 0)


def test_adjustments_and_vp_for_a_16_board_match():
    boards = (
        [(420, 170)] * 3
        + [(-100, 100)]
        + [(0, 0)] * 11
        + [ImpAdjustment(Fraction(3), Fraction(-3))]
    )
    result = team_match(boards)
    assert result.board_imps[0] == (6, 0)
    assert result.board_imps[3] == (0, 5)
    assert result.board_imps[-1] == (3, -3)
    assert result.imps == (21, 2)
    assert result.margin == 19
    assert result.vp == (Decimal("14.80"), Decimal("5.20"))


def test_match_level_adjustment_and_scale():
    result = team_match([(420, 170)] * 8, imp_adjustment=(0, 3), scale="wbf-2013-discrete")
    assert result.imps == (48, 3)
    assert result.vp == (20, 0)
    partial = team_match([(420, 170)], boards_in_match=16)
    assert partial.vp == (Decimal("11.76"), Decimal("8.24"))


@pytest.mark.parametrize(
    ("boards", "field"),
    [
        ([(420, "170")], "closed_ns"),
        ([(420,)], "boards"),
        ([(420, 170)] * 2, None),
    ],
)
def test_invalid_boards(boards, field):
    if field is None:
        assert team_match(boards).margin == 12
        return
    with pytest.raises(BridgeInputError) as info:
        team_match(boards)
    assert info.value.field == field


scores = st.integers(-300, 300).map(lambda k: 10 * k)


@given(st.lists(st.tuples(scores, scores), min_size=1, max_size=24))
def test_vp_sum_and_orientation(boards):
    result = team_match(boards)
    assert sum(result.vp) == 20
    mirror = team_match([(c, o) for o, c in boards])
    assert mirror.vp == result.vp[::-1]
    assert mirror.margin == -result.margin
    assert (result.vp[0] >= result.vp[1]) == (result.margin >= 0) or result.margin == 0


def test_aggregate_margin():
    """Law 78C total points: the lecture protocol's boards sum to the home team's margin."""
    boards = _protocol_boards()
    assert aggregate_margin(boards) == sum(o - c for o, c in boards)
    assert aggregate_margin([(420, 170), (-100, 50)]) == 100
    with pytest.raises(BridgeInputError):
        aggregate_margin([(420, None)])  # type: ignore[list-item]
