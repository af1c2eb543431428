"""The live feed: `GET /v1/tournaments/{id}/live` upgraded to WebSocket (DESIGN: Live).

Protocol: on connect a `snapshot` (`seq`, `status`, `round` and the table); with
`?since=<seq>` instead the events after `seq`, exactly as stored, then live ones. Each
event message is `{"type": "event", "seq", "event", "payload"}`; the newest event that
moves the table also carries the table and `changed`: the rows that differ from the
table this client saw last (a FLAMPARK result moves PF, Ru and PP of several players).
The table is `standings` for chess and `ranking` for bridge events, which share this
feed (`/v1/bridge/events/{id}/live` is the same handler).

A client whose queue overflows (too slow) gets a fresh `snapshot` and continues from
there. The handler reads and writes at once, so a client that goes away, or a server
shutting down, never leaves it hanging; it also rereads the log every 15 s in case a
notification was lost.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.bridge_views import bridge_ranking_document
from service.api.state import AppState
from service.api.views import standings_document
from service.db.bridge import RESULT_EVENTS
from service.db.events import STANDINGS_EVENTS, events_since
from service.db.repository import get_tournament
from service.db.tables import EventRow, TournamentRow
from service.errors import NotFound
from service.live.bus import Subscription

__all__ = ["Loader", "router", "serve_live"]

router = APIRouter(tags=["live"])

_POLL_SECONDS = 15.0
"""Safety net: reread the log this often even without a notification."""

Loader = Callable[[AsyncSession, str], Awaitable[TournamentRow]]
"""Loads the tournament (or bridge event) a feed follows, raising NotFound."""


@dataclass(frozen=True, slots=True)
class _Table:
    """What a feed's table is: its key in messages, the events that move it, how to
    build it, and which field identifies a row."""

    key: str
    moving: frozenset[str]
    build: Callable[[AppState, AsyncSession, TournamentRow], Awaitable[dict[str, Any]]]
    row_id: str


_CHESS = _Table("standings", STANDINGS_EVENTS, standings_document, "start_number")
_BRIDGE = _Table("ranking", frozenset(RESULT_EVENTS), bridge_ranking_document, "number")


def _table_of(row: TournamentRow) -> _Table:
    return _BRIDGE if row.system.startswith("bridge-") else _CHESS


class _Client:
    """One connection's state: the table rows it was last sent."""

    def __init__(self, websocket: WebSocket, state: AppState) -> None:
        self.websocket = websocket
        self.state = state
        self.rows: dict[Any, Any] | None = None

    def changed(self, table: _Table, document: dict[str, Any]) -> list[Any]:
        rows = {r[table.row_id]: r for r in document["rows"]}
        previous, self.rows = self.rows, rows
        if previous is None:
            return sorted(rows)
        return sorted(n for n, r in rows.items() if previous.get(n) != r)

    async def snapshot(self, session: AsyncSession, row: TournamentRow) -> int:
        table = _table_of(row)
        document = await table.build(self.state, session, row)
        self.changed(table, document)
        await self.websocket.send_json(
            {
                "type": "snapshot",
                "seq": row.last_seq,
                "status": row.status,
                "round": row.current_round,
                table.key: document,
            }
        )
        return row.last_seq

    async def events_after(self, session: AsyncSession, row: TournamentRow, since: int) -> int:
        table = _table_of(row)
        events: list[EventRow] = await events_since(session, row.id, since)
        messages: list[dict[str, Any]] = [
            {"type": "event", "seq": e.seq, "event": e.type, "payload": e.payload} for e in events
        ]
        newest = next((m for m in reversed(messages) if m["event"] in table.moving), None)
        if newest is not None and newest["seq"] == row.last_seq:
            document = await table.build(self.state, session, row)
            newest[table.key] = document
            newest["changed"] = self.changed(table, document)
        for message in messages:
            await self.websocket.send_json(message)
        return events[-1].seq if events else since


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) client messages until the client goes away."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


async def serve_live(
    websocket: WebSocket, tournament_id: str, since: int | None, load: Loader
) -> None:
    """Run the feed of one tournament or bridge event until the client leaves."""
    state: AppState = websocket.app.state.arbiter
    await websocket.accept()
    async with state.sessions() as session:
        try:
            await load(session, tournament_id)
        except NotFound as exc:
            await websocket.send_json({"type": "error", "status": 404, "detail": exc.detail})
            await websocket.close(code=4404)
            return
    async with state.bus.subscribe(tournament_id) as subscription:
        receiver = asyncio.create_task(_drain(websocket))
        try:
            await _stream(
                _Client(websocket, state), tournament_id, since, load, subscription, receiver
            )
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            receiver.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await receiver


async def _stream(
    client: _Client,
    tournament_id: str,
    since: int | None,
    load: Loader,
    subscription: Subscription,
    receiver: asyncio.Task[None],
) -> None:
    sessions = client.state.sessions
    async with sessions() as session:
        row = await load(session, tournament_id)
        if since is None or since < 0:
            last = await client.snapshot(session, row)
        else:
            last = await client.events_after(session, row, since)
    while not receiver.done():
        waiter = asyncio.create_task(subscription.queue.get())
        done, _ = await asyncio.wait(
            {waiter, receiver}, timeout=_POLL_SECONDS, return_when=asyncio.FIRST_COMPLETED
        )
        if waiter not in done:
            waiter.cancel()
        if receiver in done:
            return
        async with sessions() as session:
            row = await load(session, tournament_id)
            if subscription.overflowed:
                subscription.overflowed = False
                while not subscription.queue.empty():
                    subscription.queue.get_nowait()
                last = await client.snapshot(session, row)
            elif row.last_seq > last:
                last = await client.events_after(session, row, last)


@router.websocket("/v1/tournaments/{tournament_id}/live")
async def live(websocket: WebSocket, tournament_id: str, since: int | None = None) -> None:
    """Stream a tournament's events to a scoreboard or app."""
    await serve_live(websocket, tournament_id, since, get_tournament)
