"""Board results of a team match (docs/teams.md): each board is an ordinary game, so a
report runs the individual result workflow (`report_result`: either captain, or the
board's player, reports; agreement of the two sides confirms; disagreement marks the
board disputed until the organizer decides); a whole match forfeited is the
organizer's (TRF-26 record 330): every board gets the forfeit. A match read from a team
file keeps its boards as played (`db.team_layout`): a board it was not played on, or
won by default, has no game to report, and a whole-match forfeit leaves such a board.
"""

from __future__ import annotations

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.actor import Actor
from service.app.report_result import ReportOutcome, report_result
from service.app.teams import require_team_event
from service.db.tables import TournamentRow
from service.db.team_layout import seats_of
from service.db.team_reads import board_table, find_match, team_options
from service.db.team_tables import TeamMatchRow
from service.engine.model import Colour
from service.errors import Forbidden, NotFound

__all__ = ["forfeit_match", "report_board"]

_HOME_WINS = {Colour.WHITE: "+-", Colour.BLACK: "-+"}
_AWAY_WINS = {Colour.WHITE: "-+", Colour.BLACK: "+-"}


async def _match(
    session: AsyncSession, tournament: TournamentRow, round_number: int, match_no: int
) -> TeamMatchRow:
    require_team_event(tournament)
    match = await find_match(session, tournament.id, round_number, match_no)
    if match is None:
        raise NotFound(f"round {round_number} has no match {match_no}", field="match")
    return match


async def report_board(
    session: AsyncSession,
    tournament: TournamentRow,
    round_number: int,
    match_no: int,
    board: int,
    result: str,
    actor: Actor,
) -> ReportOutcome:
    """Report board `board` of match `match_no` (404 naming `match` or `board` for one
    the round does not have). The organizer's report of a board of a match forfeited
    whole turns it back into a match played board by board."""
    match = await _match(session, tournament, round_number, match_no)
    boards = team_options(tournament).boards
    if not 1 <= board <= boards:
        raise NotFound(f"a match has boards 1 to {boards}, not {board}", field="board")
    played = {s.board for s in seats_of(match.layout, boards) if s.won_by is None}
    if board not in played:  # a match read from a team file: as the file has it
        raise NotFound(
            f"match {match_no} of round {round_number} has no game on board {board} "
            "(not played, or won by default)",
            field="board",
        )
    outcome = await report_result(
        session, tournament, round_number, board_table(match_no, board, boards), result, actor
    )
    if match.forfeit is not None and actor.kind == "organizer" and outcome.seq is not None:
        match.forfeit = None
        session.add(match)
    return outcome


async def forfeit_match(
    session: AsyncSession,
    tournament: TournamentRow,
    round_number: int,
    match_no: int,
    forfeit: str,
    actor: Actor,
) -> TeamMatchRow:
    """The organizer forfeits a whole match: `+-` the home team wins, `-+` the away
    team, `--` neither; every board gets the matching forfeit, confirmed."""
    if actor.kind != "organizer":
        raise Forbidden("only the organizer forfeits a whole match", field="Authorization")
    match = await _match(session, tournament, round_number, match_no)
    boards = team_options(tournament).boards
    for seat in seats_of(match.layout, boards):
        if seat.won_by is not None:
            continue  # won by default (a match read from a team file): it stands
        board, colour = seat.board, seat.home_colour
        result = "--"
        if forfeit == "+-":
            result = _HOME_WINS[colour]
        elif forfeit == "-+":
            result = _AWAY_WINS[colour]
        table = board_table(match_no, board, boards)
        await report_result(session, tournament, round_number, table, result, actor)
    match.forfeit = forfeit
    session.add(match)
    return match
