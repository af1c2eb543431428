"""How a team file's rounds are stored (app/import_team_trf.py,
docs/teams.md#trf-export-and-import): games at their tables, the boards as played when
they are not the default seating (colours, fewer boards, boards won by default), a team
without a match as `free`, a match forfeited whole seated with the teams' first
players."""

from __future__ import annotations

import pytest

from service.app.import_team_trf import stored_rounds
from service.engine.model import Bye, ByeKind, Colour, GameResult, Round
from service.engine.teams.model import (
    EMPTY_SEAT,
    Board,
    Match,
    MatchForfeit,
    Team,
    TeamEvent,
    TeamRound,
    TeamScoring,
    TeamSystem,
)
from service.errors import InvalidInput

W, B = Colour.WHITE, Colour.BLACK
TEAMS = (Team(1, "A", (1, 2, 3)), Team(2, "B", (4, 5, 6)), Team(3, "C", (7, 8, 9)))


def _event(*rounds: TeamRound, system: TeamSystem = TeamSystem.SWISS) -> TeamEvent:
    return TeamEvent(TEAMS, rounds, TeamScoring(boards=2), system=system)


def test_boards_are_seated_at_their_tables() -> None:
    match = Match(
        1, 2, (Board(1, 1, 4, W, GameResult.DRAW), Board(2, 2, 5, B, GameResult.WHITE_WINS))
    )
    rounds, rows = stored_rounds(_event(TeamRound(1, (match,), pab=3)))
    (rnd,) = rounds
    assert [(g.table, g.white, g.black, g.result) for g in rnd.games] == [
        (1, 1, 4, GameResult.DRAW),
        (2, 5, 2, GameResult.WHITE_WINS),  # board 2: the away player has White
    ]
    assert [(r["match_no"], r["home"], r["away"], r["kind"]) for r in rows] == [
        (1, 1, 2, "match"),
        (2, 3, None, "pairing-allocated"),
    ]


def test_a_match_forfeited_whole_gets_each_teams_first_players() -> None:
    match = Match(2, 3, forfeit=MatchForfeit.AWAY_WINS)
    rounds, rows = stored_rounds(_event(TeamRound(1, (match,), pab=1)))
    assert [(g.white, g.black, g.result) for g in rounds[0].games] == [
        (4, 7, GameResult.BLACK_WINS_FORFEIT),  # home White on board 1 loses
        (8, 5, GameResult.WHITE_WINS_FORFEIT),  # away White on board 2 wins
    ]
    assert rows[0]["forfeit"] == "-+"


def test_colours_as_played_are_kept_in_the_layout() -> None:
    """Board 2 with the first-named team White too (the ICU's league seats colours
    freely): the game is stored as played, the layout names each board's colour."""
    match = Match(
        1, 2, (Board(1, 1, 4, W, GameResult.DRAW), Board(2, 2, 5, W, GameResult.BLACK_WINS))
    )
    rounds, rows = stored_rounds(_event(TeamRound(1, (match,), pab=3)))
    assert [(g.table, g.white, g.black) for g in rounds[0].games] == [(1, 1, 4), (2, 2, 5)]
    assert rows[0]["layout"] == [{"board": 1, "home": "w"}, {"board": 2, "home": "w"}]


def test_the_default_seating_has_no_layout() -> None:
    match = Match(1, 2, (Board(1, 1, 4, W, None), Board(2, 2, 5, B, None)))
    _rounds, rows = stored_rounds(_event(TeamRound(1, (match,), pab=3)))
    assert rows[0]["layout"] is None


def test_fewer_boards_and_a_board_won_by_default() -> None:
    """A 4-board event: match 1-2 played on boards 1 and 3 only, board 3 left empty by
    team 2 (player 3 scores it by default); no game is stored for board 3."""
    teams = (Team(1, "A", (1, 2, 3, 4)), Team(2, "B", (5, 6, 7, 8)))
    match = Match(
        1,
        2,
        (
            Board(1, 1, 5, W, GameResult.WHITE_WINS),
            Board(3, 3, EMPTY_SEAT, W, GameResult.WHITE_WINS_FORFEIT),
        ),
    )
    event = TeamEvent(teams, (TeamRound(1, (match,)),), TeamScoring(boards=4))
    cells = (Round(1, (), (Bye(1, 3, ByeKind.FULL_POINT), Bye(1, 8, ByeKind.ZERO_POINT))),)
    rounds, rows = stored_rounds(event, cells)
    assert [(g.table, g.white, g.black) for g in rounds[0].games] == [(1, 1, 5)]
    assert rounds[0].byes == cells[0].byes  # the file's `+` and `Z` cells, kept
    assert rows[0]["layout"] == [
        {"board": 1, "home": "w"},
        {"board": 3, "home": "w", "won_by": "home", "player": 3},
    ]


def test_a_team_left_out_of_a_swiss_round_is_free() -> None:
    """Not paired, no points (as the file says): stored as a `free` team."""
    match = Match(1, 2, (Board(1, 1, 4, W, None), Board(2, 2, 5, B, None)))
    for system in (TeamSystem.SWISS, TeamSystem.ROUND_ROBIN):
        _rounds, rows = stored_rounds(_event(TeamRound(1, (match,), unpaired=(3,)), system=system))
        assert rows[-1]["kind"] == "free" and rows[-1]["home"] == 3


def test_boards_outside_the_event_are_refused() -> None:
    match = Match(1, 2, (Board(1, 1, 4, W, None), Board(3, 2, 5, B, None)))
    with pytest.raises(InvalidInput, match=r"has boards \[1, 3\], not boards of 1..2"):
        stored_rounds(_event(TeamRound(1, (match,), pab=3)))
