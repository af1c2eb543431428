"""Absent teams (docs/teams.md#absent-teams): a team announced as not playing a coming
round of a team Swiss is left out of that round's pairing and scores nothing there,
like an individual player's announced zero-point bye (FIDE C.04.A; TRF-26 240), unless
the organizer gives it match and game points (`teams.awarded`, TRF-26 299). The round
stores the team as `free` (no opponent), which a team file writes as a team with no
match in the round.

A team round-robin takes no absence: its Berger schedule (FIDE C.05 Annex 1) pairs
every team, and a team that does not play loses its match by forfeit.
"""

from __future__ import annotations

from fractions import Fraction

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.actor import Actor
from service.app.team_awards import check_award
from service.app.teams import require_team_event, team_for_coming_round
from service.db.event_types import TeamAbsence
from service.db.events import append_event, lock_tournament
from service.db.tables import TournamentRow
from service.db.team_awards import award_entry
from service.db.team_reads import team_options
from service.db.team_tables import TeamRow
from service.engine.teams.model import TeamSystem
from service.engine.teams.systems import team_spec_of
from service.errors import Conflict, Forbidden

__all__ = ["announce_absence"]


async def announce_absence(
    session: AsyncSession,
    tournament: TournamentRow,
    round_number: int,
    team_number: int,
    kind: str | None,
    actor: Actor,
    points: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0)),
) -> TeamRow:
    """The workflow: lock, check who announces it (the team's captain or the organizer;
    only the organizer gives points), the system (a team Swiss), that the round is still
    to be paired; store the absence with its (match, game) `points` (`kind` None takes
    it back) and its event."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    require_team_event(tournament)
    if actor.kind == "player" or (actor.kind == "captain" and actor.team != team_number):
        raise Forbidden(
            f"only team {team_number}'s captain or the organizer announces its absence",
            field="Authorization",
        )
    if actor.kind != "organizer" and any(points):
        raise Forbidden(
            "only the organizer gives an absent team points; a captain announces a "
            "zero-point absence",
            field="match_points" if points[0] else "game_points",
        )
    spec = team_spec_of(tournament.system)
    if spec is None or spec.reading is not TeamSystem.SWISS:
        raise Conflict(
            "a team round-robin pairs every team in every round (FIDE C.05 Annex 1): a "
            "team that does not play loses its match by forfeit (PUT .../forfeit)",
            field="system",
        )
    team = await team_for_coming_round(session, tournament, team_number, round_number, "teams")
    check_award(team_options(tournament), points)
    absences = {k: v for k, v in (team.absences or {}).items() if k != str(round_number)}
    awarded = {k: v for k, v in (team.awarded or {}).items() if k != str(round_number)}
    if kind is not None:
        absences[str(round_number)] = kind
        if any(points):
            awarded[str(round_number)] = award_entry(*points)
    given = (float(points[0]), float(points[1])) if kind is not None else (0.0, 0.0)
    team.absences = absences or None
    team.awarded = awarded or None
    session.add(team)
    await append_event(session, tournament.id, TeamAbsence(round_number, team_number, kind, *given))
    return team
