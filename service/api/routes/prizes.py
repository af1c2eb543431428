"""Prizes from the current standings (docs/rules/prizes.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from service.api.access import shows_personal_data
from service.api.deps import PageTournamentDep, ReaderDep, SessionDep, StateDep, TournamentDep
from service.api.prize_page import prizes_html
from service.api.schemas.prizes import PrizesPublic
from service.app.offload import run_cpu
from service.db.tables import TournamentStatus
from service.db.tournament_config import config_of
from service.views.prizes import prizes_document

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["standings"])


@router.get("/prizes", response_model=PrizesPublic)
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


@router.get(
    "/prizes.html",
    response_class=HTMLResponse,
    responses={200: {"content": {"text/html": {}}, "description": "Printable prize list"}},
)
async def prizes_page(
    tournament: PageTournamentDep, session: SessionDep, state: StateDep
) -> HTMLResponse:
    """The prize list as a printable page (A4): one table per list with place, start
    number, player, amount (exact share beside a rounded one) and who shares the places.
    The players left out for a fact not recorded are listed only when the tournament
    publishes personal data (`GET /prizes` lists them for the organizer). A private
    tournament's page takes its token as `?token=`."""
    personal = config_of(tournament).publish_personal_data
    document = await prizes_document(state.views, session, tournament, personal=personal)
    finished = tournament.status == TournamentStatus.FINISHED
    html = await run_cpu(prizes_html, tournament.name, document, finished)
    return HTMLResponse(html)
