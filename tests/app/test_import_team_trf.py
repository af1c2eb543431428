"""What a team file must be for a stored team tournament to hold it
(app/import_team_trf.py): complete matches with the first-named team White on the odd
boards, no team left out of a Swiss round, a match forfeited whole seated with the
teams' first players."""

from __future__ import annotations

import pytest

from service.app.import_team_trf import stored_rounds
from service.engine.model import Colour, GameResult
from service.engine.teams.model import (
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


def test_other_board_colours_are_refused() -> None:
    match = Match(1, 2, (Board(1, 1, 4, W, None), Board(2, 2, 5, W, None)))
    with pytest.raises(InvalidInput, match="White on odd boards"):
        stored_rounds(_event(TeamRound(1, (match,), pab=3)))


def test_a_team_left_out_of_a_swiss_round_is_refused() -> None:
    match = Match(1, 2, (Board(1, 1, 4, W, None), Board(2, 2, 5, B, None)))
    with pytest.raises(InvalidInput, match="team 3 is left out"):
        stored_rounds(_event(TeamRound(1, (match,), unpaired=(3,))))
    _rounds, rows = stored_rounds(
        _event(TeamRound(1, (match,), unpaired=(3,)), system=TeamSystem.ROUND_ROBIN)
    )
    assert rows[-1]["kind"] == "free" and rows[-1]["home"] == 3
