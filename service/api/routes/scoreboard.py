"""The venue's wall screen: a static page that follows the live feed."""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from service.api.deps import PageTournamentDep

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["scoreboard"])

_PAGE = files("service.web").joinpath("scoreboard.html")


@router.get(
    "/scoreboard",
    response_class=HTMLResponse,
    responses={200: {"content": {"text/html": {}}, "description": "Live scoreboard page"}},
)
async def scoreboard(tournament: PageTournamentDep) -> HTMLResponse:
    """A full-screen live table for a wall screen (FLAMPARK: PF, Ru, games, PP). A
    private tournament's page needs `?token=` (the viewer token), which the page passes
    on to the live channel."""
    del tournament  # the page reads everything from the live feed
    return HTMLResponse(_PAGE.read_text(encoding="utf-8"))
