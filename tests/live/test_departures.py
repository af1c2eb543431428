"""Spectators who leave are freed by reference counting, not left to the collector
(`service.heap`): a full collection walks every spectator still connected, and when a
departure ended in a reference cycle holding its connection, an audience of 10,000
leaving at once cost ten of them, 25 s in which result PUTs waited or got 503."""

from __future__ import annotations

import asyncio
import gc
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from service.live.wire import SERVER_SEND
from tests.api.conftest import create_round_robin
from tests.db_backends import prepared_database
from tests.live.conftest import start_server, stop_server, until

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
SERVER_SIDE = (
    "uvicorn.protocols.",
    "websockets.server.",
    "starlette.websockets.",
    "fastapi.websockets.",
    "service.live.",
)
"""Modules whose objects belong to the server's side of a connection (the client's
side runs in this process too, and asyncio's transports keep a small cycle of their
own on both sides, which `service.heap` accounts for)."""


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    yield from prepared_database("sqlite", tmp_path)


def _server_side(thing: object) -> str | None:
    """The name of a server-side object's type (the scope dict counts as one)."""
    if isinstance(thing, dict) and (thing.get("type") == "websocket" or SERVER_SEND in thing):
        return "the connection's ASGI scope"
    kind = type(thing)
    name = f"{kind.__module__}.{kind.__qualname__}"
    return name if name.startswith(SERVER_SIDE) else None


async def test_a_departed_spectator_leaves_no_cycle_behind(sqlite_url: str) -> None:
    # a heartbeat every 2 ms: most senders are in the middle of a send when the sockets
    # go, the path where the send fails and its task ends with the disconnect
    server, task, address = await start_server(sqlite_url, live_heartbeat_seconds=0.002)
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            event = await create_round_robin(http, PLAYERS)
        url = f"ws://{address}/v1/tournaments/{event.id}/live"
        boards = [await websockets.connect(url, max_queue=None) for _ in range(12)]
        for ws in boards:
            await ws.recv()
        app: Any = server.config.app
        heap = app.state.arbiter.hub.heap
        assert heap.connected == 12
        gc.unfreeze()
        gc.collect()  # what earlier tests left behind goes now
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept for us to see
        try:
            for ws in boards[:4]:
                await ws.close()  # the closing handshake
            for ws in boards[4:]:
                ws.transport.abort()  # gone without one, as a phone leaving the venue
            await until(lambda: heap.connected == 0 and not server.server_state.tasks)
            await asyncio.sleep(0.1)  # the protocols' last callbacks
            gc.unfreeze()  # the spectators were frozen once they joined
            gc.collect()
            kept = Counter(name for thing in gc.garbage if (name := _server_side(thing)))
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        assert kept == Counter()
    finally:
        await stop_server(server, task)
