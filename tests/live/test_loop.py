"""The event loop of `arbiter serve` (`service.live.loop`): spectators' socket events a
few per turn, everything else in full, and closed connections freed without the
collector."""

from __future__ import annotations

import asyncio
import gc
import json
import selectors
import socket
import sys
import weakref
from asyncio import selector_events
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from service import cli
from service.config import get_settings
from service.live.loop import (
    SpectatorLoop,
    SpectatorSelector,
    demote,
    missing_internals,
    spectator_loop,
    spectator_selector,
)
from tests.api.conftest import create_round_robin
from tests.db_backends import prepared_database
from tests.live.conftest import start_server, stop_server, until

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


@pytest.fixture
def pairs() -> Iterator[list[tuple[socket.socket, socket.socket]]]:
    made = [socket.socketpair() for _ in range(12)]
    yield made
    for a, b in made:
        a.close()
        b.close()


def _ready_fds(selector: selectors.BaseSelector) -> list[int]:
    return [key.fd for key, _ in selector.select(0)]


def test_demoted_descriptors_are_reported_a_few_per_turn(
    pairs: list[tuple[socket.socket, socket.socket]],
) -> None:
    selector = SpectatorSelector(per_turn=3)
    try:
        ours = [a for a, _ in pairs]
        for sock in ours:
            selector.register(sock, selectors.EVENT_READ)
        spectators = {sock.fileno() for sock in ours[:8]}
        for fd in spectators:
            assert selector.demote(fd)
        assert selector.demoted == 8
        for _, peer in pairs:
            peer.send(b"x")  # every socket is readable from now on (nothing reads)
        seen: set[int] = set()
        for _ in range(4):
            ready = _ready_fds(selector)
            others = [fd for fd in ready if fd not in spectators]
            assert sorted(others) == sorted(s.fileno() for s in ours[8:])  # in full
            taken = [fd for fd in ready if fd in spectators]
            assert len(taken) == 3
            seen.update(taken)
        assert seen == spectators  # each waits its turn, none is starved
    finally:
        selector.close()


def test_a_demoted_descriptor_is_forgotten_once_unregistered(
    pairs: list[tuple[socket.socket, socket.socket]],
) -> None:
    selector = SpectatorSelector(per_turn=1)
    try:
        (a, b), (c, d) = pairs[:2]
        selector.register(a, selectors.EVENT_READ)
        selector.register(c, selectors.EVENT_READ)
        assert selector.demote(a.fileno())
        assert not selector.demote(a.fileno())  # already there
        assert not selector.demote(b.fileno())  # not registered here
        selector.modify(a, selectors.EVENT_READ | selectors.EVENT_WRITE)
        ready = selector.select(0)  # writable: still one of the spectators
        assert [(key.fd, events) for key, events in ready] == [(a.fileno(), selectors.EVENT_WRITE)]
        selector.unregister(a)
        assert selector.demoted == 0
        fd = a.fileno()
        a.close()
        reused = socket.socket(fileno=socket.dup(c.fileno()))  # may take a's number
        try:
            selector.register(reused, selectors.EVENT_READ)
            d.send(b"x")
            assert sorted(_ready_fds(selector)) == sorted([c.fileno(), reused.fileno()])
            assert selector.demoted == 0, fd
        finally:
            selector.unregister(reused)
            reused.close()
    finally:
        selector.close()


def test_per_turn_is_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        SpectatorSelector(per_turn=0)


async def _transports_of_closed_connections(count: int) -> list[weakref.ref[Any]]:
    """Open and close `count` connections to a server of this loop; weak references to
    the server's transports."""
    made: list[weakref.ref[Any]] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        made.append(weakref.ref(writer.transport))
        await reader.read()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    for _ in range(count):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.close()
        await writer.wait_closed()
    await until(lambda: len(made) == count)
    for _ in range(20):
        await asyncio.sleep(0)
    server.close()
    await server.wait_closed()
    return made


def test_closed_connections_are_freed_without_the_collector() -> None:
    gc.collect()
    gc.disable()
    try:
        with asyncio.Runner(loop_factory=lambda: spectator_loop(4)) as runner:
            made = runner.run(_transports_of_closed_connections(20))
            assert len(made) == 20
            assert [ref for ref in made if ref() is not None] == []
    finally:
        gc.enable()


def test_demote_does_nothing_under_another_loop() -> None:
    async def scenario() -> bool:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        _, writer = await asyncio.open_connection(*server.sockets[0].getsockname()[:2])
        try:
            return demote(writer.transport)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(scenario()) is False


def test_arbiter_serve_runs_uvicorn_on_the_spectator_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: ran.update(kwargs))
    assert cli.main(["serve", "--port", "0"]) == 0
    factory = uvicorn.Config("service.api.app:create_app", loop=ran["loop"]).get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert isinstance(loop, SpectatorLoop)
        assert isinstance(spectator_selector(loop), SpectatorSelector)
    finally:
        loop.close()


def test_the_asyncio_internals_the_loop_builds_on_are_there() -> None:
    """A Python upgrade that changed them fails here, before any server runs on it."""
    missing = missing_internals()
    assert missing == [], (
        f"Python {sys.version.split()[0]} lacks what service/live/loop.py builds on: "
        f"{'; '.join(missing)}. Run `arbiter serve` with ARBITER_SPECTATOR_LOOP=false "
        "(asyncio's own loop) until the module follows."
    )


def test_a_missing_internal_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail."""
    monkeypatch.delattr(selector_events, "_SelectorSocketTransport")
    assert missing_internals() == ["asyncio.selector_events._SelectorSocketTransport"]


def test_arbiter_serve_runs_asyncios_own_loop_when_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """ARBITER_SPECTATOR_LOOP=false: uvicorn runs asyncio's loop as it ships, on which
    `demote` does nothing."""
    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: ran.update(kwargs))
    monkeypatch.setenv("ARBITER_SPECTATOR_LOOP", "false")
    get_settings.cache_clear()
    try:
        assert cli.main(["serve", "--port", "0"]) == 0
    finally:
        get_settings.cache_clear()
    assert ran["loop"] == "asyncio"
    factory = uvicorn.Config("service.api.app:create_app", loop=ran["loop"]).get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert type(loop) is asyncio.SelectorEventLoop
        assert spectator_selector(loop) is None
    finally:
        loop.close()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    yield from prepared_database("sqlite", tmp_path)


async def _crowd_comes_and_goes(database_url: str, crowd: int, per_turn: int) -> None:
    loop = asyncio.get_running_loop()
    selector = spectator_selector(loop)
    assert selector is not None
    server, task, address = await start_server(database_url, live_reader="thread")
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            event = await create_round_robin(http, PLAYERS)
            url = f"ws://{address}/v1/tournaments/{event.id}/live"
            boards = [await websockets.connect(url, max_queue=None) for _ in range(crowd)]
            for ws in boards:
                assert json.loads(await ws.recv())["type"] == "snapshot"
            await until(lambda: selector.demoted == crowd)  # every spectator, nobody else

            put = await http.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
                json={"result": "1-0"},
                headers=event.auth(),
            )
            assert put.status_code == 200, put.text
            for ws in boards:  # their events still arrive, written straight to them
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                while message["type"] == "ping":
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert message["type"] == "event"

            # the crowd leaves at once: its sockets' events are taken a few per turn
            gone: list[int] = []

            def count_turn() -> None:
                gone.append(crowd - selector.demoted)
                if selector.demoted:
                    loop.call_soon(count_turn)

            for ws in boards:
                ws.transport.abort()  # the client's end goes without a word
            loop.call_soon(count_turn)
            await until(lambda: selector.demoted == 0)
            assert gone[-1] == crowd
            for turns, left in enumerate(gone, start=1):
                assert left <= turns * per_turn, gone
            # and the writers were never behind them
            second = await http.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/2/result",
                json={"result": "0-1"},
                headers=event.auth(),
            )
            assert second.status_code == 200, second.text
    finally:
        await stop_server(server, task)


def test_spectators_are_demoted_while_connected_and_leave_a_few_per_turn(
    sqlite_url: str,
) -> None:
    with asyncio.Runner(loop_factory=lambda: spectator_loop(2)) as runner:
        runner.run(_crowd_comes_and_goes(sqlite_url, crowd=24, per_turn=2))
