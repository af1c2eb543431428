"""Standings."""

from __future__ import annotations

from fastapi import APIRouter

from service.api.deps import SessionDep, TournamentDep
from service.api.schemas.standings import StandingsPublic
from service.api.views import standings_public

router = APIRouter(prefix="/v1/tournaments/{tournament_id}/standings", tags=["standings"])


@router.get("", response_model=StandingsPublic)
async def read_standings(tournament: TournamentDep, session: SessionDep) -> StandingsPublic:
    """Points and tie-breaks from confirmed results; ranks shared where every criterion
    ties."""
    return await standings_public(session, tournament)
