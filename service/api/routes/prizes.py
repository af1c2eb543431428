"""Prizes from the current standings (docs/rules/prizes.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from service.api.access import shows_personal_data
from service.api.deps import ReaderDep, SessionDep, StateDep, TournamentDep
from service.api.schemas.prizes import PrizesPublic
from service.views.prizes import prizes_document

router = APIRouter(prefix="/v1/tournaments/{tournament_id}/prizes", tags=["standings"])


@router.get("", response_model=PrizesPublic)
async def read_prizes(
    tournament: TournamentDep, session: SessionDep, state: StateDep, reader: ReaderDep
) -> dict[str, Any]:
    """The tournament's `prizes` setting applied to the standings now: each award with
    its list, places, player and amount (rounded down to the cent, and exact). Players
    left out of a category because their sex or birth year is not recorded are listed
    under `missing` for readers who may see personal data (null for others). No prizes
    set: no awards."""
    personal = shows_personal_data(tournament, reader)
    return await prizes_document(state.views, session, tournament, personal=personal)
