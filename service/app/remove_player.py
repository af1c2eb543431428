"""Remove a player while the start list is open (docs/api.md#players). Their number is
never given again (`db.player_reads.next_player_number` counts the registrations
removed). Once the list is closed a player withdraws instead (`withdraw`). A team
tournament's player leaves their team's list too, as long as the team keeps a player
per board (docs/teams.md).
"""

from __future__ import annotations

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.lifecycle import require_open
from service.db.event_types import PlayerRemoved
from service.db.events import append_event, lock_tournament
from service.db.player_reads import get_player
from service.db.tables import TournamentRow
from service.db.team_reads import is_team_event, list_teams, team_options
from service.errors import Conflict

__all__ = ["remove_player"]


async def remove_player(session: AsyncSession, tournament: TournamentRow, number: int) -> None:
    """The workflow: lock, check the list is open, delete the row, append the event."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    require_open(tournament)
    player = await get_player(session, tournament.id, number)
    if is_team_event(tournament):
        await _leave_team(session, tournament, number)
    await session.delete(player)
    await append_event(session, tournament.id, PlayerRemoved(number))


async def _leave_team(session: AsyncSession, tournament: TournamentRow, number: int) -> None:
    """Take player `number` off their team's list (409 naming `players` when the team
    would have fewer players than boards)."""
    boards = team_options(tournament).boards
    for team in await list_teams(session, tournament.id):
        if number in team.players:
            if len(team.players) <= boards:
                raise Conflict(
                    f"team {team.number} needs a player per board: with player {number} "
                    f"removed it would have {len(team.players) - 1} for {boards} boards",
                    field="players",
                )
            team.players = [n for n in team.players if n != number]
            session.add(team)
