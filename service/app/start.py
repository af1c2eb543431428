"""Close the start list: number the players in the engine's start order
(`engine.lifecycle.start_order`: rating descending, ties by name, then registration
order), issue their tokens (shown only this once), move the tournament to running and,
for round-robins and FLAMPARK, pair every round (FIDE C.05 Berger tables; the FLAMPARK
schedule of Formuła FLAMPARK), stored with bulk inserts. The start numbers a Swiss
tournament's settings name (forbidden pairs, announced byes) must exist then (422).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.lifecycle import move, require_open
from service.app.offload import run_cpu
from service.app.swiss_settings import check_numbers
from service.app.systems import initial_rounds
from service.db.event_types import TournamentStarted
from service.db.events import append_event, lock_tournament
from service.db.loading import Schedule
from service.db.player_reads import list_players
from service.db.rating_facts import title_of
from service.db.repository import number_players, store_rounds
from service.db.tables import PlayerRow, TournamentRow
from service.db.team_reads import is_team_event, list_teams, team_options
from service.db.tokens import hash_token, new_token
from service.engine.lifecycle import Entrant, LifecycleEvent, start_order
from service.errors import InvalidInput

__all__ = ["Started", "close_start_list", "start"]


@dataclass(frozen=True, slots=True)
class Started:
    """The numbered players with their new tokens, the organizer's warnings, and the
    rounds paired in advance as stored (None for systems paired round by round)."""

    issued: list[tuple[PlayerRow, str]]
    warnings: list[str]
    schedule: Schedule | None = None


async def close_start_list(
    session: AsyncSession, tournament: TournamentRow
) -> list[tuple[PlayerRow, str]]:
    """Lock, number the players in start order and issue their tokens, and move the
    tournament to running; at least 2 players (422 naming `players`)."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    require_open(tournament)
    players = await list_players(session, tournament.id)
    if is_team_event(tournament):
        order = await _team_order(session, tournament, players)
    elif len(players) < 2:
        raise InvalidInput(
            f"a tournament needs at least 2 players, it has {len(players)}", field="players"
        )
    else:
        order = start_order(
            [Entrant(p.rating, p.name, p.id or 0, title_of(p.extra)) for p in players]
        )
    issued = [(players[index], new_token("ply")) for index in order]
    move(tournament, LifecycleEvent.START)
    session.add(tournament)
    await number_players(  # flushes the tournament's new status with the numbers
        session,
        [(player, number, hash_token(token)) for number, (player, token) in enumerate(issued, 1)],
    )
    return issued


async def _team_order(
    session: AsyncSession, tournament: TournamentRow, players: list[PlayerRow]
) -> list[int]:
    """A team tournament numbers its players team by team, each team in board order
    (the TRF-26 310 records' order); it needs at least 2 teams (422 naming `teams`). A
    team round-robin's rounds follow from the teams (C.05 Annex 1: n - 1, or n when n is
    odd; twice that when `double`)."""
    teams = await list_teams(session, tournament.id)
    if len(teams) < 2:
        raise InvalidInput(
            f"a team tournament needs at least 2 teams, it has {len(teams)}", field="teams"
        )
    if tournament.system == "team-round-robin":
        cycle = len(teams) - 1 if len(teams) % 2 == 0 else len(teams)
        tournament.total_rounds = cycle * (2 if team_options(tournament).double else 1)
    index = {p.number: i for i, p in enumerate(players)}
    return [index[number] for team in teams for number in team.players]


async def start(session: AsyncSession, tournament: TournamentRow) -> Started:
    """The workflow: lock and number (engine's start order), schedule (engine), store
    rows + event."""
    issued = await close_start_list(session, tournament)
    count = len(issued)
    swiss = tournament.settings.get("swiss")
    if swiss:  # the start numbers the Swiss settings name exist now (422, nothing stored)
        check_numbers(swiss, range(1, count + 1))
    rounds, warnings = await run_cpu(initial_rounds, tournament, count)
    schedule = await store_rounds(session, tournament, rounds) if rounds else None
    if rounds:
        tournament.total_rounds = len(rounds)
        tournament.current_round = 1
        session.add(tournament)
    await append_event(session, tournament.id, TournamentStarted(count, tournament.total_rounds))
    return Started(issued, warnings, schedule)
