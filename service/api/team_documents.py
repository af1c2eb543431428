"""Team rows and matches -> response models (docs/teams.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.schemas.teams import (
    BoardPublic,
    MatchPublic,
    TeamAbsencePublic,
    TeamAwardPublic,
    TeamBye,
    TeamPublic,
    TeamRoundPublic,
)
from service.app.teams import lineup_of
from service.db.game_reads import round_rows
from service.db.tables import GameRow, TournamentRow
from service.db.team_layout import seats_of
from service.db.team_reads import board_table, match_rows, team_options, team_scoring
from service.db.team_tables import TeamMatchRow, TeamRow
from service.engine.model import Bye, ByeKind, Colour, GameResult, Round
from service.engine.result_reporting import GameStatus
from service.engine.teams.model import board_points

__all__ = ["build_team_round", "team_public", "team_round_public", "trf_rounds"]


def team_public(team: TeamRow) -> TeamPublic:
    """A team's number, name, players (ids, board order) and announced absences (with
    the points the organizer gave, `teams.awarded`)."""
    absences = sorted((int(r), kind) for r, kind in (team.absences or {}).items())
    awarded = team.awarded or {}
    return TeamPublic(
        id=team.number,
        name=team.name,
        players=list(team.players),
        absences=[
            TeamAbsencePublic(
                round=r,
                type=kind,
                match_points=float(awarded.get(str(r), ["0", "0"])[0]),
                game_points=float(awarded.get(str(r), ["0", "0"])[1]),
            )
            for r, kind in absences
        ],
        awarded=[
            TeamAwardPublic(round=int(r), match_points=float(mp), game_points=float(gp))
            for r, (mp, gp) in sorted(awarded.items(), key=lambda item: int(item[0]))
        ],
    )


async def team_round_public(
    session: AsyncSession, tournament: TournamentRow, number: int
) -> TeamRoundPublic | None:
    """A team round's matches (boards with their games) and byes; None when the round
    has not been paired."""
    matches = await match_rows(session, tournament.id, number)
    if not matches:
        return None
    games, _ = await round_rows(session, tournament.id, number)
    return build_team_round(tournament, number, matches, games)


def build_team_round(
    tournament: TournamentRow,
    number: int,
    matches: Sequence[TeamMatchRow],
    games: Sequence[GameRow],
) -> TeamRoundPublic:
    """The document of stored matches and games (pure)."""
    options = team_options(tournament)
    scoring = team_scoring(options)
    boards = options.boards
    at = {g.table_no: g for g in games}
    played = []
    byes = []
    for m in matches:
        if m.away is None:
            byes.append(
                TeamBye(team=m.home, type="free" if m.kind == "free" else "pairing-allocated")
            )
            continue
        seated = []
        home_points = away_points = Fraction(0)
        confirmed = 0
        seats = seats_of(m.layout, boards)
        for seat in seats:
            table = board_table(m.match_no, seat.board, boards)
            if seat.won_by is not None:  # won by default: the empty seat is player 0
                board_of = seat.board_of()
                white, black = (
                    (board_of.home_player, board_of.away_player)
                    if seat.home_colour is Colour.WHITE
                    else (board_of.away_player, board_of.home_player)
                )
                result: str | None = str(seat.result)
                status = GameStatus.CONFIRMED
                reports: dict[str, str] = {}
            else:
                game = at[table]
                white, black, result = game.white, game.black, game.result
                status = GameStatus(game.status)
                reports = {k: str(v) for k, v in game.reports.items()}
            seated.append(
                BoardPublic(
                    board=seat.board,
                    table=table,
                    white=white,
                    black=black,
                    home=seat.home_colour.value,
                    result=result,
                    status=status,
                    reports=reports,
                )
            )
            if status == GameStatus.CONFIRMED and result is not None:
                confirmed += 1
                home = seat.home_colour
                outcome = GameResult(result)
                home_points += board_points(outcome.outcome(home))
                away_points += board_points(outcome.outcome(home.other))
        match_points = None
        if confirmed == len(seats):
            if home_points > away_points:
                pair = (scoring.match_win, scoring.match_loss)
            elif home_points < away_points:
                pair = (scoring.match_loss, scoring.match_win)
            else:
                pair = (scoring.match_draw, scoring.match_draw)
            if m.forfeit == "--":
                pair = (scoring.match_loss, scoring.match_loss)
            match_points = [float(pair[0]), float(pair[1])]
        played.append(
            MatchPublic(
                match=m.match_no,
                home=m.home,
                away=m.away,
                boards=seated,
                forfeit=m.forfeit,
                match_points=match_points,
                game_points=[float(home_points), float(away_points)],
            )
        )
    return TeamRoundPublic(round=number, matches=played, byes=byes)


def trf_rounds(
    rounds: Sequence[Round],
    matches: Sequence[TeamMatchRow],
    teams: Sequence[TeamRow],
    start_numbers: dict[int, int],
    boards: int,
) -> tuple[Round, ...]:
    """The players' rounds as a TRF-26 team file writes them in the 001 records: a
    match forfeited whole has no games there (record 330 carries it; its players show
    `0000 - Z`), and the players the PAB team would have fielded show `0000 - U`."""
    by_team = {t.number: t for t in teams}
    written = []
    for rnd in rounds:
        here = [m for m in matches if m.round == rnd.number]
        forfeited = {
            board_table(m.match_no, b, boards)
            for m in here
            if m.forfeit is not None
            for b in range(1, boards + 1)
        }
        games = tuple(g for g in rnd.games if g.table not in forfeited)
        byes = list(rnd.byes)
        byes += [
            Bye(rnd.number, player, ByeKind.ZERO_POINT)
            for g in rnd.games
            if g.table in forfeited
            for player in (g.white, g.black)
        ]
        for m in here:
            if m.kind == "pairing-allocated":
                fielded = lineup_of(by_team[m.home], rnd.number, boards)
                byes += [
                    Bye(rnd.number, start_numbers[n], ByeKind.PAIRING_ALLOCATED)
                    for n in fielded
                    if start_numbers[n] not in {b.player for b in rnd.byes}
                ]
        written.append(replace(rnd, games=games, byes=tuple(byes)))
    return tuple(written)
