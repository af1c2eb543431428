"""Teams of a team tournament (docs/teams.md): register a team with its players, and set
the lineup a team fields in a coming round.

A team's players are ordinary players (identifiers, tokens at the start, cards); the
team keeps them in board order, reserves last (C.07 Art. 11: a team fields its players
in the order of its list). The captain's token is random, shown once and stored as a
digest like every token (docs/security.md#tokens).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.actor import Actor
from service.app.lifecycle import require_open
from service.app.team_awards import check_award
from service.app.team_players import add_players
from service.db.event_types import LineupSet, TeamAdded
from service.db.events import append_event, lock_tournament
from service.db.game_reads import last_paired_round
from service.db.player_reads import list_players
from service.db.tables import PlayerRow, TournamentRow
from service.db.team_awards import award_entry
from service.db.team_reads import find_team, is_team_event, list_teams, team_options
from service.db.team_tables import TeamRow
from service.db.tokens import hash_token, new_token
from service.engine.lifecycle import TournamentStatus
from service.engine.rounds import rounds_left
from service.engine.teams.systems import team_spec_of
from service.errors import Conflict, Forbidden, InvalidInput, NotFound

__all__ = [
    "TeamRegistered",
    "check_lineup",
    "lineup_of",
    "register_team",
    "set_lineup",
    "team_for_coming_round",
    "withdrawn_ids",
]


@dataclass(frozen=True, slots=True)
class TeamRegistered:
    """A new team, its players (board order) and the captain's token (shown once)."""

    team: TeamRow
    players: list[tuple[PlayerRow, str | None]]
    """With each player's token when the team entered late (None before the start)."""
    captain_token: str


async def withdrawn_ids(session: AsyncSession, tournament: TournamentRow) -> set[int]:
    """The ids of the players who have withdrawn (they are fielded no more)."""
    players = await list_players(session, tournament.id)
    return {p.number for p in players if p.extra.get("withdrawn")}


def require_team_event(tournament: TournamentRow) -> None:
    """Refuse (409 naming `system`) a team operation on an individual tournament."""
    if not is_team_event(tournament):
        raise Conflict(
            f"a {tournament.system} tournament has no teams; create one with system "
            "team-swiss or team-round-robin",
            field="system",
        )


async def register_team(
    session: AsyncSession,
    tournament: TournamentRow,
    name: str,
    players: Sequence[dict[str, Any]],
    missed: tuple[Fraction, Fraction] | None = None,
) -> TeamRegistered:
    """Lock, check (a team tournament with its start list open, or a team Swiss with a
    round left to pair: a late entry; at least as many players as boards), store the
    players and the team, and their events. A late team takes the next team number,
    its players the next start numbers and their tokens at once; it has no match in the
    rounds already paired (zero match and game points there, or the (match, game)
    points `missed` the organizer states for each) and is paired from the next one
    (FIDE C.04.A, docs/teams.md#late-entries)."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    require_team_event(tournament)
    paired = 0
    if tournament.status == TournamentStatus.RUNNING:
        await _require_late_entry(session, tournament)
        paired = await last_paired_round(session, tournament.id)
    else:
        require_open(tournament)
    if missed is not None and not paired:
        raise InvalidInput(
            "only a late team has missed rounds: no round is paired yet",
            field="missed_rounds",
        )
    if missed is not None:
        check_award(team_options(tournament), missed, "missed_rounds.")
    awarded = (
        {str(r): award_entry(*missed) for r in range(1, paired + 1)}
        if missed is not None and any(missed)
        else None
    )
    boards = team_options(tournament).boards
    if len(players) < boards:
        raise InvalidInput(
            f"a team plays {boards} boards: it needs at least {boards} players, "
            f"{len(players)} given",
            field="players",
        )
    teams = await list_teams(session, tournament.id)
    rows = await add_players(session, tournament, players, "players")
    token = new_token("cpt")
    team = TeamRow(
        tournament_id=tournament.id,
        number=max((t.number for t in teams), default=0) + 1,
        name=name,
        players=[p.number for p, _ in rows],
        lineups={},
        awarded=awarded,
        captain_token_hash=hash_token(token),
    )
    session.add(team)
    await session.flush()
    await append_event(session, tournament.id, TeamAdded(team.number, name, list(team.players)))
    return TeamRegistered(team, rows, token)


async def _require_late_entry(session: AsyncSession, tournament: TournamentRow) -> None:
    """A running team tournament takes a team only in a system with late entries (the
    team Swiss) and while a round is left to pair; 409 naming `status` otherwise."""
    spec = team_spec_of(tournament.system)
    if spec is None or not spec.late_entries:
        raise Conflict(
            "the start list is closed: a team round-robin takes no late entry, its "
            "schedule is fixed by the teams at the start (FIDE C.05 Annex 1)",
            field="status",
        )
    paired = await last_paired_round(session, tournament.id)
    if rounds_left(paired, tournament.total_rounds) == 0:
        raise Conflict(
            f"registration is closed: all {tournament.total_rounds} rounds are paired, "
            "so a late team would play none (FIDE C.04.A: a late entry joins the rounds "
            "not yet paired)",
            field="status",
        )


def lineup_of(
    team: TeamRow, round_number: int, boards: int, withdrawn: Collection[int] = ()
) -> list[int]:
    """The players (ids) a team fields in a round: the captain's lineup, else the
    first `boards` players of its list who have not withdrawn (a reserve moves up)."""
    chosen = team.lineups.get(str(round_number))
    if chosen is not None:
        return list(chosen)
    return [n for n in team.players if n not in withdrawn][:boards]


def check_lineup(
    team: TeamRow, players: Sequence[int], boards: int, withdrawn: Collection[int] = ()
) -> None:
    """A lineup names 1 to `boards` different players of the team who have not
    withdrawn, in the order of the team's list (C.07 Art. 11 / C.04.6: no player above
    a teammate ranked higher on the list); 422 naming `players` (or `players.<i>`)
    otherwise. A lineup short of `boards` players seats them on the first boards and
    leaves the last ones empty, each lost by default (docs/teams.md#lineups)."""
    if not 1 <= len(players) <= boards:
        raise InvalidInput(
            f"a lineup names one player per board, board 1 first: 1 to {boards} players "
            f"(the boards after the last one named are left empty), {len(players)} given",
            field="players",
        )
    order = {number: index for index, number in enumerate(team.players)}
    seen: set[int] = set()
    for index, number in enumerate(players):
        if number not in order:
            raise InvalidInput(
                f"player {number} is not a player of team {team.number}",
                field=f"players.{index}",
            )
        if number in seen:
            raise InvalidInput(f"player {number} is named twice", field=f"players.{index}")
        if number in withdrawn:
            raise InvalidInput(f"player {number} has withdrawn", field=f"players.{index}")
        seen.add(number)
        if index and order[number] < order[players[index - 1]]:
            raise InvalidInput(
                f"player {number} is above player {players[index - 1]} on the team's list, "
                "so may not play on a lower board (board order is the list's order)",
                field=f"players.{index}",
            )


async def set_lineup(
    session: AsyncSession,
    tournament: TournamentRow,
    round_number: int,
    team_number: int,
    players: Sequence[int],
    actor: Actor,
) -> TeamRow:
    """The workflow: lock, check who sets it (the team's captain or the organizer),
    that the round is still to be paired, and the lineup; store it and its event."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    require_team_event(tournament)
    if actor.kind == "player" or (actor.kind == "captain" and actor.team != team_number):
        raise Forbidden(
            f"only team {team_number}'s captain or the organizer sets its lineup",
            field="Authorization",
        )
    team = await team_for_coming_round(session, tournament, team_number, round_number, "lineups")
    check_lineup(
        team, players, team_options(tournament).boards, await withdrawn_ids(session, tournament)
    )
    team.lineups = {**team.lineups, str(round_number): list(players)}
    session.add(team)
    await append_event(session, tournament.id, LineupSet(round_number, team_number, list(players)))
    return team


async def team_for_coming_round(
    session: AsyncSession,
    tournament: TournamentRow,
    team_number: int,
    round_number: int,
    fixed: str,
) -> TeamRow:
    """Team `team_number`, for a decision about round `round_number` that must still be
    to pair (404 naming `team` for no such team; 409 when the tournament is finished or
    the round is paired, its `fixed` then fixed; 422 past the last round)."""
    team = await find_team(session, tournament.id, team_number)
    if team is None:
        raise NotFound(f"the tournament has no team {team_number}", field="team")
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict("the tournament is finished", field="status")
    paired = await last_paired_round(session, tournament.id)
    if round_number <= paired:
        raise Conflict(
            f"round {round_number} is already paired: its {fixed} are fixed", field="round"
        )
    total = tournament.total_rounds
    if total is not None and round_number > total:
        raise InvalidInput(f"the tournament has {total} rounds", field="round_number")
    return team
