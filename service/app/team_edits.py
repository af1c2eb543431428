"""Change a registered team (docs/teams.md#team-edits): rename it, reorder its list,
take players off it, add reserves at the end of it.

Readings (FIDE C.04.6 leaves a team's list to the competition's regulations; C.07
Art. 11 and the common league rules fix the board order once it is played from):

* Until the team is first paired its list is free: a new board order, players taken
  off (while the start list is open; once it is closed a player withdraws instead, as
  in an individual tournament), reserves added.
* Once the team has been paired (a match, a bye) its board order is fixed: only new
  reserves at the end of the list, and a new name. A player who has played for the
  team stays on its list, and nobody plays for two teams: a reserve whose FIDE id is
  already in the tournament is refused.
* A reserve added after the start gets the next start number and a player token at
  once, like an individual late entry (FIDE C.04.A).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.team_players import add_players
from service.app.teams import check_lineup, require_team_event
from service.db.event_types import PlayerRemoved, TeamUpdated
from service.db.events import append_event, lock_tournament
from service.db.player_reads import list_players
from service.db.tables import PlayerRow, TournamentRow
from service.db.team_reads import find_team, match_rows, team_options
from service.db.team_tables import TeamRow
from service.engine.lifecycle import TournamentStatus
from service.errors import Conflict, InvalidInput, NotFound

__all__ = ["TeamEdited", "edit_team", "team_paired"]


@dataclass(frozen=True, slots=True)
class TeamEdited:
    """The team after the change, and the reserves added (with their tokens when the
    start list was already closed)."""

    team: TeamRow
    added: list[tuple[PlayerRow, str | None]]


async def team_paired(session: AsyncSession, tournament_id: str, team: int) -> bool:
    """Whether the team has been paired in a round (a match, a bye or left free)."""
    return any(team in (m.home, m.away) for m in await match_rows(session, tournament_id))


def _new_order(team: TeamRow, order: Sequence[int], paired: bool) -> list[int]:
    """Check a new board order of the team's own players (422 naming `players.<i>` for
    a stranger or a player named twice; 409 naming `players` once the team has been
    paired and the order differs)."""
    own = set(team.players)
    seen: set[int] = set()
    for index, number in enumerate(order):
        if number not in own:
            raise InvalidInput(
                f"player {number} is not a player of team {team.number}",
                field=f"players.{index}",
            )
        if number in seen:
            raise InvalidInput(f"player {number} is named twice", field=f"players.{index}")
        seen.add(number)
    if paired and list(order) != list(team.players):
        raise Conflict(
            f"team {team.number} has been paired: its board order is fixed (C.07 Art. 11) "
            "and a player who has played stays on its list; only reserves at the end and "
            "a new name may be added",
            field="players",
        )
    return list(order)


async def edit_team(
    session: AsyncSession,
    tournament: TournamentRow,
    number: int,
    *,
    name: str | None,
    players: Sequence[int] | None,
    reserves: Sequence[dict[str, Any]],
    limit: int,
) -> TeamEdited:
    """The workflow: lock, check (a team tournament not finished, the team, the new
    order, enough players for the boards and at most `limit` in all), store and append
    `team_updated` (after the reserves' `player_added` and the removed players'
    `player_removed`)."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    require_team_event(tournament)
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict("the tournament is finished: its teams no longer change", field="status")
    team = await find_team(session, tournament.id, number)
    if team is None:
        raise NotFound(f"the tournament has no team {number}", field="team")
    paired = await team_paired(session, tournament.id, number)
    order = list(team.players) if players is None else _new_order(team, players, paired)
    removed = [n for n in team.players if n not in order]
    if removed and tournament.status != TournamentStatus.REGISTRATION:
        raise Conflict(
            f"the start list is closed: player {removed[0]} withdraws instead of leaving "
            'the list (PATCH /players/{id} with {"withdrawn": true})',
            field="players",
        )
    boards = team_options(tournament).boards
    if len(order) + len(reserves) < boards:
        raise InvalidInput(
            f"a team plays {boards} boards: it needs at least {boards} players, "
            f"{len(order) + len(reserves)} given",
            field="players",
        )
    if len(order) + len(reserves) > limit:
        raise InvalidInput(
            f"a team lists at most {limit} players: {len(order)} with "
            f"{len(reserves)} reserves added would be {len(order) + len(reserves)}",
            field="reserves",
        )
    for gone in removed:
        row = next(p for p in await list_players(session, tournament.id) if p.number == gone)
        await session.delete(row)
        await append_event(session, tournament.id, PlayerRemoved(gone))
    added = await add_players(session, tournament, reserves, "reserves")
    before = list(team.players)
    team.players = [*order, *(row.number for row, _ in added)]
    if name is not None:
        team.name = name
    if order != before:
        team.lineups = _lineups_kept(team, boards)
    session.add(team)
    await append_event(
        session, tournament.id, TeamUpdated(team.number, team.name, list(team.players))
    )
    return TeamEdited(team, added)


def _lineups_kept(team: TeamRow, boards: int) -> dict[str, Any]:
    """The team's lineups that still hold on its new list (a lineup naming a player
    taken off it, or out of the new board order, is dropped: the team fields the first
    players of its list in that round unless its captain names others again)."""
    kept: dict[str, Any] = {}
    for round_number, chosen in team.lineups.items():
        try:
            check_lineup(team, chosen, boards)
        except InvalidInput:
            continue
        kept[round_number] = chosen
    return kept
