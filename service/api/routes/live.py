"""The live feed: `GET /v1/tournaments/{id}/live` upgraded to WebSocket (docs/live.md).

On connect a `snapshot`; with `?since=<seq>` instead the frames after `seq` when this
process still holds them (else a snapshot covering them, also when `seq` is above the
tournament's). Then one `event` message per event, in seq order; a client a few frames
behind gets them together in a `batch`; a client too far behind gets a fresh `snapshot`.
A `ping` every `live_heartbeat_seconds` of silence. The messages are described in
`service.live.frames`; `?delta=compact` asks for table deltas that give every row's rank
as one list (`ranks`) instead of a patch per row whose rank moved. The bridge feed
(`/v1/bridge/events/{id}/live`) is this handler.

A private tournament's feed needs one of its tokens as `?token=` (browsers cannot send
headers on a WebSocket): checked once at connect against the tournament's row, which
the spectators without a token who arrive together read once (`api.connect_reads`).
Frames are encoded once for every reader, so player events carry no personal data
unless the organizer published it (docs/security.md#privacy).

An open socket is checked again when the tournament's access changes (a token rotated
or revoked, the tournament made private or archived: `api.live_access`), on every
replica, and closed as a new connection with its credential would be refused.

A `?token=` refused counts toward the client address's failed authentications, as a
401 on HTTP does (`api.ratelimit`); once they are used up, a connection with a token is
refused with 4429.

Close codes: 4400 bad `since` or `delta` (after an `error` message naming the field),
4401 a private tournament without a valid token, or a token that no longer admits,
4404 no such tournament, 4410 archived, 4429 too many failed authentications from the
client's address, 1011 the feed cannot read the tournament (database outage), 1012
server restarting; the reasons of 1011 and 1012 say the `?since=` to resume from. A
close reason is cut to fit a close frame (`wire.close_reason`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import SQLAlchemyError

from service.api.access import authorize_read, check_readable
from service.api.ids import is_id
from service.api.observability import metrics_of
from service.api.ratelimit import FAILED_AUTHENTICATION
from service.api.state import AppState
from service.db.bridge_reads import BRIDGE_SYSTEMS
from service.db.tables import TournamentRow
from service.db.tokens import hash_token
from service.errors import Gone, Unauthenticated
from service.futures import mark_retrieved
from service.live.frames import DELTA_FORMS, error_message
from service.live.hub import GONE, OUTAGE, LiveUnavailable, TournamentGone
from service.live.loop import demote
from service.live.wire import SERVER_SEND, close_reason, direct_socket

__all__ = [
    "ABOVE_ANY_SEQ",
    "ARCHIVED",
    "BAD_REQUEST",
    "SEQ_DIGITS",
    "UNAUTHENTICATED",
    "Accepts",
    "is_bridge",
    "parse_delta",
    "parse_since",
    "router",
    "serve_live",
]

router = APIRouter(tags=["live"])

BAD_REQUEST = 4400
"""Close code for a malformed query (`since`, `delta`)."""
UNAUTHENTICATED = 4401
"""Close code for a private tournament without a valid `?token=`, and for an open socket
whose token or anonymity no longer admits it."""
ARCHIVED = 4410
"""Close code for a tournament its organizer archived (an open socket's too)."""
SEQ_DIGITS = 19
"""A seq is a 64-bit signed integer: 19 digits at most."""
ABOVE_ANY_SEQ = 10**SEQ_DIGITS
"""What a `since` of more digits than a seq can have is taken as."""

Accepts = Callable[[str], bool]
"""Whether a feed serves a tournament of this system (bridge events have their own)."""


def parse_since(text: str | None) -> int | None:
    """`since` as a seq: None when absent; ValueError unless a non-negative integer. A
    number of any length is one (leading zeros aside, more digits than a seq has is
    above the tournament's seq: `ABOVE_ANY_SEQ`, which gets the snapshot)."""
    if text is None:
        return None
    if not text.isascii() or not text.isdigit():
        raise ValueError(text)
    digits = text.lstrip("0") or "0"
    return ABOVE_ANY_SEQ if len(digits) > SEQ_DIGITS else int(digits)


def parse_delta(text: str | None) -> bool:
    """Whether `delta` asks for the compact form; ValueError unless absent or one of
    `DELTA_FORMS`."""
    if text is None:
        return False
    if text not in DELTA_FORMS:
        raise ValueError(text)
    return text == "compact"


async def _refuse(websocket: WebSocket, code: int, status: int, detail: str, field: str) -> None:
    """An `error` message, then the close with `code` and the detail as its reason."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_text(error_message(status, detail, field))
        await websocket.close(code, close_reason(detail))


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) client messages until the client goes away."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


def is_bridge(system: str) -> bool:
    """The bridge feed serves bridge events only."""
    return system in BRIDGE_SYSTEMS.values()


def _any(_system: str) -> bool:
    return True  # the tournaments' feed follows bridge events too (one event log)


async def serve_live(
    websocket: WebSocket,
    tournament_id: str,
    since_text: str | None,
    accepts: Accepts,
    delta_text: str | None = None,
) -> None:
    """Run the feed of one tournament or bridge event until the client leaves."""
    state: AppState = websocket.app.state.arbiter
    assert state.hub is not None, "the lifespan starts the hub"
    await websocket.accept()
    try:
        since = parse_since(since_text)
    except ValueError:
        detail = "since must be a non-negative integer (a seq this feed sent)"
        await _refuse(websocket, BAD_REQUEST, 422, detail, "since")
        return
    try:
        compact = parse_delta(delta_text)
    except ValueError:
        detail = f"delta must be one of {', '.join(DELTA_FORMS)}"
        await _refuse(websocket, BAD_REQUEST, 422, detail, "delta")
        return
    if not is_id(tournament_id):
        await _refuse(websocket, GONE, 404, f"no tournament {tournament_id!r}", "tournament_id")
        return
    token = websocket.query_params.get("token")
    try:
        if token is None:  # the crowd: one read of the row for all who arrive together
            row = await state.connect_rows.row(tournament_id)
            if row is not None:
                check_readable(row, None)
        else:
            async with state.read_session() as session:
                row = await session.get(TournamentRow, tournament_id)
                if row is not None:
                    await authorize_read(session, row, token)
    except Unauthenticated as refused:
        if token is not None:
            websocket.scope[FAILED_AUTHENTICATION] = True
        await _refuse(websocket, UNAUTHENTICATED, 401, refused.detail, "token")
        return
    except Gone as refused:
        await _refuse(websocket, ARCHIVED, 410, refused.detail, "tournament_id")
        return
    except (OSError, SQLAlchemyError):
        await _refuse(websocket, OUTAGE, 503, "live feed unavailable; retry later", "")
        return
    # one shared read answers a crowd at once; its members join a few per turn
    await state.hub.pacer.enter()
    try:
        channel = await state.hub.open(tournament_id)
    except TournamentGone:
        await _refuse(websocket, GONE, 404, f"no tournament {tournament_id!r}", "tournament_id")
        return
    except LiveUnavailable:
        await _refuse(websocket, OUTAGE, 503, "live feed unavailable; retry later", "")
        return
    if not accepts(channel.system):
        await _refuse(websocket, GONE, 404, f"no tournament {tournament_id!r}", "tournament_id")
        return
    # the ASGI send under Starlette's WebSocket: uvicorn's protocol when nothing wraps it
    direct = direct_socket(websocket.scope.get(SERVER_SEND))
    client = channel.join(
        websocket,
        since,
        direct,
        compact=compact,
        credential=None if token is None else hash_token(token),
        admitted_at=None if row is None else row.last_seq,
    )
    if direct is not None:
        demote(direct.transport)  # its socket events now wait behind the writers'
    subscribers = metrics_of(websocket.app).live_subscribers
    subscribers.inc()
    sender = asyncio.create_task(client.run())
    receiver = asyncio.create_task(_drain(websocket))
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        channel.leave(client)
        subscribers.dec()
        # a send to a socket that went away fails: that is the end. The outcome is
        # looked at, not raised here: raised, its traceback would hold this frame,
        # which holds the task, which holds the exception, a cycle that keeps the
        # whole connection until a full collection (`service.heap`)
        for task in (sender, receiver):
            task.cancel()
            task.add_done_callback(mark_retrieved)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait((sender, receiver))


@router.websocket("/v1/tournaments/{tournament_id}/live")
async def live(
    websocket: WebSocket, tournament_id: str, since: str | None = None, delta: str | None = None
) -> None:
    """Stream a tournament's events to a scoreboard or app."""
    await serve_live(websocket, tournament_id, since, _any, delta)
