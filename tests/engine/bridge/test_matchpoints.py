"""Matchpoints, Neuberg, adjusted and weighted scores (service.engine.bridge.matchpoints).

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
    ArtificialScore,
    BridgeInputError,
    MatchpointUnits,
    WeightedScore,
    matchpoints,
    neuberg,
    round_half_up,
    session_percentage,
)
from tests.data import seed_003

# The lecture: the worked board (the text prints -200 without its sign).
WORKED_BOARD = [690, 660, 630, 630, 620, -100, -100, -200]


def _seed_percentage_table() -> list[tuple[int, int, Decimal]]:
    """(count, MP, percent) rows of the text's percentage slide, best score first."""
    rows = seed_003()["matchpoints"]["percentage_rows"]
    return [(count, mp, Decimal(percent)) for count, mp, percent in rows]


def test_seed_worked_board():
    rows = _seed_percentage_table()
    assert len(rows) == 6
    distinct = sorted(set(WORKED_BOARD), reverse=True)
    result = matchpoints(WORKED_BOARD)
    assert result.top == 14
    for score, (count, mp, percent) in zip(distinct, rows, strict=True):
        assert WORKED_BOARD.count(score) == count
        for index, value in enumerate(WORKED_BOARD):
            if value == score:
                assert result.ns[index] == mp
                assert round_half_up(result.ns_percent[index], 2) == percent


def test_seed_top_and_average():
    """The lecture: '8 zapisów, maks: 14, średnia: 7'; EW = top - NS."""
    figures = seed_003()["matchpoints"]
    tables, top, average = figures["tables"], figures["top"], figures["average"]
    result = matchpoints(WORKED_BOARD[:tables])
    assert result.top == top
    assert sum(result.ns) / tables == average
    assert result.ew == tuple(top - mp for mp in result.ns)
    assert [int(mp) for mp in result.ns] == [14, 12, 9, 9, 6, 3, 3, 0]
    assert [str(round_half_up(p, 2)) for p in result.ew_percent] == [
        "0.00", "14.29", "35.71", "35.71", "57.14", "78.57", "78.57", "100.00",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([430, 420, 400], [4, 2, 0]),
        ([1000, 430, 420, 400, -50], [8, 6, 4, 2, 0]),
        # EBU frequency example: 400 x2, 150, 120 x3, -50 x4 on 10 tables.
        ([400, 400, 150, 120, 120, 120, -50, -50, -50, -50], [17, 17, 14, 10, 10, 10, 3, 3, 3, 3]),
    ],
)
def test_reference_boards(scores, expected):
    result = matchpoints(scores)
    assert list(result.ns) == expected
    assert sum(result.ns) == len(scores) * (len(scores) - 1)


def test_one_half_zero_units():
    result = matchpoints(WORKED_BOARD, units=MatchpointUnits.ONE_HALF_ZERO)
    assert result.top == 7
    assert list(result.ns) == [
        7,
        6,
        Fraction(9, 2),
        Fraction(9, 2),
        3,
        Fraction(3, 2),
        Fraction(3, 2),
        0,
    ]
    assert result.ns_percent == matchpoints(WORKED_BOARD).ns_percent


def test_neuberg_board_played_fewer_times():
    """Reference 1.8: N = 11, n = 10 -> 19.9, 17.7, ..., 0.1 on a top of 20."""
    scores = [520, 500, 490, 480, 460, 450, 430, 420, 400, -50]
    result = matchpoints(scores, tables=11)
    assert result.top == 20
    assert [str(round_half_up(mp, 1)) for mp in result.ns] == [
        "19.9", "17.7", "15.5", "13.3", "11.1", "8.9", "6.7", "4.5", "2.3", "0.1",
    ]  # fmt: skip
    assert all(ns + ew == 20 for ns, ew in zip(result.ns, result.ew, strict=True))


def test_neuberg_formula_values():
    assert neuberg(14, 8, 16) == 29
    assert neuberg(0, 8, 16) == 1
    assert neuberg(18, 10, 11) == Fraction(199, 10)
    assert neuberg(Fraction(9, 2), 8, 16, "1-0.5-0") == Fraction(19, 2)  # (4.5 + .5) * 2 - .5
    assert [neuberg(mp, 3, 6) for mp in (4, 2, 0)] == [9, 5, 1]


def test_three_results_factored_to_six_tables():
    result = matchpoints([430, 400, -50], tables=6)
    assert list(result.ns) == [9, 5, 1]
    assert list(result.ns_percent) == [90, 50, 10]


def test_fouled_board_groups():
    """Reference 1.8: 7 results split 3 + 4, each group factored to 7."""
    three = matchpoints([300, 200, 100], tables=7)
    four = matchpoints([300, 200, 100, 0], tables=7)
    assert round_half_up(three.ns_percent[0], 1) == Decimal("88.9")
    assert four.ns_percent[0] == Fraction(9375, 100)


def test_artificial_score_on_a_board():
    """Reference 1.8: N = 6 with one 60/40 artificial score; real MPs 7,7,4,2,0 of 8."""
    board: list[int | ArtificialScore] = [500, 500, 420, 400, 100, ArtificialScore.of(60, 40)]
    result = matchpoints(board)
    assert result.top == 10
    assert result.compared == 5
    assert [str(round_half_up(mp, 1)) for mp in result.ns[:5]] == [
        "8.6", "8.6", "5.0", "2.6", "0.2",
    ]  # fmt: skip
    assert result.ns[5] == 6
    assert result.ew[5] == 4
    assert result.ns_percent[5] == 60
    assert result.ew_percent[5] == 40


@pytest.mark.parametrize(("ns", "ew"), [(60, 40), (50, 50), (40, 40), (40, 60)])
def test_artificial_scores_need_not_balance(ns, ew):
    result = matchpoints([100, 200, 300, ArtificialScore.of(ns, ew)])
    assert result.ns_percent[3] == ns
    assert result.ew_percent[3] == ew


def test_weighted_score():
    """Reference 1.9: +420, +450, -50, +140 and 60 % of +420 / 40 % of -50 -> 3.4 of 8."""
    weighted = WeightedScore.of(("0.6", 420), ("0.4", -50))
    result = matchpoints([420, 450, -50, 140, weighted])
    assert result.ns[4] == Fraction(17, 5)
    assert result.ns_percent[4] == Fraction(85, 2)
    assert result.ns[0] == Fraction(27, 5)  # 0 + 2 + 2 + (0.6 x 1 + 0.4 x 2)
    assert sum(result.ns) == 20


def test_weighted_score_with_one_part_is_a_plain_score():
    plain = matchpoints([420, 450, -50])
    weighted = matchpoints([WeightedScore.of((1, 420)), 450, -50])
    assert plain == weighted


def test_empty_board():
    """A board with no results yet (a live session) scores nothing."""
    result = matchpoints([])
    assert result.ns == () and result.compared == 0
    assert matchpoints([], tables=4).top == 6


def test_single_table_is_average():
    result = matchpoints([420])
    assert result.top == 0
    assert result.ns_percent == (50,)
    assert result.ew_percent == (50,)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: matchpoints([1, 2, 3], tables=2), "tables"),
        (lambda: matchpoints([1, 2, "3"]), "scores"),  # type: ignore[list-item]
        (lambda: matchpoints([1, 2, 3], units="3-1-0"), None),
        (lambda: WeightedScore.of(("0.5", 420)), "weights"),
        (lambda: WeightedScore.of(("-0.5", 420), ("1.5", 0)), "weights"),
        (lambda: WeightedScore.of(("x", 420)), "weights"),
        (lambda: ArtificialScore.of(120, 40), "ns_percent"),
        (lambda: neuberg(3, 5, 4), "tables"),
        (lambda: neuberg(3, 0, 4), "compared"),
    ],
)
def test_invalid_input(call, field):
    with pytest.raises(ValueError) as info:
        call()
    if field is not None:
        assert isinstance(info.value, BridgeInputError)
        assert info.value.field == field


scores_lists = st.lists(st.integers(-300, 300).map(lambda k: 10 * k), min_size=1, max_size=30)


@given(scores_lists, st.integers(0, 5))
def test_ns_plus_ew_is_top(scores, extra):
    result = matchpoints(scores, tables=len(scores) + extra)
    for ns, ew, pns, pew in zip(
        result.ns, result.ew, result.ns_percent, result.ew_percent, strict=True
    ):
        assert ns + ew == result.top
        assert 0 <= pns <= 100
        assert pns + pew == 100


@given(scores_lists)
def test_matchpoints_sum_to_n_times_average(scores):
    result = matchpoints(scores)
    n = len(scores)
    assert sum(result.ns) == n * (n - 1)
    for a, mp_a in zip(scores, result.ns, strict=True):
        for b, mp_b in zip(scores, result.ns, strict=True):
            if a > b:
                assert mp_a > mp_b


@given(
    scores_lists,
    st.lists(
        st.tuples(st.integers(1, 4), st.integers(-300, 300).map(lambda k: 10 * k)),
        min_size=1,
        max_size=3,
    ),
)
def test_weighted_board_still_sums(scores, parts):
    total = sum(w for w, _ in parts)
    weighted = WeightedScore(tuple((Fraction(w, total), s) for w, s in parts))
    result = matchpoints([*scores, weighted])
    n = len(scores) + 1
    assert sum(result.ns) == n * (n - 1)
    for ns, ew in zip(result.ns, result.ew, strict=True):
        assert ns + ew == result.top


def test_session_percentage_weights_by_top():
    """Total MP over total available, not the mean of board percentages."""
    full = matchpoints(WORKED_BOARD)
    short = matchpoints([430, 420, 400])
    assert session_percentage([full.ns[0], short.ns[2]], [full.top, short.top]) == Fraction(
        1400, 18
    )
    assert session_percentage([], []) == 50
    with pytest.raises(BridgeInputError):
        session_percentage([1], [])


@given(scores_lists.filter(lambda s: len(s) > 1))
def test_seed_control_sum(scores):
    """The lecture's hand check: the best score's MP plus its frequency is top + 1."""
    result = matchpoints(scores)
    best = max(scores)
    assert max(result.ns) + scores.count(best) == result.top + 1
