"""Type B tie-breaks, C.07 art. 7: WIN, WON, BPG, BWG, PS, REP, STD, TPN."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.engine.model import PointSystem
from service.engine.scoring.standings import compute_standings
from tests.engine.scoring.builders import event


def _values(tournament, code, **kwargs) -> dict[int, Fraction | None]:
    standings = compute_standings(tournament, (code,), **kwargs)
    (key,) = standings.tiebreaks
    return {row.start_number: row.tiebreaks[key] for row in standings.rows}


# Six players, four rounds (a Swiss, not a round-robin):
# r1: 1-2 1-0, 3-4 =, 5-6 +-      r2: 2-1 0-1, 4-5 1-0, 3:U, 6:H
# r3: 1-3 =, 6-2 0-1, 4:F, 5 absent      r4: 3-1 0-1, 2-4 -+, 5-6 --
SWISS = event(
    6,
    "1-2 1-0, 3-4 =, 5-6 +-",
    "2-1 0-1, 4-5 1-0, 3:U, 6:H",
    "1-3 =, 6-2 0-1, 4:F",
    "3-1 0-1, 2-4 -+, 5-6 --",
    total_rounds=4,
)


def test_scores() -> None:
    rows = {r.start_number: r.points for r in compute_standings(SWISS, ()).rows}
    assert rows == {1: Fraction(7, 2), 2: 1, 3: 2, 4: Fraction(7, 2), 5: 1, 6: Fraction(1, 2)}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # Wins with or without playing: OTB wins, forfeit wins, PAB and full-point byes.
        ("WIN", {1: 3, 2: 1, 3: 1, 4: 3, 5: 1, 6: 0}),
        # Wins over the board only.
        ("WON", {1: 3, 2: 1, 3: 0, 4: 1, 5: 0, 6: 0}),
        # Games played with Black over the board (forfeits are not games).
        ("BPG", {1: 2, 2: 2, 3: 1, 4: 1, 5: 1, 6: 0}),
        ("BWG", {1: 2, 2: 1, 3: 0, 4: 0, 5: 0, 6: 0}),
        # Rounds elected to play: all but half/zero byes, absences, forfeit losses.
        ("REP", {1: 4, 2: 3, 3: 4, 4: 4, 5: 2, 6: 1}),
        # Standard points: 1 above a draw's points, 1/2 for a draw's, 0 below.
        ("STD", {1: Fraction(7, 2), 2: 1, 3: 2, 4: Fraction(7, 2), 5: 1, 6: Fraction(1, 2)}),
        # Running scores: 1: 1, 2, 2.5, 3.5 -> 9; 3: 0.5, 1.5, 2, 2 -> 6.
        ("PS", {1: 9, 2: 2, 3: 6, 4: 8, 5: 4, 6: Fraction(3, 2)}),
        ("PS-C1", {1: 8, 2: 2, 3: Fraction(11, 2), 4: Fraction(15, 2), 5: 3, 6: Fraction(3, 2)}),
        ("TPN", {n: n for n in range(1, 7)}),
    ],
)
def test_type_b_values(code: str, expected: dict[int, Fraction]) -> None:
    assert _values(SWISS, code) == expected


def test_tpn_orders_ascending_unless_reversed() -> None:
    tie = event(3, "1-2 =", total_rounds=5)
    order = [r.start_number for r in compute_standings(tie, ("TPN",)).rows]
    assert order[:2] == [1, 2]
    standings = compute_standings(tie, ("TPN/R",))
    assert [r.start_number for r in standings.rows][:2] == [2, 1]
    assert [r.rank for r in standings.rows][:2] == [1, 2]


def test_std_under_football_points() -> None:
    # 3/1/0: a win is 1 standard point, a draw 1/2.
    tournament = event(3, "1-2 1-0", "2-3 =", "3-1 0-1", points=PointSystem.football())
    assert _values(tournament, "STD") == {1: 2, 2: Fraction(1, 2), 3: Fraction(1, 2)}
    assert _values(tournament, "WIN") == {1: 2, 2: 0, 3: 0}


def test_pending_games_count_nothing() -> None:
    tournament = event(4, "1-2 1-0, 3-4 =", "1-3 *, 2-4 0-1", total_rounds=5)
    assert _values(tournament, "WIN") == {1: 1, 2: 0, 3: 0, 4: 1}
    assert _values(tournament, "REP") == {1: 1, 2: 2, 3: 1, 4: 2}
    assert _values(tournament, "PS") == {
        1: 2,
        2: 0,
        3: 1,
        4: Fraction(2),
    }


def test_explain_win() -> None:
    standings = compute_standings(SWISS, ("WIN",), explain=4)
    assert standings.explanation is not None
    win = standings.explanation.tiebreaks[0]
    assert win.value == 3
    assert [c.round for c in win.contributions] == [2, 3, 4]
