"""The live feed: `GET /v1/tournaments/{id}/live` upgraded to WebSocket (DESIGN: Live).

Protocol: on connect a `snapshot` (standings, current round, `seq`); with `?since=<seq>`
instead the events after `seq`, exactly as stored, then live ones. Each event message is
`{"type": "event", "seq", "event", "payload"}`; after events that move the table it
carries `standings` too, and `changed`: the start numbers whose row differs from the
table this client saw last (a FLAMPARK result moves PF, Ru and PP of several
players). A client whose queue overflows (too slow) gets a fresh
`snapshot` and continues from there. The handler reads and writes at once, so a client
that goes away, or a server shutting down, never leaves it hanging.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.state import AppState
from service.api.views import standings_document
from service.db.events import STANDINGS_EVENTS, events_since
from service.db.repository import get_tournament
from service.db.tables import EventRow, TournamentRow
from service.errors import NotFound
from service.live.bus import Subscription

router = APIRouter(tags=["live"])

_POLL_SECONDS = 15.0
"""Safety net: reread the log this often even without a notification."""


async def _snapshot(state: AppState, session: AsyncSession, row: TournamentRow) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "seq": row.last_seq,
        "status": row.status,
        "round": row.current_round,
        "standings": await standings_document(state, session, row),
    }


class _Seen:
    """The standings rows a client was last sent, to tell it what changed."""

    def __init__(self) -> None:
        self.rows: dict[int, Any] | None = None

    def update(self, standings: dict[str, Any]) -> list[int]:
        rows = {r["start_number"]: r for r in standings["rows"]}
        previous, self.rows = self.rows, rows
        if previous is None:
            return sorted(rows)
        return sorted(n for n, r in rows.items() if previous.get(n) != r)


async def _event_messages(
    state: AppState,
    session: AsyncSession,
    row: TournamentRow,
    events: list[EventRow],
    seen: _Seen,
) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [
        {"type": "event", "seq": e.seq, "event": e.type, "payload": e.payload} for e in events
    ]
    last_moving = next((m for m in reversed(messages) if m["event"] in STANDINGS_EVENTS), None)
    if last_moving is not None and last_moving["seq"] == row.last_seq:
        standings = await standings_document(state, session, row)
        last_moving["standings"] = standings
        last_moving["changed"] = seen.update(standings)
    return messages


@router.websocket("/v1/tournaments/{tournament_id}/live")
async def live(websocket: WebSocket, tournament_id: str, since: int | None = None) -> None:
    """Stream a tournament's events to a scoreboard or app."""
    state: AppState = websocket.app.state.arbiter
    await websocket.accept()
    async with state.sessions() as session:
        try:
            await get_tournament(session, tournament_id)
        except NotFound as exc:
            await websocket.send_json({"type": "error", "status": 404, "detail": exc.detail})
            await websocket.close(code=4404)
            return
    async with state.bus.subscribe(tournament_id) as subscription:
        receiver = asyncio.create_task(_drain(websocket))
        try:
            await _stream(websocket, state, tournament_id, since, subscription, receiver)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            receiver.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await receiver


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) client messages until the client goes away."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


async def _stream(
    websocket: WebSocket,
    state: AppState,
    tournament_id: str,
    since: int | None,
    subscription: Subscription,
    receiver: asyncio.Task[None],
) -> None:
    seen = _Seen()
    async with state.sessions() as session:
        row = await get_tournament(session, tournament_id)
        if since is None or since < 0:
            snapshot = await _snapshot(state, session, row)
            seen.update(snapshot["standings"])
            await websocket.send_json(snapshot)
            last = row.last_seq
        else:
            last = await _send_since(websocket, state, session, row, since, seen)
    while not receiver.done():
        waiter = asyncio.create_task(subscription.queue.get())
        done, _ = await asyncio.wait(
            {waiter, receiver}, timeout=_POLL_SECONDS, return_when=asyncio.FIRST_COMPLETED
        )
        if waiter not in done:
            waiter.cancel()
        if receiver in done:
            return
        async with state.sessions() as session:
            row = await get_tournament(session, tournament_id)
            if subscription.overflowed:
                subscription.overflowed = False
                while not subscription.queue.empty():
                    subscription.queue.get_nowait()
                snapshot = await _snapshot(state, session, row)
                seen.update(snapshot["standings"])
                await websocket.send_json(snapshot)
                last = row.last_seq
            elif row.last_seq > last:
                last = await _send_since(websocket, state, session, row, last, seen)


async def _send_since(
    websocket: WebSocket,
    state: AppState,
    session: AsyncSession,
    row: TournamentRow,
    since: int,
    seen: _Seen,
) -> int:
    events = await events_since(session, row.id, since)
    for message in await _event_messages(state, session, row, events, seen):
        await websocket.send_json(message)
    return events[-1].seq if events else since
