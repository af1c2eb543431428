"""Rating tie-breaks, C.07 art. 10 (ARO, TPR, PTP, APRO, APPO, RTNG), B.02 tables, and
the JCA Swiss rules' JCA simple performance."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.scoring.standings import compute_standings
from service.engine.scoring.tiebreaks.fide_tables import dp_for_percent, expected_percent
from service.engine.scoring.tiebreaks.ratings import perfect_performance, performance
from tests.engine.scoring.builders import event

RATED = event(
    4,
    "1-2 1-0, 3-4 =",
    "1-3 =, 2-4 1-0",
    "1-4 1-0, 2-3 0-1",
    ratings=[2200, 2100, 2000, 1900],
)


def _values(tournament, code, **kwargs) -> dict[int, Fraction | None]:
    standings = compute_standings(tournament, (code,), **kwargs)
    (key,) = standings.tiebreaks
    return {row.start_number: row.tiebreaks[key] for row in standings.rows}


@pytest.mark.parametrize(
    ("percent", "dp"),
    [
        (100, 800),
        (99, 677),
        (83, 273),
        (75, 193),
        (67, 125),
        (51, 7),
        (50, 0),
        (33, -125),
        (0, -800),
    ],
)
def test_dp_table(percent: int, dp: int) -> None:
    assert dp_for_percent(percent) == dp


@pytest.mark.parametrize(
    ("diff", "pd"),
    [
        (0, 50),
        (3, 50),
        (4, 51),
        (10, 51),
        (11, 52),
        (98, 63),
        (99, 64),
        (400, 92),
        (735, 99),
        (736, 100),
        (2000, 100),
    ],
)
def test_expected_score_table(diff: int, pd: int) -> None:
    assert expected_percent(1500 + diff, 1500) == pd
    assert expected_percent(1500, 1500 + diff) == 100 - pd


def test_dp_table_is_antisymmetric_and_increasing() -> None:
    dps = [dp_for_percent(p) for p in range(101)]
    assert dps == sorted(dps)
    assert all(dp_for_percent(p) == -dp_for_percent(100 - p) for p in range(101))
    with pytest.raises(ValueError, match="out of range"):
        dp_for_percent(101)


def test_aro_tpr_and_their_cuts() -> None:
    assert _values(RATED, "ARO") == {1: 2000, 2: 2033, 3: 2067, 4: 2100}
    # 1 scored 2.5/3 = 83 % (dp 273); 2 scored 33 % (-125); 3 67 % (125); 4 17 % (-273).
    assert _values(RATED, "TPR") == {1: 2273, 2: 1908, 3: 2192, 4: 1827}
    assert _values(RATED, "ARO-C1")[1] == 2050
    assert _values(RATED, "ARO-M1")[1] == 2000
    assert _values(RATED, "ARO-C2")[1] == 2100


def test_average_performance_of_opponents() -> None:
    # 1's opponents' TPRs: 1908, 2192, 1827 -> 1975.67 -> 1976.
    assert _values(RATED, "APRO")[1] == 1976
    ptp = _values(RATED, "PTP")
    assert ptp[2] is not None and ptp[3] is not None and ptp[4] is not None
    assert _values(RATED, "APPO")[1] == (2 * (ptp[2] + ptp[3] + ptp[4]) + 3) // 6


def test_ptp_worked_values() -> None:
    assert perfect_performance([2000, 2000], 2) == 1997  # 50 %: differences 0-3 give .50
    assert perfect_performance([2000], 2) == 2736  # 1.00 from a difference of 736
    assert perfect_performance([2000, 2400], 0) == 1200  # zero: lowest - 800
    assert perfect_performance([], 0) is None
    assert performance([2000, 2100, 2200], 4) == 2225  # 2/3 -> 67 % -> dp 125


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(1000, 2800), min_size=1, max_size=9).flatmap(
        lambda ratings: st.tuples(st.just(ratings), st.integers(1, 2 * len(ratings)))
    )
)
def test_ptp_is_the_lowest_rating_reaching_the_score(case: tuple[list[int], int]) -> None:
    ratings, halves = case
    ptp = perfect_performance(ratings, halves)
    assert ptp is not None
    target = 50 * halves
    assert sum(expected_percent(ptp, r) for r in ratings) >= target
    assert sum(expected_percent(ptp - 1, r) for r in ratings) < target


def test_rating_and_reverse() -> None:
    assert _values(RATED, "RTNG") == {1: 2200, 2: 2100, 3: 2000, 4: 1900}
    tie = event(2, "1-2 =", ratings=[2000, 2100], total_rounds=3)
    assert [r.start_number for r in compute_standings(tie, ("RTNG",)).rows] == [2, 1]
    assert [r.start_number for r in compute_standings(tie, ("RTNG/R",)).rows] == [1, 2]


def test_unrated_participants_disable_rating_tiebreaks_unless_u() -> None:
    with_unrated = event(4, "1-2 1-0, 3-4 =", ratings=[2200, 2100, 0, 1900], total_rounds=5)
    assert set(_values(with_unrated, "ARO").values()) == {0}
    standings = compute_standings(with_unrated, ("TPR",), explain=1)
    assert standings.explanation is not None
    assert "unrated" in standings.explanation.tiebreaks[0].note
    assert _values(with_unrated, "ARO/U1000") == {1: 2100, 2: 2200, 3: 1900, 4: 1000}


def test_forfeits_are_not_rated_games() -> None:
    tournament = event(3, "1-2 +-", "1-3 1-0", ratings=[2000, 1800, 1600], total_rounds=5)
    assert _values(tournament, "ARO")[1] == 1600


def test_jca_simple_performance() -> None:
    # The JCA Swiss rules: own rating + opponents' ratings; own rating again for each unplayed game.
    tournament = event(
        4, "1-2 1-0, 3-4 =", "1-3 +-, 2:U", ratings=[2000, 1800, 1600, 1400], total_rounds=5
    )
    values = _values(tournament, "PERF-JCA")
    assert values[1] == 2000 + 1800 + 2000  # round 2 was a forfeit win
    assert values[2] == 1800 + 2000 + 1800  # round 2 was a bye
    assert values[4] == 1400 + 1600 + 1400  # round 2: absent
    standings = compute_standings(tournament, ("PERF-JCA",), explain=1)
    assert standings.explanation is not None
    assert sum(c.value for c in standings.explanation.tiebreaks[0].contributions) == 5800
