"""A player's result page for a phone, `GET /v1/tournaments/{id}/me?token=...`
(docs/phone.md), opened from the QR code on the player's printed card.

The token comes in the address because a scanned code cannot send a header; the page
is never cached (`Cache-Control: no-store`), sends no referrer, and the logs keep the
address with the token replaced by `***` (`api.access.TokenRedaction`). A token that
is no player's answers the status the API would (401 unknown or expired, 403 not a
player's, 410 archived): as a page a person can read when the request accepts
`text/html` (a browser), else as the usual problem+json.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Header
from fastapi.responses import HTMLResponse

from service.api.access import TokenHolder, authorize_read, is_bridge
from service.api.deps import PageToken, SessionDep
from service.api.documents import round_public
from service.api.ids import TournamentId
from service.api.me_page import MyGame, error_html, me_html
from service.api.security import NO_STORE
from service.db.cards import numbered_players
from service.db.game_reads import last_paired_round, round_rows
from service.db.tables import TournamentRow
from service.db.team_reads import is_team_event
from service.db.tournament_reads import get_tournament
from service.errors import Forbidden, Problem, Unauthenticated

__all__ = ["router"]

router = APIRouter(tags=["phone"])

_HEADERS = {"Cache-Control": NO_STORE, "Referrer-Policy": "no-referrer"}
_DOC: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/html": {}}, "description": "The player's result page"},
    401: {"content": {"text/html": {}}, "description": "No token, or unknown or expired"},
    403: {"content": {"text/html": {}}, "description": "Not a player's token"},
    410: {"content": {"text/html": {}}, "description": "The tournament is archived"},
}


@router.get(
    "/v1/tournaments/{tournament_id}/me",
    response_class=HTMLResponse,
    responses=_DOC,
    name="my_page",
)
async def my_page(
    tournament_id: TournamentId,
    session: SessionDep,
    token: PageToken = None,
    accept: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> HTMLResponse:
    """The player's game of the current round (table, colour, opponent), where its
    result stands (both players' reports, a dispute), and buttons that report a result
    with the token (`PUT .../result`, the same confirmation by both players); made
    for a phone 360 pixels wide. The token is the player's, as `?token=`. A refusal
    is an HTML page for a browser (`Accept: text/html`), problem+json otherwise."""
    try:
        row = await get_tournament(session, tournament_id)
        player = await _player(session, row, token)
        page = await _my_game(session, row, player)
    except Problem as problem:
        if "text/html" not in (accept or ""):
            raise  # a program asked: problem+json, as every route answers it
        return HTMLResponse(error_html(problem), status_code=problem.status, headers=_HEADERS)
    return HTMLResponse(me_html(page, "../../web"), headers=_HEADERS)


async def _player(session: SessionDep, row: TournamentRow, token: str | None) -> TokenHolder:
    """The player holding `token`: 401 without one (or unknown, or expired), 410 once
    archived, 403 for any other role's token or an event whose players do not report."""
    if not token:
        raise Unauthenticated(
            "this page needs the token of your card: scan its QR code", field="token"
        )
    holder = await authorize_read(session, row, token)
    if is_bridge(row) or is_team_event(row):
        raise Forbidden(
            "results of this event are reported by its tables or captains", field="token"
        )
    if holder is None or holder.role != "player" or holder.start_number is None:
        raise Forbidden("this is not a player's token", field="token")
    return holder


async def _my_game(session: SessionDep, row: TournamentRow, player: TokenHolder) -> MyGame:
    """The player's game (or bye) of the current round: the first with a game not
    confirmed (a round-robin pairs every round at the start), else the last paired."""
    number = player.start_number
    assert number is not None
    names = {p.start_number: p for p in await numbered_players(session, row.id)}
    me = names[number]
    round_number = min(row.current_round or 1, await last_paired_round(session, row.id))
    page = MyGame(row.name, number, me.name, round_number, player.withdrawn)
    if round_number == 0:
        return page
    games, byes = await round_rows(session, row.id, round_number)
    document = round_public(round_number, games, byes)
    for game in document.games:
        if number in (game.white, game.black):
            colour = "white" if game.white == number else "black"
            other = names[game.black if colour == "white" else game.white]
            rating = "unrated" if not other.rating else str(other.rating)
            opponent = f"{other.start_number}. {other.name} ({rating})"
            return replace(page, game=game, colour=colour, opponent=opponent)
    bye = next((b.type for b in document.byes if b.player == number), None)
    return replace(page, bye=None if bye is None else f"bye ({bye})")
