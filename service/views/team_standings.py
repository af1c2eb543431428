"""The standings of a team tournament (docs/teams.md#standings): the teams ranked by
their tie-break list (FIDE C.07 Art. 11-13, `engine.teams.ranking`), and the board
prizes: on each board, its players ranked by percentage.

Only confirmed boards count, as in the individual standings. The team list is the
tournament's tie-break setting, else the team system's default
(`engine.teams.systems`); a list that does not start with a score gets the primary
score (PTS, or GPTS when the event ranks by game points) in front.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.game_reads import round_rows
from service.db.player_reads import list_players
from service.db.tables import GameRow, PlayerRow, TournamentRow
from service.db.team_reads import board_place, list_teams, load_team_event, team_options
from service.db.tournament_config import config_of
from service.engine.model import Colour, GameResult, Outcome
from service.engine.result_reporting import GameStatus
from service.engine.scoring.tiebreaks.ratings import performance
from service.engine.teams.model import EMPTY_SEAT, board_points
from service.engine.teams.ranking import rank_teams
from service.engine.teams.systems import TeamRanking, default_team_tiebreaks, team_spec_of

__all__ = ["board_prizes", "team_standings", "team_tiebreak_order"]

_SCORES = ("PTS", "MPTS", "GPTS")


def team_tiebreak_order(row: TournamentRow) -> list[str]:
    """The team tie-break list: the organizer's, else the system's default; the primary
    score first."""
    spec = team_spec_of(row.system)
    assert spec is not None, row.system
    ranking = TeamRanking(team_options(row).ranking)
    configured = config_of(row).tiebreaks
    codes = list(configured) if configured else list(default_team_tiebreaks(spec, ranking))
    if codes[0].upper() not in _SCORES:
        codes.insert(0, "GPTS" if ranking is TeamRanking.GAME_POINTS else "PTS")
    return codes


async def team_standings(session: AsyncSession, row: TournamentRow) -> dict[str, Any]:
    """`teams` (the ranking), `team_tiebreaks` (the list applied) and `boards` (the
    board prizes) of a team tournament."""
    event = await load_team_event(session, row)
    codes = team_tiebreak_order(row)
    names = {t.number: t.name for t in event.teams}
    teams = [
        {
            "rank": line.rank,
            "team": line.team,
            "name": names[line.team],
            "match_points": float(line.match_points),
            "game_points": float(line.game_points),
            "tiebreaks": {code: float(value) for code, value in line.values.items()},
        }
        for line in rank_teams(event, codes)
    ]
    games, _ = await round_rows(session, row.id)
    players = await list_players(session, row.id)
    team_of = {}
    by_number = {p.number: p for p in players}
    for team in await list_teams(session, row.id):
        for number in team.players:
            start = by_number[number].start_number
            if start is not None:
                team_of[start] = team.number
    defaults = [
        (b.board, b.away_player if b.home_player == EMPTY_SEAT else b.home_player)
        for rnd in event.rounds
        for match in rnd.matches
        for b in match.boards
        if EMPTY_SEAT in (b.home_player, b.away_player)
    ]
    boards = board_prizes(games, players, team_of, team_options(row).boards, defaults)
    return {"teams": teams, "team_tiebreaks": codes, "boards": boards}


def board_prizes(
    games: Sequence[GameRow],
    players: Sequence[PlayerRow],
    team_of: dict[int, int],
    boards: int,
    defaults: Sequence[tuple[int, int]] = (),
) -> list[dict[str, Any]]:
    """Each board's players by percentage (then games, then performance; equal lines
    share a rank). Points and games count every confirmed result on the board,
    forfeits included (C.07 Art. 11: a forfeit win is a point), and the boards won by
    default of a match read from a team file (`defaults`: board, player); the performance
    (C.07 10.2: the rated opponents' average plus dp of the percentage) counts the
    games played over the board against rated opponents, null without one."""
    by_start = {p.start_number: p for p in players if p.start_number is not None}
    points: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    counted: dict[tuple[int, int], int] = defaultdict(int)
    rated: dict[tuple[int, int], list[tuple[int, Fraction]]] = defaultdict(list)
    for game in games:
        if game.status != GameStatus.CONFIRMED or game.result is None:
            continue
        board = board_place(game.table_no, boards).board
        result = GameResult(game.result)
        for colour, me, other in (
            (Colour.WHITE, game.white, game.black),
            (Colour.BLACK, game.black, game.white),
        ):
            outcome = result.outcome(colour)
            score = board_points(outcome)
            points[(board, me)] += score
            counted[(board, me)] += 1
            played = outcome in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)
            opponent = by_start[other].rating
            if played and opponent:
                rated[(board, me)].append((opponent, score))
    for board, player in defaults:  # the other team left the seat empty: not played
        points[(board, player)] += 1
        counted[(board, player)] += 1
    sections = []
    for board in range(1, boards + 1):
        lines = []
        for (on, start), games_on in counted.items():
            if on != board:
                continue
            faced = rated[(board, start)]
            tpr = performance(
                [r for r, _ in faced], int(sum((2 * s for _, s in faced), Fraction(0)))
            )
            score = points[(board, start)]
            lines.append(
                {
                    "player": start,
                    "name": by_start[start].name,
                    "team": team_of.get(start, 0),
                    "points": float(score),
                    "games": games_on,
                    "percentage": round(float(100 * score / games_on), 2),
                    "performance": tpr,
                    "_key": (-score / games_on, -games_on, -(tpr if tpr is not None else -9999)),
                }
            )
        lines.sort(key=lambda line: (line["_key"], line["player"]))
        ranked: list[dict[str, Any]] = []
        for index, line in enumerate(lines):
            same = index and lines[index - 1]["_key"] == line["_key"]
            rank = ranked[-1]["rank"] if same else index + 1
            ranked.append({"rank": rank, **{k: v for k, v in line.items() if k != "_key"}})
        sections.append({"board": board, "players": ranked})
    return sections
