"""Reading a team tournament (docs/teams.md): its teams, the matches of its rounds, and
the whole event as the team engine sees it (`load_team_event`).

A match's boards are `games` rows: board b of match m sits at table
(m - 1) x boards + b, and the first-named (home) team has the colour of the board
colour sequence on each board (`teams.draw.board_sequence`: the round's colour on odd
boards), unless the match keeps its boards as played (`db.team_layout`: a match read
from a team file). Nothing here adds or changes rows; the workflows of `service.app.teams` and
`service.app.team_rounds` do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.game_reads import round_rows
from service.db.player_reads import list_players
from service.db.tables import GameRow, TournamentRow
from service.db.team_awards import awards_by_round
from service.db.team_layout import seats_of
from service.db.team_tables import TeamMatchRow, TeamRow
from service.db.tournament_config import TeamOptions, config_of
from service.engine.model import Colour, GameResult
from service.engine.result_reporting import GameStatus
from service.engine.teams.model import (
    Board,
    Match,
    MatchForfeit,
    Team,
    TeamEvent,
    TeamRound,
    TeamScoring,
)
from service.engine.teams.systems import team_spec_of

__all__ = [
    "BoardPlace",
    "board_place",
    "board_table",
    "find_match",
    "find_team",
    "is_team_event",
    "list_teams",
    "load_team_event",
    "match_rows",
    "team_file_format",
    "team_options",
    "team_scoring",
]


def is_team_event(row: TournamentRow) -> bool:
    """Whether the tournament runs a team system (`engine.teams.systems`)."""
    return team_spec_of(row.system) is not None


def team_options(row: TournamentRow) -> TeamOptions:
    """A team tournament's settings (the defaults when none were stored)."""
    return config_of(row).team or TeamOptions()


def team_file_format(row: TournamentRow) -> str:
    """How the export writes the teams: `013` (TRF-16 squads) for an event imported from
    such a file, else `310` (TRF-26 lineups in board order)."""
    kept = (row.settings or {}).get("trf") or {}
    return "013" if kept.get("team_format") == "013" else "310"


def team_scoring(options: TeamOptions) -> TeamScoring:
    """Match and game points of the settings (a PAB scores a won match, every board
    won, unless the settings say otherwise: C.07 16.2.1, TRF-26 record 320)."""
    return TeamScoring(
        boards=options.boards,
        match_win=options.match_win,
        match_draw=options.match_draw,
        match_loss=options.match_loss,
        pab_match_points=options.pab_match_points,
        pab_game_points=options.pab_game_points,
    )


def board_table(match_no: int, board: int, boards: int) -> int:
    """The game table of board `board` of match `match_no`."""
    return (match_no - 1) * boards + board


@dataclass(frozen=True, slots=True)
class BoardPlace:
    """Where a game table sits in a team round."""

    match_no: int
    board: int


def board_place(table: int, boards: int) -> BoardPlace:
    """The match and board of a game table (`board_table` reversed)."""
    return BoardPlace((table - 1) // boards + 1, (table - 1) % boards + 1)


async def list_teams(session: AsyncSession, tournament_id: str) -> list[TeamRow]:
    """Every team, by number."""
    found = await session.exec(
        select(TeamRow).where(TeamRow.tournament_id == tournament_id).order_by(col(TeamRow.number))
    )
    return list(found.all())


async def find_team(session: AsyncSession, tournament_id: str, number: int) -> TeamRow | None:
    """Team `number`, None when there is none."""
    found = await session.exec(
        select(TeamRow).where(TeamRow.tournament_id == tournament_id, TeamRow.number == number)
    )
    return found.first()


async def match_rows(
    session: AsyncSession, tournament_id: str, round_number: int | None = None
) -> list[TeamMatchRow]:
    """The matches and byes of one round, or of every round, in round and match order."""
    query = select(TeamMatchRow).where(TeamMatchRow.tournament_id == tournament_id)
    if round_number is not None:
        query = query.where(TeamMatchRow.round == round_number)
    found = await session.exec(query.order_by(col(TeamMatchRow.round), col(TeamMatchRow.match_no)))
    return list(found.all())


async def find_match(
    session: AsyncSession, tournament_id: str, round_number: int, match_no: int
) -> TeamMatchRow | None:
    """Match `match_no` of a round (a match, not a bye), None when there is none."""
    found = await session.exec(
        select(TeamMatchRow).where(
            TeamMatchRow.tournament_id == tournament_id,
            TeamMatchRow.round == round_number,
            TeamMatchRow.match_no == match_no,
            TeamMatchRow.kind == "match",
        )
    )
    return found.first()


async def load_team_event(
    session: AsyncSession, row: TournamentRow, *, confirmed_only: bool = True
) -> TeamEvent:
    """The event as the team engine sees it: teams by number with their players' start
    numbers in board order, each round's matches board by board (a board counts once its
    result is confirmed, unless `confirmed_only` is False), the PAB and the idle team, and
    the points the organizer gave teams without a match (`teams.awarded`)."""
    options = team_options(row)
    spec = team_spec_of(row.system)
    assert spec is not None, row.system
    starts = {p.number: p.start_number for p in await list_players(session, row.id)}
    rows = await list_teams(session, row.id)
    teams = tuple(Team(t.number, t.name, tuple(starts[n] or 0 for n in t.players)) for t in rows)
    games, _ = await round_rows(session, row.id)
    matches = await match_rows(session, row.id)
    awards = awards_by_round((t.number, t.awarded) for t in rows)
    rounds = team_rounds(matches, games, options.boards, confirmed_only=confirmed_only)
    return TeamEvent(
        teams=teams,
        rounds=tuple(
            replace(r, awarded=tuple(awards[r.number])) if r.number in awards else r for r in rounds
        ),
        scoring=team_scoring(options),
        system=spec.reading,
        total_rounds=row.total_rounds,
        name=row.name,
    )


def team_rounds(
    matches: Sequence[TeamMatchRow],
    games: Sequence[GameRow],
    boards: int,
    *,
    confirmed_only: bool = True,
) -> tuple[TeamRound, ...]:
    """The rounds of stored matches and board games (pure: no I/O)."""
    by_place = {(g.round, g.table_no): g for g in games}
    numbers = sorted({m.round for m in matches})
    rounds = []
    for number in numbers:
        played: list[Match] = []
        pab = None
        unpaired: list[int] = []
        for m in (m for m in matches if m.round == number):
            if m.kind == "pairing-allocated":
                pab = m.home
                continue
            if m.kind == "free" or m.away is None:
                unpaired.append(m.home)
                continue
            if m.forfeit is not None:
                played.append(Match(m.home, m.away, forfeit=MatchForfeit(m.forfeit)))
                continue
            seated = []
            for seat in seats_of(m.layout, boards):
                if seat.won_by is not None:  # won by default: no game row
                    seated.append(seat.board_of())
                    continue
                game = by_place[(number, board_table(m.match_no, seat.board, boards))]
                colour = seat.home_colour
                home_player, away_player = (
                    (game.white, game.black) if colour is Colour.WHITE else (game.black, game.white)
                )
                counted = game.result is not None and (
                    game.status == GameStatus.CONFIRMED or not confirmed_only
                )
                result = GameResult(game.result) if counted and game.result else None
                seated.append(Board(seat.board, home_player, away_player, colour, result))
            played.append(Match(m.home, m.away, tuple(seated)))
        rounds.append(TeamRound(number, tuple(played), pab, tuple(unpaired)))
    return tuple(rounds)


async def team_start_numbers(session: AsyncSession, tournament_id: str, number: int) -> set[int]:
    """The start numbers of team `number`'s players (empty before the start)."""
    team = await find_team(session, tournament_id, number)
    if team is None:
        return set()
    players = await list_players(session, tournament_id)
    members = set(team.players)
    return {p.start_number for p in players if p.number in members and p.start_number}
