"""Standings: the tie-break notes' worked round-robin, shared ranks, errors."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.engine.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    PointSystem,
    Round,
    Tournament,
)
from service.engine.scoring.standings import (
    DEFAULT_ROUND_ROBIN,
    DEFAULT_SWISS,
    StandingRow,
    Standings,
    compute_standings,
)
from service.engine.scoring.tiebreaks.errors import (
    TieBreakError,
    UnknownTieBreakError,
    UnsupportedEditionError,
)
from tests.engine.scoring.seed_data import (
    round_robin_tournament,
    seed_002_berger_breakdown,
    seed_002_crosstable,
)


@pytest.fixture(scope="module")
def seed_002() -> tuple[Tournament, dict[int, Fraction], dict[int, Fraction]]:
    table = seed_002_crosstable()
    tournament = round_robin_tournament(table.results, len(table.names))
    return tournament, table.berger, table.points


def test_seed_002_berger_column(seed_002) -> None:
    tournament, berger, _ = seed_002
    standings = compute_standings(tournament, ("SB",))
    got = {row.start_number: row.tiebreaks["SB"] for row in standings.rows}
    assert got == berger
    # The text's named figures.
    assert got[1] == Fraction(47, 4)  # Ivanov 11.75
    assert got[2] == 10  # Petrov
    assert got[3] == 9  # Sidorov
    assert got[4] == Fraction(31, 4)  # Kuznetsov 7.75
    assert got[5] == 3  # Smirnov


def test_seed_002_order_and_points(seed_002) -> None:
    tournament, _, points = seed_002
    standings = compute_standings(tournament)
    assert isinstance(standings, Standings)
    assert all(isinstance(row, StandingRow) for row in standings.rows)
    assert [row.start_number for row in standings.rows] == [1, 2, 3, 4, 5, 6, 7]
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4, 5, 6, 7]
    assert {row.start_number: row.points for row in standings.rows} == points
    # Sidorov and Kuznetsov tie on 4 points; the Berger coefficient puts Sidorov third.
    assert standings.rows[2].points == standings.rows[3].points == 4
    assert list(standings.rows[0].tiebreaks) == ["SB", "DE", "WIN"]
    assert standings.tiebreaks == ("SB", "DE", "WIN")


def test_seed_002_wins(seed_002) -> None:
    tournament, _, _ = seed_002
    table = seed_002_crosstable()
    rows = compute_standings(tournament, ("WIN",)).rows
    for row in rows:
        wins = sum(1 for (i, _), r in table.results.items() if i == row.start_number and r == 1)
        assert row.tiebreaks["WIN"] == wins


def _game(rnd: int, white: int, black: int, result: str) -> Game:
    return Game(rnd, white, black, GameResult.parse(result))


def test_shared_ranks_when_everything_ties() -> None:
    # A 4-player event where 2 and 3 drew each other and mirror each other otherwise.
    players = tuple(Player(k) for k in range(1, 5))
    rounds = (
        Round(1, (_game(1, 1, 2, "1-0"), _game(1, 3, 4, "0-1"))),
        Round(2, (_game(2, 1, 3, "1-0"), _game(2, 2, 4, "0-1"))),
        Round(3, (_game(3, 1, 4, "1-0"), _game(3, 2, 3, "1/2-1/2"))),
    )
    standings = compute_standings(Tournament(players, rounds))
    assert [(r.rank, r.start_number) for r in standings.rows] == [(1, 1), (2, 4), (3, 2), (3, 3)]


def test_direct_encounter_breaks_a_tie() -> None:
    players = tuple(Player(k) for k in range(1, 5))
    rounds = (
        Round(1, (_game(1, 1, 2, "0-1"), _game(1, 3, 4, "1-0"))),
        Round(2, (_game(2, 1, 3, "1-0"), _game(2, 2, 4, "0-1"))),
    )
    # 1, 2, 3, 4 all have 1 point; DE orders each pair that met.
    standings = compute_standings(Tournament(players, rounds), ("DE",))
    by_number = {r.start_number: r for r in standings.rows}
    # Four tied, not all met: nobody is out of reach (art. 6.3), so all stay tied.
    assert {r.rank for r in standings.rows} == {1}
    assert by_number[2].tiebreaks["DE"] == 1


def test_unfinished_games_count_nothing() -> None:
    players = tuple(Player(k) for k in range(1, 3))
    rounds = (Round(1, (Game(1, 1, 2, None),)),)
    rows = compute_standings(Tournament(players, rounds)).rows
    assert [(r.rank, r.points) for r in rows] == [(1, 0), (1, 0)]


def test_unknown_code_names_the_code() -> None:
    with pytest.raises(UnknownTieBreakError, match="XYZ") as info:
        compute_standings(Tournament((Player(1),)), ("SB", "XYZ"))
    assert isinstance(info.value, ValueError)
    assert info.value.code == "XYZ"


def test_unknown_edition() -> None:
    with pytest.raises(UnsupportedEditionError, match="2019"):
        compute_standings(Tournament((Player(1),)), edition="2019")
    assert compute_standings(Tournament((Player(1),)), edition="2023").edition == "2024"


def test_defaults_are_exposed() -> None:
    assert DEFAULT_ROUND_ROBIN == ("SB", "DE", "WIN", "KS")
    assert DEFAULT_SWISS[0] == "BH-C1"


def test_explain_lists_sb_items(seed_002) -> None:
    tournament, _, _ = seed_002
    standings = compute_standings(tournament, ("SB", "DE"), explain=3)
    explanation = standings.explanation
    assert explanation is not None
    sb = explanation.tiebreaks[0]
    assert sb.code == "SB"
    assert sb.value == 9
    assert sum(c.value for c in sb.contributions) == 9
    assert {c.opponent for c in sb.contributions} == {1, 2, 4, 5, 6, 7}
    assert explanation.as_dict()["start_number"] == 3


def test_player_twice_in_a_round_is_rejected() -> None:
    players = (Player(1), Player(2), Player(3))
    rounds = (
        Round(1, (_game(1, 2, 3, "1-0"),)),
        Round(2, (_game(2, 1, 2, "1-0"),), (Bye(2, 1, ByeKind.HALF_POINT),)),
    )
    with pytest.raises(TieBreakError, match="player 1 appears more than once in round 2"):
        compute_standings(Tournament(players, rounds))


def test_custom_point_system() -> None:
    # 2 for a win, 1 for a draw, 0 for a loss; the pairing-allocated bye is worth 1.
    points = PointSystem(win=Fraction(2), draw=Fraction(1), pairing_bye=Fraction(1))
    players = tuple(Player(k) for k in range(1, 4))
    rounds = (
        Round(1, (_game(1, 1, 2, "1-0"),), (Bye(1, 3, ByeKind.PAIRING_ALLOCATED),)),
        Round(2, (_game(2, 3, 1, "1/2-1/2"),), (Bye(2, 2, ByeKind.PAIRING_ALLOCATED),)),
    )
    standings = compute_standings(
        Tournament(players, rounds, points=points, total_rounds=4), ("WIN", "STD")
    )
    rows = {r.start_number: r for r in standings.rows}
    assert {n: r.points for n, r in rows.items()} == {1: 3, 2: 1, 3: 2}
    # A bye worth a draw's points is not a win; on the 1/½/0 scale it is a half.
    assert rows[2].tiebreaks == {"WIN": 0, "STD": Fraction(1, 2)}
    assert rows[1].tiebreaks == {"WIN": 1, "STD": Fraction(3, 2)}


def test_fractional_point_values_stay_exact() -> None:
    points = PointSystem(win=Fraction(1), draw=Fraction(1, 3), loss=Fraction(0))
    players = tuple(Player(k) for k in range(1, 4))
    rounds = (
        Round(1, (_game(1, 1, 2, "1/2-1/2"),)),
        Round(2, (_game(2, 2, 3, "1/2-1/2"),)),
        Round(3, (_game(3, 3, 1, "1-0"),)),
    )
    rows = compute_standings(Tournament(players, rounds, points=points), ("SB", "BH")).rows
    got = {r.start_number: (r.points, r.tiebreaks["SB"], r.tiebreaks["BH"]) for r in rows}
    third = Fraction(1, 3)
    # Scores: 1: 1/3, 2: 2/3, 3: 4/3.
    # SB of 3: half of 2's 2/3 (draw) plus all of 1's 1/3 (win); BH 2/3 + 1/3.
    assert got[3] == (4 * third, 2 * third / 2 + third, 2 * third + third)
    assert got[1] == (third, 2 * third / 2, 2 * third + 4 * third)


def test_round_robin_detection() -> None:
    from service.engine.scoring.tiebreaks.context import is_round_robin

    table = seed_002_crosstable()
    assert is_round_robin(round_robin_tournament(table.results, 7))
    players = tuple(Player(k) for k in range(1, 5))
    swiss_length = (
        Round(1, (_game(1, 1, 2, "1-0"), _game(1, 3, 4, "1-0"))),
        Round(2, (_game(2, 1, 3, "1-0"), _game(2, 2, 4, "1-0"))),
        Round(3, (_game(3, 1, 2, "1-0"), _game(3, 3, 4, "1-0"))),  # a rematch
    )
    assert not is_round_robin(Tournament(players, swiss_length))
    with_pab = (Round(1, (_game(1, 1, 2, "1-0"),), (Bye(1, 3, ByeKind.PAIRING_ALLOCATED),)),)
    assert not is_round_robin(Tournament(players[:3], with_pab, total_rounds=3))


def test_explain_direct_encounter_lists_the_games(seed_002) -> None:
    tournament, _, _ = seed_002
    # Sidorov (3) and Kuznetsov (4) tie on points; DE first: they drew.
    standings = compute_standings(tournament, ("DE", "SB"), explain=4)
    assert standings.explanation is not None
    de = standings.explanation.tiebreaks[0]
    assert de.value == Fraction(1, 2)
    assert [(c.opponent, c.value) for c in de.contributions] == [(3, Fraction(1, 2))]
    # The draw leaves them tied; SB then puts Sidorov third.
    assert [r.start_number for r in standings.rows][2:4] == [3, 4]


def test_unknown_start_numbers_are_rejected() -> None:
    players = (Player(1), Player(2))
    rounds = (Round(1, (_game(1, 1, 7, "1-0"),)),)
    with pytest.raises(TieBreakError, match="round 1 has start number 7"):
        compute_standings(Tournament(players, rounds))
    with pytest.raises(TieBreakError, match="cannot explain start number 9"):
        compute_standings(Tournament(players), explain=9)


def test_seed_002_berger_items_per_opponent(seed_002) -> None:
    tournament, _, _ = seed_002
    for number, items in seed_002_berger_breakdown().items():
        standings = compute_standings(tournament, ("SB",), explain=number)
        assert standings.explanation is not None
        sb = standings.explanation.tiebreaks[0]
        by_opponent = {c.opponent: c.value for c in sb.contributions}
        opponents = [k for k in range(1, 8) if k != number]
        assert [by_opponent[k] for k in opponents] == items
        assert sum(items) == sb.value
