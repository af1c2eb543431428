"""Access changes made through one server, watched on the open sockets of another (or
the same): each closes, within `CLOSE_WITHIN`, every socket it no longer admits, with an
`error` message and 4401 or 4410, and leaves the others open."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed

from tests.api.conftest import Event, create_round_robin

__all__ = ["CLOSE_WITHIN", "access_changes"]

CLOSE_WITHIN = 1.0
"""The guarantee: an access change closes the sockets it no longer admits within a
second of its answer, on every replica (a notification, a read of the log and one
read of the tournament; tens of milliseconds on this machine)."""

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


@dataclass
class _Socket:
    """An open feed, read until it closes: its messages, and when it closed."""

    ws: Any
    messages: list[dict[str, Any]] = field(default_factory=list)
    closed_at: float | None = None
    reading: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for text in self.ws:
                self.messages.append(json.loads(text))
        self.closed_at = time.monotonic()

    async def closes(self, code: int, status: int, since: float) -> float:
        """Wait for the close (TimeoutError after 10 s); check its code and the
        `error` before it; the seconds from `since`."""
        assert self.reading is not None
        await asyncio.wait_for(asyncio.shield(self.reading), 10)
        assert self.ws.close_code == code, (self.ws.close_code, self.ws.close_reason)
        last = self.messages[-1]
        assert (last["type"], last["status"]) == ("error", status), last
        assert self.closed_at is not None
        return self.closed_at - since

    async def stays_open(self) -> None:
        """A ping answered: the server, which decides every socket of the tournament
        in one pass, did not close this one in the pass that closed the others."""
        pong = await asyncio.wait_for(self.ws.ping(), 10)
        await asyncio.wait_for(pong, 10)
        assert self.closed_at is None

    async def reaches(self, event: str) -> None:
        """Wait until an event of this type arrives (AssertionError after 30 s)."""
        for _ in range(1500):
            if any(m.get("event") == event for m in self.messages):
                return
            assert self.closed_at is None, "closed"
            await asyncio.sleep(0.02)
        raise AssertionError(f"no {event} event")


class _Feeds:
    """The sockets a test opened, closed at its end."""

    def __init__(self, address: str, tournament_id: str) -> None:
        self.url = f"ws://{address}/v1/tournaments/{tournament_id}/live"
        self.opened: list[_Socket] = []

    async def open(self, token: str | None = None) -> _Socket:
        ws = await websockets.connect(self.url if token is None else f"{self.url}?token={token}")
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert first["type"] == "snapshot", first
        socket = _Socket(ws)
        socket.start()
        self.opened.append(socket)
        return socket

    async def close(self) -> None:
        for socket in self.opened:
            await socket.ws.close()
            if socket.reading is not None:
                await socket.reading


@contextlib.asynccontextmanager
async def _feeds(address: str, tournament_id: str) -> AsyncIterator[_Feeds]:
    feeds = _Feeds(address, tournament_id)
    try:
        yield feeds
    finally:
        await feeds.close()


async def _answered(request: Any, status: int) -> tuple[httpx.Response, float]:
    """The response (checked) and when it arrived."""
    response: httpx.Response = await request
    assert response.status_code == status, response.text
    return response, time.monotonic()


async def access_changes(writer: httpx.AsyncClient, address: str) -> list[float]:
    """Revoke the viewer token, rotate a player's and the organizer's, make the
    tournament private, archive it: all through `writer`, watched on sockets of the
    server at `address`. Returns the seconds each close took after its change's answer
    (each checked against `CLOSE_WITHIN`)."""
    event: Event = await create_round_robin(writer, PLAYERS)
    base = f"/v1/tournaments/{event.id}"
    auth = event.auth()

    async def rotate(whose: dict[str, Any]) -> str:
        response, _ = await _answered(
            writer.post(f"{base}/tokens/rotate", json=whose, headers=auth), 200
        )
        return str(response.json()["token"])

    delays: list[float] = []
    viewer = await rotate({"role": "viewer"})
    async with _feeds(address, event.id) as feeds:
        anonymous = await feeds.open()
        viewing = await feeds.open(viewer)
        first = await feeds.open(event.players[1])
        second = await feeds.open(event.players[2])
        organizing = await feeds.open(event.organizer)

        _, at = await _answered(
            writer.post(f"{base}/tokens/revoke", json={"role": "viewer"}, headers=auth), 204
        )
        delays.append(await viewing.closes(4401, 401, at))
        for socket in (anonymous, first, second, organizing):
            await socket.stays_open()

        _, at = await _answered(
            writer.post(
                f"{base}/tokens/rotate", json={"role": "player", "start_number": 1}, headers=auth
            ),
            200,
        )
        delays.append(await first.closes(4401, 401, at))
        for socket in (anonymous, second, organizing):
            await socket.stays_open()

        response, at = await _answered(
            writer.post(f"{base}/tokens/rotate", json={"role": "organizer"}, headers=auth), 200
        )
        delays.append(await organizing.closes(4401, 401, at))
        auth = {"Authorization": f"Bearer {response.json()['token']}"}
        for socket in (anonymous, second):
            await socket.stays_open()

        viewing = await feeds.open(await rotate({"role": "viewer"}))
        _, at = await _answered(
            writer.patch(base, json={"visibility": "private"}, headers=auth), 200
        )
        delays.append(await anonymous.closes(4401, 401, at))
        for socket in (viewing, second):  # still admitted, and still served
            await socket.stays_open()
        await _answered(
            writer.put(f"{base}/rounds/1/games/1/result", json={"result": "1-0"}, headers=auth),
            200,
        )
        for socket in (viewing, second):
            await socket.reaches("result_confirmed")

        organizing = await feeds.open(auth["Authorization"].removeprefix("Bearer "))
        _, at = await _answered(writer.delete(base, headers=auth), 204)
        for socket in (viewing, second):
            delays.append(await socket.closes(4410, 410, at))
        await organizing.stays_open()  # the organizer still follows it
    assert max(delays) < CLOSE_WITHIN, delays
    return delays
