"""The Redis bus (`service.live.redis_bus`) on a real Redis server: delivery to every
subscriber of a namespace and no other, table announcements to the others only, a lost
subscription taken again and resynchronised; a Redis that refuses, is unreachable or
never answers holding no write back, `/healthz` telling it; and the setting that chooses
the bus. Two replicas on it: tests/live/test_replicas.py."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import httpx
import pytest
import websockets
from pydantic import ValidationError

from service.config import Settings
from service.live.bus import InProcessBus, PostgresBus, create_bus
from service.live.redis_bus import PUBLISH_WAIT, SUBSCRIBE_WAIT, RedisBus
from tests.api.conftest import create_round_robin
from tests.live.conftest import (
    REDIS_URL,
    free_port,
    needs_redis,
    start_server,
    stop_server,
    until,
)
from tests.live.follower import Follower


class Heard:
    """What a bus handed to its hub."""

    def __init__(self, bus: RedisBus) -> None:
        self.events: list[tuple[str, int]] = []
        self.tables: list[tuple[str, int]] = []
        self.resyncs = 0
        bus.attach(self._event, self._resync, self._table)

    def _event(self, tournament_id: str, seq: int) -> None:
        self.events.append((tournament_id, seq))

    def _resync(self) -> None:
        self.resyncs += 1

    def _table(self, tournament_id: str, seq: int) -> None:
        self.tables.append((tournament_id, seq))


def _namespace() -> str:
    return f"test-{secrets.token_hex(4)}"


@pytest.fixture
async def buses() -> AsyncIterator[tuple[RedisBus, RedisBus, RedisBus]]:
    """Two replicas' buses in one namespace and a third deployment's in another, started."""
    shared = _namespace()
    made = [
        RedisBus(REDIS_URL, namespace=shared, watch=0.5),
        RedisBus(REDIS_URL, namespace=shared, watch=0.5),
        RedisBus(REDIS_URL, namespace=_namespace(), watch=0.5),
    ]
    for bus in made:
        await bus.start()
    try:
        yield made[0], made[1], made[2]
    finally:
        for bus in made:
            await bus.stop()


async def _kill_subscription(bus: RedisBus) -> int:
    """CLIENT KILL on the bus's subscribed connection (what a Redis restart does to it)."""
    from redis.asyncio import Redis

    admin = Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        clients = await admin.client_list(_type="pubsub")
        ids = [c["id"] for c in clients if c.get("name") == bus.client_name]
        for client_id in ids:
            await admin.client_kill_filter(_id=client_id)
        return len(ids)
    finally:
        await admin.aclose()


@needs_redis
async def test_events_reach_every_subscriber_of_the_namespace(
    buses: tuple[RedisBus, RedisBus, RedisBus],
) -> None:
    a, b, other = buses
    heard = [Heard(bus) for bus in buses]
    await a.publish("t1", 7)
    await b.publish("t1", 8)
    await until(lambda: len(heard[0].events) == 2 and len(heard[1].events) == 2)
    assert heard[0].events == heard[1].events == [("t1", 7), ("t1", 8)]
    await asyncio.sleep(0.2)
    assert heard[2].events == []  # another deployment's namespace hears nothing
    assert a.listening and b.listening and other.listening


@needs_redis
async def test_a_table_announcement_reaches_the_other_replicas_only(
    buses: tuple[RedisBus, RedisBus, RedisBus],
) -> None:
    a, b, _ = buses
    heard_a, heard_b = Heard(a), Heard(b)
    await a.publish_table("t2", 3)
    await a.publish("t2", 4)  # after the announcement: once it is heard, so was that
    await until(lambda: ("t2", 4) in heard_a.events and ("t2", 4) in heard_b.events)
    assert heard_b.tables == [("t2", 3)]
    assert heard_a.tables == []  # a process computes its own table


@needs_redis
async def test_a_lost_subscription_is_taken_again_and_resynchronised(
    buses: tuple[RedisBus, RedisBus, RedisBus],
) -> None:
    a, b, _ = buses
    heard_b = Heard(b)
    assert await _kill_subscription(b) == 1
    await until(lambda: heard_b.resyncs == 1 and b.listening)
    assert b.reconnects == 1
    await a.publish("t3", 1)  # delivered on the new subscription
    await until(lambda: heard_b.events == [("t3", 1)])


@needs_redis
async def test_messages_of_other_forms_are_ignored(
    buses: tuple[RedisBus, RedisBus, RedisBus],
) -> None:
    from redis.asyncio import Redis

    a, _, _ = buses
    heard = Heard(a)
    admin = Redis.from_url(REDIS_URL)
    try:
        await admin.publish(a.events_channel, "no-seq-here")
        await admin.publish(a.tables_channel, "origin-only")
        await admin.publish(a.events_channel, "t4:2")
    finally:
        await admin.aclose()
    await until(lambda: heard.events == [("t4", 2)])
    assert heard.tables == []


@needs_redis
async def test_a_publish_redis_refuses_is_still_heard_here(
    buses: tuple[RedisBus, RedisBus, RedisBus], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The subscription is up but the PUBLISH fails: this process's hub is told directly
    (the write is committed; the other replicas catch up by their periodic read)."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    a, b, _ = buses
    heard_a, heard_b = Heard(a), Heard(b)

    async def refused(*_args: object) -> int:
        raise RedisConnectionError("refused")

    assert a._publisher is not None
    monkeypatch.setattr(a._publisher, "publish", refused)
    await a.publish("t6", 5)
    assert heard_a.events == [("t6", 5)]
    await asyncio.sleep(0.2)
    assert heard_b.events == []


async def test_an_unreachable_redis_never_fails_a_write() -> None:
    """Nothing listens on the port: the bus starts anyway (subscribing in the
    background), a publish tells this process's hub directly, and it stops at once."""
    bus = RedisBus(f"redis://127.0.0.1:{free_port()}/0", first_delay=0.05, max_delay=0.1)
    heard = Heard(bus)
    await bus.start()
    try:
        assert not bus.listening
        await bus.publish("t5", 9)
        await bus.publish_table("t5", 9)
        assert heard.events == [("t5", 9)]
        assert heard.tables == [] and heard.resyncs == 0
    finally:
        await asyncio.wait_for(bus.stop(), 5)


async def test_a_redis_that_never_answers_holds_nothing_back() -> None:
    """A server that accepts connections and answers nothing (a hung Redis, a half-open
    path): starting gives up after `SUBSCRIBE_WAIT`, and each publish after
    `PUBLISH_WAIT`, telling this process's hub directly; nothing waits longer."""

    async def silent(reader: asyncio.StreamReader, _writer: asyncio.StreamWriter) -> None:
        await reader.read()  # reads until the client goes, answers nothing

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        bus = RedisBus(f"redis://127.0.0.1:{port}/0", first_delay=0.05, max_delay=0.1)
        heard = Heard(bus)
        await asyncio.wait_for(bus.start(), SUBSCRIBE_WAIT + 2)
        try:
            assert not bus.listening
            clock = asyncio.get_running_loop().time
            for seq in (1, 2):
                began = clock()
                await bus.publish("t7", seq)
                assert clock() - began < PUBLISH_WAIT + 0.5
            assert heard.events == [("t7", 1), ("t7", 2)]
        finally:
            await asyncio.wait_for(bus.stop(), 5)
    finally:
        server.close()


def test_the_bus_setting_names_redis_or_nothing() -> None:
    assert Settings(bus_url="").bus_url is None
    url = "redis://127.0.0.1:6379/0"
    assert Settings(bus_url=url).bus_url == url
    for wrong in ("http://127.0.0.1:6379", "postgresql://x/y", "127.0.0.1:6379"):
        with pytest.raises(ValidationError, match="bus_url"):
            Settings(bus_url=wrong)
    with pytest.raises(ValidationError, match="bus_namespace"):
        Settings(bus_namespace="two words")


def test_the_bus_follows_the_setting_then_the_database() -> None:
    redis_bus = create_bus("postgresql+asyncpg://h/db", "redis://h:6379/0", "ns")
    assert isinstance(redis_bus, RedisBus)
    assert redis_bus.events_channel == "ns:events" and redis_bus.tables_channel == "ns:tables"
    assert redis_bus.announces_after_commit
    postgres = create_bus("postgresql+asyncpg://h/db")
    assert isinstance(postgres, PostgresBus) and not postgres.announces_after_commit
    local = create_bus("sqlite+aiosqlite:///x.db")
    assert isinstance(local, InProcessBus) and local.announces_after_commit


async def test_with_redis_down_writes_and_local_spectators_go_on(database_url: str) -> None:
    """A server whose Redis is unreachable: `/healthz` says the bus is reconnecting (200,
    "degraded"), results are stored and this server's spectators still get them."""
    server, task, address = await start_server(
        database_url, bus_url=f"redis://127.0.0.1:{free_port()}/0"
    )
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            health = await http.get("/healthz")
            assert health.status_code == 200
            assert health.json() == {
                "status": "degraded",
                "database": "ok",
                "live_bus": "reconnecting",
            }
            event = await create_round_robin(http, [("Ann", 2100), ("Bob", 2000)])
            board = Follower()
            async with websockets.connect(f"ws://{address}/v1/tournaments/{event.id}/live") as ws:
                await board.receive(ws)
                assert board.seq is not None
                response = await http.put(
                    f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
                    json={"result": "1-0"},
                    headers=event.auth(),
                )
                assert response.status_code == 200, response.text
                await board.until(ws, board.seq + 1, timeout=4)  # not the 5 s poll
    finally:
        await stop_server(server, task)


@needs_redis
async def test_healthz_says_ok_once_subscribed(database_url: str) -> None:
    server, task, address = await start_server(
        database_url, bus_url=REDIS_URL, bus_namespace=_namespace()
    )
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            health = (await http.get("/healthz")).json()
            assert health == {"status": "ok", "database": "ok", "live_bus": "ok"}
    finally:
        await stop_server(server, task)
