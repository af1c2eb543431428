"""Pair the next round of a team tournament (docs/teams.md) once every board of the
current round is confirmed: the team Swiss by FIDE C.04.6 (`pair_team_round`), the team
round-robin from the Berger tables (C.05 Annex 1), through `engine.teams.draw`.

Each match's boards become ordinary games, seated from the two teams' lineups for the
round (the first `boards` players of the list unless the captain named others), with
the first-named team holding the round's colour on the odd boards (C.04.6 art. 1.6).
A captain's lineup short of players leaves the team's last boards empty: each is won
by default by the other team's player there (a full-point bye in the players' round,
TRF `0000 - F`, which the team reader takes beside a match as a board won by default),
kept in the match's layout (`db.team_layout`).
A team's bye (the Swiss PAB, a round-robin's idle team) is stored as a match row of its
own, and so is a team announced absent from a Swiss round (kind `free`: not paired, no
points; docs/teams.md#absent-teams). The pairing runs off the event loop (`offload`).
"""

from __future__ import annotations

import dataclasses

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.lifecycle import settle_status
from service.app.offload import run_cpu
from service.app.teams import lineup_of, require_team_event
from service.db.event_types import RoundPaired
from service.db.events import append_event, lock_tournament
from service.db.game_reads import last_paired_round, round_rows
from service.db.player_reads import list_players
from service.db.repository import store_round
from service.db.tables import TournamentRow
from service.db.team_layout import layout_of
from service.db.team_reads import (
    board_table,
    list_teams,
    load_team_event,
    team_options,
)
from service.db.team_tables import TeamMatchRow
from service.engine.lifecycle import TournamentStatus
from service.engine.model import Bye, ByeKind, Colour, Game, GameResult, Round
from service.engine.pairing.team_swiss.model import ColourPreferenceType, PrimaryScore
from service.engine.result_reporting import GameStatus
from service.engine.rounds import round_progress
from service.engine.teams.baku import TeamAcceleration, event_baku
from service.engine.teams.draw import DrawnMatch, TeamDraw, TeamPairingSystem, next_team_round
from service.engine.teams.model import EMPTY_SEAT, Board, TeamEvent
from service.errors import Conflict

__all__ = ["pair_team_round"]


async def pair_team_round(session: AsyncSession, tournament: TournamentRow) -> TeamDraw:
    """The workflow: lock, check the current round is complete, pair (engine), store
    the matches, their board games and the `round_paired` event."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    require_team_event(tournament)
    if tournament.status != TournamentStatus.RUNNING:
        raise Conflict(
            f"the tournament is {tournament.status}: rounds are paired while it runs "
            f"(POST /v1/tournaments/{tournament.id}/start first)",
            field="status",
        )
    current = await last_paired_round(session, tournament.id)
    games, _ = await round_rows(session, tournament.id, current) if current else ([], [])
    open_tables = sorted(g.table_no for g in games if g.status != GameStatus.CONFIRMED)
    if open_tables:
        raise Conflict(
            f"round {current} has boards to confirm at tables "
            + ", ".join(str(t) for t in open_tables),
            field="round",
            tables=open_tables,
        )
    if tournament.total_rounds is not None and current >= tournament.total_rounds:
        raise Conflict(f"all {tournament.total_rounds} rounds are paired", field="round")
    options = team_options(tournament)
    number = current + 1
    absent = frozenset(
        t.number
        for t in await list_teams(session, tournament.id)
        if str(number) in (t.absences or {})
    )
    loaded = await load_team_event(session, tournament)
    event = await _fielding(session, tournament, loaded, absent)
    draw = await run_cpu(
        next_team_round,
        event,
        TeamPairingSystem(tournament.system),
        colour_preferences=ColourPreferenceType(options.colours),
        primary_score=(
            PrimaryScore.GAME if options.ranking == "game-points" else PrimaryScore.MATCH
        ),
        absent=absent,
        acceleration=_acceleration(tournament, loaded),
        secondary_for_colours=options.secondary_for_colours,
    )
    await _store(session, tournament, draw, options.boards)
    return draw


def _acceleration(tournament: TournamentRow, event: TeamEvent) -> tuple[TeamAcceleration, ...]:
    """The Baku acceleration's virtual points when the settings ask for it."""
    options = team_options(tournament)
    if options.acceleration != "baku" or tournament.total_rounds is None:
        return ()
    return event_baku(event, tournament.total_rounds)


async def _fielding(
    session: AsyncSession, tournament: TournamentRow, event: TeamEvent, absent: frozenset[int]
) -> TeamEvent:
    """The event with each team's list led by its lineup for the coming round, so that
    the draw seats the lineup on boards 1..n (reserves keep their order behind it). A
    team that cannot field a player per board (withdrawals) stops the pairing: 409
    naming `lineups`, so the organizer can set a lineup or withdraw the team's match. A
    team `absent` from the round fields nobody and is not checked."""
    boards = team_options(tournament).boards
    number = len(event.rounds) + 1
    players = await list_players(session, tournament.id)
    starts = {p.number: p.start_number or 0 for p in players}
    withdrawn = {p.number for p in players if p.extra.get("withdrawn")}
    teams = []
    for row, team in zip(await list_teams(session, tournament.id), event.teams, strict=True):
        if row.number in absent:  # not paired this round: it fields nobody
            teams.append(team)
            continue
        lineup = lineup_of(row, number, boards, withdrawn)
        gone = [n for n in lineup if n in withdrawn]
        short = str(number) in row.lineups and len(lineup) < boards  # named short
        if (len(lineup) < boards and not short) or gone:
            raise Conflict(
                f"team {row.number} cannot field {boards} players in round {number}: "
                + (
                    f"its lineup names player {gone[0]}, who has withdrawn"
                    if gone
                    else f"only {len(lineup)} of its players have not withdrawn"
                ),
                field="lineups",
                team=row.number,
            )
        fielded = [starts[n] for n in lineup]
        rest = [] if short else [p for p in team.players if p not in fielded]
        teams.append(dataclasses.replace(team, players=(*fielded, *rest)))
    return dataclasses.replace(event, teams=tuple(teams))


def _seated(match: DrawnMatch) -> list[Board]:
    """A match's boards as seated: a board one team left empty (a lineup short of
    players) is won by default by the other team's player; a board both left empty is
    not played (no points to either: C.07 Art. 11 counts the boards played or won)."""
    seated = []
    for seat in match.boards:
        if seat.white is None and seat.black is None:
            continue
        home_colour = Colour.WHITE if seat.white_team == match.home else Colour.BLACK
        white = seat.white if seat.white is not None else EMPTY_SEAT
        black = seat.black if seat.black is not None else EMPTY_SEAT
        home, away = (white, black) if home_colour is Colour.WHITE else (black, white)
        result = None
        if EMPTY_SEAT in (home, away):
            home_wins = away == EMPTY_SEAT
            white_wins = (home_colour is Colour.WHITE) == home_wins
            result = GameResult.WHITE_WINS_FORFEIT if white_wins else GameResult.BLACK_WINS_FORFEIT
        seated.append(Board(seat.board, home, away, home_colour, result))
    return seated


async def _store(
    session: AsyncSession, tournament: TournamentRow, draw: TeamDraw, boards: int
) -> None:
    games = []
    byes = []
    for match in draw.matches:
        seated = _seated(match)
        session.add(
            TeamMatchRow(
                tournament_id=tournament.id,
                round=draw.round,
                match_no=match.table,
                home=match.home,
                away=match.away,
                layout=layout_of(seated, boards),
            )
        )
        for board in seated:
            if EMPTY_SEAT in (board.home_player, board.away_player):
                # won by default: the player who is there scores it (a full-point bye)
                present = max(board.home_player, board.away_player)
                byes.append(Bye(draw.round, present, ByeKind.FULL_POINT))
                continue
            white, black = (
                (board.home_player, board.away_player)
                if board.home_colour is Colour.WHITE
                else (board.away_player, board.home_player)
            )
            table = board_table(match.table, board.board, boards)
            games.append(Game(draw.round, white, black, table=table))
    if draw.bye is not None and draw.bye_kind is not None:
        session.add(
            TeamMatchRow(
                tournament_id=tournament.id,
                round=draw.round,
                match_no=len(draw.matches) + 1,
                home=draw.bye,
                kind=draw.bye_kind.value,
            )
        )
    following = len(draw.matches) + (2 if draw.bye is not None else 1)
    for offset, team in enumerate(draw.absent):
        session.add(
            TeamMatchRow(
                tournament_id=tournament.id,
                round=draw.round,
                match_no=following + offset,
                home=team,
                kind="free",
            )
        )
    await store_round(session, tournament, Round(draw.round, tuple(games), tuple(byes)))
    standing = round_progress(draw.round if games else None, draw.round, tournament.total_rounds)
    tournament.current_round = standing.current_round
    settle_status(tournament, finished=standing.finished)
    session.add(tournament)
    paired = RoundPaired(
        draw.round,
        games=[[g.table, g.white, g.black] for g in games],
        byes=[[b.player, b.kind.value] for b in byes],
    )
    await append_event(session, tournament.id, paired)
