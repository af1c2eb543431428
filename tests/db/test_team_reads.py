"""A stored team round read back as the team engine's event (db/team_reads.py): board
tables, home colours from the board sequence, confirmed boards only, byes and a match
forfeited whole."""

from __future__ import annotations

from service.db.tables import GameRow
from service.db.team_reads import board_place, board_table, team_rounds
from service.db.team_tables import TeamMatchRow
from service.engine.model import Colour, GameResult
from service.engine.teams.model import EMPTY_SEAT, Board, Match, MatchForfeit


def test_board_tables_round_trip() -> None:
    assert [board_table(m, b, 4) for m in (1, 2) for b in (1, 4)] == [1, 4, 5, 8]
    for table in range(1, 13):
        place = board_place(table, 4)
        assert board_table(place.match_no, place.board, 4) == table


def _game(table: int, white: int, black: int, result: str | None, status: str) -> GameRow:
    return GameRow(
        tournament_id="t", round=1, table_no=table, white=white, black=black,
        result=result, status=status,
    )  # fmt: skip


def test_a_round_reads_as_matches_board_by_board() -> None:
    matches = [
        TeamMatchRow(tournament_id="t", round=1, match_no=1, home=1, away=2),
        TeamMatchRow(tournament_id="t", round=1, match_no=2, home=3, away=4, forfeit="-+"),
        TeamMatchRow(tournament_id="t", round=1, match_no=3, home=5, kind="pairing-allocated"),
    ]
    games = [
        _game(1, 1, 11, "1-0", "confirmed"),  # board 1: home (team 1) White
        _game(2, 12, 2, "1-0", "provisional"),  # board 2: home Black, not confirmed
        _game(3, 21, 31, "-+", "confirmed"),
        _game(4, 32, 22, "+-", "confirmed"),
    ]
    (rnd,) = team_rounds(matches, games, 2)
    assert rnd.pab == 5 and rnd.unpaired == ()
    played, forfeited = rnd.matches
    assert played == Match(
        1,
        2,
        (
            Board(1, 1, 11, Colour.WHITE, GameResult.WHITE_WINS),
            Board(2, 2, 12, Colour.BLACK, None),
        ),
    )
    assert forfeited == Match(3, 4, forfeit=MatchForfeit.AWAY_WINS)
    (unconfirmed,) = team_rounds(matches, games, 2, confirmed_only=False)
    assert unconfirmed.matches[0].boards[1].result is GameResult.WHITE_WINS


def test_a_match_kept_as_played_reads_its_layout() -> None:
    """A 4-board event; match 1 was played on boards 1 and 2 with team 1 White on both,
    and team 2 left board 3 empty (team 1's 3 won it by default); board 4 not played."""
    layout = [
        {"board": 1, "home": "w"},
        {"board": 2, "home": "w"},
        {"board": 3, "home": "b", "won_by": "home", "player": 3},
    ]
    matches = [TeamMatchRow(tournament_id="t", round=1, match_no=1, home=1, away=2, layout=layout)]
    games = [_game(1, 1, 11, "1/2-1/2", "confirmed"), _game(2, 2, 12, "0-1", "confirmed")]
    (rnd,) = team_rounds(matches, games, 4)
    assert rnd.matches[0].boards == (
        Board(1, 1, 11, Colour.WHITE, GameResult.DRAW),
        Board(2, 2, 12, Colour.WHITE, GameResult.BLACK_WINS),
        Board(3, 3, EMPTY_SEAT, Colour.BLACK, GameResult.BLACK_WINS_FORFEIT),
    )
