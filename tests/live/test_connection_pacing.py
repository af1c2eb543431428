"""Connecting spectators let in a few per turn of the event loop
(service/live/connection_pacing.py):
`per_turn` while no HTTP request is being served, one while any is, in order of arrival;
a caller who gives up takes no place; the middleware counts HTTP requests and paces
WebSocket connections only; a real server lets a crowd in through one shared pacer."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import websockets

from service.live.connection_pacing import ConnectionPacer, ConnectionPacingMiddleware
from tests.api.conftest import create_round_robin
from tests.live.conftest import start_server, stop_server

_HEAD = b'{"type":"snapshot"'


class _Turns:
    """Counts turns of the running event loop: a callback that schedules itself again
    runs once per turn."""

    def __init__(self) -> None:
        self.now = 0
        self._handle: asyncio.Handle | None = None

    def __enter__(self) -> _Turns:
        self._handle = asyncio.get_running_loop().call_soon(self._tick)
        return self

    def __exit__(self, *_: object) -> None:
        if self._handle is not None:
            self._handle.cancel()

    def _tick(self) -> None:
        self.now += 1
        self._handle = asyncio.get_running_loop().call_soon(self._tick)


async def _crowd(
    pacer: ConnectionPacer, size: int, turns: _Turns, after: Callable[[int], None] | None = None
) -> list[tuple[int, int]]:
    """`size` callers arriving at the pacer together: (caller, turn it got through), in the
    order they got through."""
    passed: list[tuple[int, int]] = []

    async def one(caller: int) -> None:
        await pacer.enter()
        passed.append((caller, turns.now))
        if after is not None:
            after(len(passed))

    await asyncio.gather(*(one(caller) for caller in range(size)))
    return passed


def _per_turn(passed: list[tuple[int, int]]) -> list[int]:
    """How many got through in each turn that let someone through, turn by turn."""
    counts = Counter(turn for _, turn in passed)
    return [counts[turn] for turn in sorted(counts)]


async def test_an_idle_pacer_lets_per_turn_callers_through_per_turn_in_arrival_order() -> None:
    pacer = ConnectionPacer(per_turn=4)
    with _Turns() as turns:
        passed = await _crowd(pacer, 18, turns)
    assert [caller for caller, _ in passed] == list(range(18))
    assert _per_turn(passed) == [4, 4, 4, 4, 2]
    assert pacer.queued == 14
    assert pacer.waiting == 0


async def test_while_requests_are_served_one_caller_gets_through_per_turn() -> None:
    pacer = ConnectionPacer(per_turn=4)
    pacer.requests = 1

    def requests_end(passed: int) -> None:
        if passed == 3:
            pacer.requests = 0  # the writers are done: back to `per_turn`

    with _Turns() as turns:
        passed = await _crowd(pacer, 11, turns, requests_end)
    assert [caller for caller, _ in passed] == list(range(11))
    assert _per_turn(passed) == [1, 1, 1, 4, 4]


async def _three_callers(give_up: bool) -> int:
    """Turns between the first and the third of three callers getting through a pacer
    of one per turn, the second giving up while queued when `give_up`."""
    pacer = ConnectionPacer(per_turn=1)
    passed: dict[str, int] = {}
    with _Turns() as turns:

        async def caller(name: str) -> None:
            await pacer.enter()
            passed[name] = turns.now

        first, second, third = (asyncio.create_task(caller(name)) for name in "abc")
        await asyncio.sleep(0)  # all three have arrived: the first got through
        if give_up:
            second.cancel()
        await asyncio.gather(first, second, third, return_exceptions=True)
    assert second.cancelled() == give_up
    assert pacer.waiting == 0
    return passed["c"] - passed["a"]


async def test_a_caller_who_gives_up_takes_no_place() -> None:
    waited = await _three_callers(give_up=False)
    assert await _three_callers(give_up=True) == waited - 1


def test_a_pacer_lets_someone_through() -> None:
    with pytest.raises(ValueError, match="per_turn"):
        ConnectionPacer(per_turn=0)


async def test_the_middleware_counts_http_requests_and_paces_only_websockets() -> None:
    pacer = ConnectionPacer(per_turn=1)
    seen: list[tuple[str, int, int]] = []
    turns = _Turns()

    async def app(scope: dict[str, Any], _receive: Any, _send: Any) -> None:
        seen.append((scope["type"], pacer.requests, turns.now))
        await asyncio.sleep(0)

    middleware = ConnectionPacingMiddleware(app, pacer)

    async def call(kind: str) -> None:
        await middleware({"type": kind}, None, None)

    with turns:
        await asyncio.gather(*(call("websocket") for _ in range(3)), call("http"), call("lifespan"))
    assert pacer.requests == 0
    http = [requests for kind, requests, _ in seen if kind == "http"]
    assert http == [1]  # counted while served
    sockets = [turn for kind, _, turn in seen if kind == "websocket"]
    assert len(set(sockets)) == 3  # one per turn
    assert any(kind == "lifespan" for kind, _, _ in seen)
    assert pacer.queued == 2


async def test_a_crowd_connects_through_the_one_pacer_of_the_server(database_url: str) -> None:
    server, task, address = await start_server(database_url, live_admissions_per_turn=2)
    try:
        app: Any = server.config.app
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            event = await create_round_robin(http, [(f"Player {n}", 2000 - n) for n in range(6)])
        hub = app.state.arbiter.hub
        layer = app.middleware_stack
        while not isinstance(layer, ConnectionPacingMiddleware):
            layer = layer.app
        assert layer.pacer is hub.pacer  # the middleware's and the route's pacer

        url = f"ws://{address}/v1/tournaments/{event.id}/live"

        async def spectator() -> bytes:
            async with websockets.connect(url) as ws:
                first = await ws.recv()
                return first.encode() if isinstance(first, str) else first

        firsts = await asyncio.gather(*(spectator() for _ in range(60)))
        assert all(first.startswith(_HEAD) for first in firsts)
        assert hub.pacer.queued > 0  # the crowd waited for later turns
        assert hub.pacer.waiting == 0
    finally:
        await stop_server(server, task)
