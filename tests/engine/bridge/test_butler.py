"""Butler scoring against a datum (service.engine.bridge.butler).

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
    DatumMethod,
    WeightedScore,
    butler,
    datum,
    imps,
    pzbs_kept_count,
)
from tests.data import seed_003

BUTLER = seed_003()["butler"]

# The lecture, "Protokół - obliczenia": NS scores in the order of the protocol and the
# NS IMPs it prints.
SEED_PROTOCOL = [(620, 5), (690, 6), (660, 6), (-100, -11), (630, 5), (-100, -11), (-200, -12),
                 (630, 5)]  # fmt: skip


def test_seed_worked_board():
    total, mean, board_datum = BUTLER["kept_sum"], BUTLER["mean"], BUTLER["datum"]
    scores = [score for score, _ in SEED_PROTOCOL]
    result = butler(scores)
    assert result.datum is not None
    assert sum(result.datum.kept) == total == 1780
    assert result.datum.kept == (630, 630, 620, -100)
    assert result.datum.mean == mean == 445
    assert result.datum.value == board_datum == 440
    assert (result.datum.dropped_high, result.datum.dropped_low) == (2, 2)
    assert list(result.ns_imps) == [imp for _, imp in SEED_PROTOCOL]
    assert result.ew_imps == tuple(-imp for imp in result.ns_imps)


def test_seed_polish_rule_examples():
    """The lecture: '5 — 1-3-1, 6 — 2-2-2, 7 — 2-3-2, 8 — 2-4-2', and 2 scores drop none."""
    examples = BUTLER["polish_rule_examples"]
    assert len(examples) == 4
    for n, high, kept, low in examples:
        assert high + kept + low == n
        assert pzbs_kept_count(n) == kept
        result = datum(list(range(0, 10 * n, 10)), "pzbs")
        assert (result.dropped_high, len(result.kept), result.dropped_low) == (high, kept, low)
    assert pzbs_kept_count(2) == 2


@pytest.mark.parametrize(
    ("n", "kept"),
    [(1, 1), (2, 2), (3, 1), (4, 2), (5, 3), (6, 2), (7, 3), (8, 4), (9, 3), (10, 4), (11, 5),
     (12, 6), (13, 5), (20, 10), (21, 9)],
)  # fmt: skip
def test_polish_rule_reading(n, kept):
    """The reading (docs/rules/bridge.md): the largest count of n's parity at most n / 2."""
    assert pzbs_kept_count(n) == kept


def test_seed_hamman_case():
    """The lecture: correcting one's own score can move the datum and reorder others.

    The lecture's arithmetic (140 - 80 = 60 -> 2 IMPs, 170 - 90 = 80 -> 2 IMPs, 130 + 80 =
    210 -> 5 IMPs, 130 + 90 = 220 -> 6 IMPs) is checked, then replayed on a 4-table board
    whose Polish datum moves from 80 to 90 when +140 is corrected to +170.
    """
    steps = BUTLER["hamman_steps"]
    assert len(steps) == 4
    for won, a, op, b, difference in steps:
        value = a - b if op == "-" else a + b
        assert value == difference
        assert imps(value) == won
    before = butler([140, 20, -130, 400])
    after = butler([170, 20, -130, 400])
    assert before.datum is not None and after.datum is not None
    assert (before.datum.value, after.datum.value) == (80, 90)
    assert (before.ns_imps[0], after.ns_imps[0]) == (2, 2)
    assert (before.ew_imps[2], after.ew_imps[2]) == (5, 6)


def test_reference_vectors():
    magee = butler([600, 600, 600, -200], "mean")
    assert magee.datum is not None and magee.datum.value == 400
    assert list(magee.ns_imps) == [5, 5, 5, -12]
    bermuda = [980] * 3 + [480] * 11 + [450] * 7 + [-50]
    result = butler(bermuda, "mean", rounding="nearest")
    assert result.datum is not None and result.datum.value == 510
    assert (result.ns_imps[0], result.ns_imps[3], result.ns_imps[14], result.ns_imps[21]) == (
        10, -1, -2, -11,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("mean", "rounding", "expected"),
    [
        (445, "down", 440),
        (-445, "down", -450),
        (-445, "toward-zero", -440),
        (445, "nearest", 450),
        (-445, "nearest", -450),
        (425, "nearest-even", 420),
        (435, "nearest-even", 440),
        (Fraction(4451, 10), "none", Fraction(4451, 10)),
    ],
)
def test_datum_rounding(mean, rounding, expected):
    assert datum([mean], "mean", rounding=rounding).value == expected


def test_trim_method():
    scores = [1400, 620, 650, 620, 170, -100]
    result = datum(scores, "trim", trim=1)
    assert result.kept == (650, 620, 620, 170)
    assert result.value == 510  # 2060 / 4 = 515 -> down to 510
    assert datum(scores, DatumMethod.TRIM, trim=5).kept == (620, 620)
    assert datum([100, 200, 300], "trim", trim=2).kept == (200,)


def test_artificial_and_weighted_entries():
    weighted = WeightedScore.of(("0.6", 420), ("0.4", -50))  # mean 232
    board: list[int | WeightedScore | ArtificialScore] = [
        170, 170, weighted, ArtificialScore.of(60, 40), ArtificialScore.of(40, 40),
    ]  # fmt: skip
    result = butler(board, "mean")
    assert result.datum is not None
    assert result.datum.mean == Fraction(170 + 170 + 232, 3)
    assert result.datum.value == 190
    # IMP each component against the datum, then weight: 0.6 x 6 + 0.4 x -6 = 1.2.
    assert result.ns_imps[2] == Fraction(6, 5)
    assert result.ew_imps[2] == -result.ns_imps[2]
    assert (result.ns_imps[3], result.ew_imps[3]) == (3, -3)
    assert (result.ns_imps[4], result.ew_imps[4]) == (-3, -3)


def test_board_with_only_artificial_scores():
    result = butler([ArtificialScore.of(50, 50)])
    assert result.datum is None
    assert result.ns_imps == (0,)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: datum([], "pzbs"), "scores"),
        (lambda: datum([1], "median"), "datum_method"),
        (lambda: datum([1], "pzbs", rounding="up"), "rounding"),
        (lambda: datum([1], "trim", trim=-1), "trim"),
        (lambda: butler([1, "2"]), "scores"),  # type: ignore[list-item]
    ],
)
def test_invalid_input_names_the_field(call, field):
    with pytest.raises(BridgeInputError) as info:
        call()
    assert info.value.field == field


board_scores = st.lists(st.integers(-300, 300).map(lambda k: 10 * k), min_size=1, max_size=40)


@given(board_scores)
def test_polish_rule_properties(scores):
    n = len(scores)
    result = datum(scores, "pzbs")
    kept = len(result.kept)
    assert result.dropped_high == result.dropped_low
    assert kept + 2 * result.dropped_high == n
    if n not in (1, 2, 5):
        assert kept <= n / 2
        assert kept % 2 == n % 2
        assert kept + 2 > n / 2  # the largest such count
    assert result.value % 10 == 0
    assert result.value <= result.mean < result.value + 10
    assert min(result.kept) <= result.mean <= max(result.kept)


@given(board_scores, st.sampled_from(["pzbs", "trim", "mean"]))
def test_ew_is_the_negative_and_order_is_kept(scores, method):
    result = butler(scores, method)
    assert result.ew_imps == tuple(-imp for imp in result.ns_imps)
    for a, imp_a in zip(scores, result.ns_imps, strict=True):
        for b, imp_b in zip(scores, result.ns_imps, strict=True):
            if a >= b:
                assert imp_a >= imp_b
