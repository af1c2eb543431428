"""The venue's wall screens: static pages that follow the live feed (docs/scoreboard.md).

`/v1/tournaments/{id}/scoreboard` shows a chess tournament (registered players before
the start; then the standings and the current round's pairings and results) and
`/v1/bridge/events/{id}/scoreboard` a bridge event (ranking and the current round's
tables). Both are one HTML page whose script reads the REST resources once and then the
live feed; the scripts and the style sheet are served from `/v1/web/{file}`. Nothing
user-supplied is ever written into the HTML: the script builds the page with DOM text
nodes, so names cannot inject markup.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib.resources import files
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Header, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from service.api.access import authorize_read
from service.api.deps import Credentials, PageToken, SessionDep
from service.api.ids import EventId, TournamentId
from service.api.security import PAGE_POLICY
from service.db.tables import TournamentKind
from service.db.tournament_reads import get_tournament
from service.errors import NotFound

__all__ = ["CONTENT_SECURITY_POLICY", "router"]

router = APIRouter(tags=["scoreboard"])

CONTENT_SECURITY_POLICY = PAGE_POLICY
"""The policy every HTML page of the service is served with: no inline script runs."""

_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


@dataclass(frozen=True, slots=True)
class _Asset:
    """One static file, read once, with its validator."""

    body: bytes
    media_type: str
    etag: str


def _load_assets() -> dict[str, _Asset]:
    assets: dict[str, _Asset] = {}
    for entry in files("service.web").iterdir():
        suffix = entry.name[entry.name.rfind(".") :]
        if entry.is_file() and suffix in _TYPES:
            body = entry.read_bytes()
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            assets[entry.name] = _Asset(body, _TYPES[suffix], etag)
    return assets


_ASSETS = _load_assets()
_PAGE = files("service.web").joinpath("scoreboard.html").read_text(encoding="utf-8")
_PAGE_DOC: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/html": {}}, "description": "Live scoreboard page"}
}


def _page(assets: str) -> HTMLResponse:
    """The page, its scripts addressed relative to it (so a path prefix added by a
    proxy in front of the service keeps working)."""
    return HTMLResponse(
        _PAGE.replace("{assets}", assets),
        headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY, "Cache-Control": "no-cache"},
    )


@router.get(
    "/v1/tournaments/{tournament_id}/scoreboard", response_class=HTMLResponse, responses=_PAGE_DOC
)
async def scoreboard(
    tournament_id: TournamentId,
    session: SessionDep,
    request: Request,
    credentials: Credentials,
    token: PageToken = None,
) -> Response:
    """A full-screen live page for a wall screen: registered players before the start;
    then the standings (FLAMPARK: PF, Ru, games, PP) beside the current round's pairings
    and results, long tables paged. A bridge event's id redirects to its own page. A
    private tournament's page needs `?token=` (its viewer token), which the page passes
    on to the live channel."""
    row = await get_tournament(session, tournament_id)
    await authorize_read(session, row, credentials.credentials if credentials else token)
    if row.kind == TournamentKind.BRIDGE:
        query = f"?{request.url.query}" if request.url.query else ""
        target = f"../../bridge/events/{quote(row.id, safe='')}/scoreboard{query}"
        return RedirectResponse(target, status_code=307)
    return _page("../../web")


@router.get(
    "/v1/bridge/events/{event_id}/scoreboard", response_class=HTMLResponse, responses=_PAGE_DOC
)
async def bridge_scoreboard(
    event_id: EventId,
    session: SessionDep,
    credentials: Credentials,
    token: PageToken = None,
) -> Response:
    """A bridge event's wall screen: the live ranking beside the current round's tables
    (pairs) or matches (teams) and how many of their results are in (`?token=` for a
    private event)."""
    row = await get_tournament(session, event_id)
    await authorize_read(session, row, credentials.credentials if credentials else token)
    if row.kind != TournamentKind.BRIDGE:
        raise NotFound(f"{event_id!r} is not a bridge event", field="event_id")
    return _page("../../../web")


@router.get("/v1/web/{name}", include_in_schema=False)
async def asset(name: str, if_none_match: Annotated[str | None, Header()] = None) -> Response:
    """The scoreboard's scripts and style sheet (revalidated by ETag)."""
    found = _ASSETS.get(name)
    if found is None:
        raise NotFound(f"no file {name!r}", field="name")
    headers = {"ETag": found.etag, "Cache-Control": "no-cache"}
    if if_none_match is not None and found.etag in if_none_match:
        return Response(status_code=304, headers=headers)
    return Response(found.body, media_type=found.media_type, headers=headers)
