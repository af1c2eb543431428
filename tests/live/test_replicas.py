"""Across processes: a restart keeps everything; replicas on one PostgreSQL database
share live events through LISTEN/NOTIFY or through Redis (`ARBITER_BUS_URL`), access
changes through one close the sockets of the other they no longer admit, and a
replica whose listener is killed reconnects and resynchronises."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shutil
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets

from service.live.bus import LISTENER_NAME, asyncpg_dsn
from tests.api.conftest import Event, create_round_robin
from tests.db_backends import on_backends
from tests.live.access_changes import access_changes
from tests.live.conftest import (
    REDIS_URL,
    free_port,
    serve_process,
    start_server,
    stop_server,
)
from tests.live.follower import Follower

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


async def test_restart_keeps_everything(database_url: str) -> None:
    server, task, address = await start_server(database_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            event = await create_round_robin(http, PLAYERS)
            await http.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
                json={"result": "1-0"},
                headers=event.auth(),
            )
            before = (await http.get(f"/v1/tournaments/{event.id}/standings")).json()
    finally:
        await stop_server(server, task)
    server, task, address = await start_server(database_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            after = (await http.get(f"/v1/tournaments/{event.id}/standings")).json()
            assert after == before
            # the organizer's token still works after the restart
            again = await http.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/2/result",
                json={"result": "0-1"},
                headers=event.auth(),
            )
            assert again.status_code == 200
    finally:
        await stop_server(server, task)


REPLICAS = on_backends("postgresql")
"""Replicas share one database and its events through LISTEN/NOTIFY: PostgreSQL only (CI
always has it)."""


@pytest.fixture(params=["listen"] + (["redis"] if REDIS_URL else []))
def bus_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """The replicas' bus: PostgreSQL's LISTEN/NOTIFY (the default), or Redis pub/sub in a
    namespace of the test's own (when ARBITER_TEST_REDIS_URL is set; CI sets it)."""
    quiet = {"ARBITER_LIVE_POLL_SECONDS": "600"}  # events come by the bus, not by polling
    if request.param == "listen":
        return quiet
    return {
        **quiet,
        "ARBITER_BUS_URL": REDIS_URL,
        "ARBITER_BUS_NAMESPACE": f"t{secrets.token_hex(4)}",
    }


@contextlib.asynccontextmanager
async def _two_replicas(
    database_url: str, env: dict[str, str] | None = None
) -> AsyncIterator[tuple[str, str, httpx.AsyncClient, httpx.AsyncClient]]:
    """Two `arbiter serve` processes on one database (with `env`): their addresses and
    a client each."""
    async with (
        serve_process(database_url, env=env) as a,
        serve_process(database_url, env=env) as b,
        httpx.AsyncClient(base_url=f"http://{a}") as http_a,
        httpx.AsyncClient(base_url=f"http://{b}") as http_b,
    ):
        yield a, b, http_a, http_b


@contextlib.asynccontextmanager
async def _a_spectator_on_each(
    a: str, b: str, event: Event
) -> AsyncIterator[tuple[list[Follower], list[Any], int]]:
    """A spectator of `event` on each replica, both holding the same snapshot: their
    boards, their sockets and the snapshot's seq."""
    boards = [Follower(), Follower()]
    async with (
        websockets.connect(f"ws://{a}/v1/tournaments/{event.id}/live") as ws_a,
        websockets.connect(f"ws://{b}/v1/tournaments/{event.id}/live") as ws_b,
    ):
        sockets = [ws_a, ws_b]
        for board, ws in zip(boards, sockets, strict=True):
            await board.receive(ws)
        start = boards[0].seq
        assert start is not None and boards[1].seq == start
        yield boards, sockets, start


async def _report(http: httpx.AsyncClient, event: Event, table: int, result: str) -> None:
    """A round-1 result through one replica, answered 200."""
    response = await http.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result",
        json={"result": result},
        headers=event.auth(),
    )
    assert response.status_code == 200, response.text


async def _both_hold(boards: list[Follower], sockets: list[Any], seq: int) -> None:
    """Both spectators reach `seq` with the results of tables 1 then 2, and one table."""
    for board, ws in zip(boards, sockets, strict=True):
        await board.until(ws, seq)
        assert [m["payload"]["table"] for m in board.events] == [1, 2]
    assert boards[0].table() == boards[1].table()


@REPLICAS
async def test_replicas_share_events(database_url: str, bus_env: dict[str, str]) -> None:
    """Two `arbiter serve` processes on one PostgreSQL database: results written through
    either reach the spectators of both, in seq order; over Redis, with no LISTEN."""
    async with _two_replicas(database_url, bus_env) as (a, b, http_a, http_b):
        listeners = 0 if "ARBITER_BUS_URL" in bus_env else 2
        assert await _listeners(database_url) == listeners
        event = await create_round_robin(http_a, PLAYERS)
        async with _a_spectator_on_each(a, b, event) as (boards, sockets, start):
            await _report(http_a, event, 1, "1-0")  # one write through each
            await _report(http_b, event, 2, "1-0")
            await _both_hold(boards, sockets, start + 2)


@REPLICAS
async def test_access_changes_through_one_replica_close_sockets_on_the_other(
    database_url: str, bus_env: dict[str, str]
) -> None:
    """Tokens revoked and rotated, the tournament made private and archived through one
    replica: the sockets of the other that each change no longer admits are closed
    within a second (4401, 4410 on archival), by the bus alone (no polling), and the
    others stay open."""
    async with _two_replicas(database_url, bus_env) as (_, b, http_a, _):
        await access_changes(http_a, b)


async def _on_listeners(database_url: str, what: str) -> int:
    """`SELECT what` for every LISTEN connection of the test database; how many."""
    import asyncpg

    dsn = asyncpg_dsn(database_url)
    name = dsn.rpartition("/")[2]
    connection = await asyncpg.connect(dsn)
    try:
        rows = await connection.fetch(
            f"SELECT {what} FROM pg_stat_activity WHERE datname = $1 AND application_name = $2",
            name,
            LISTENER_NAME,
        )
    finally:
        await connection.close()
    return len(rows)


async def _listeners(database_url: str) -> int:
    """How many LISTEN connections the test database has."""
    return await _on_listeners(database_url, "pid")


async def _terminate_listeners(database_url: str) -> int:
    """pg_terminate_backend on every LISTEN connection of the test database (what a
    PostgreSQL restart does to them)."""
    return await _on_listeners(database_url, "pg_terminate_backend(pid)")


@REPLICAS
async def test_the_listener_reconnects_and_resyncs(database_url: str) -> None:
    """The replica's LISTEN connection is killed; a result written through the other
    replica meanwhile still reaches its spectators (resync from the event log), and so
    do later ones (LISTEN again)."""
    writer, writer_task, a = await start_server(database_url)
    follower, follower_task, b = await start_server(database_url)
    try:
        bus = follower.config.app.state.arbiter.bus  # type: ignore[union-attr]
        async with httpx.AsyncClient(base_url=f"http://{a}") as http:
            event = await create_round_robin(http, PLAYERS)
            board = Follower()
            async with websockets.connect(f"ws://{b}/v1/tournaments/{event.id}/live") as ws:
                await board.receive(ws)
                start = board.seq
                assert start is not None
                assert await _terminate_listeners(database_url) >= 2
                for table in (1, 2):
                    response = await http.put(
                        f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result",
                        json={"result": "0-1"},
                        headers=event.auth(),
                    )
                    assert response.status_code == 200, response.text
                await board.until(ws, start + 2)
                for _ in range(200):  # until the replica listens again
                    if bus.reconnects >= 1 and bus.listening:
                        break
                    await asyncio.sleep(0.05)
                assert bus.reconnects >= 1 and bus.listening
                response = await http.put(
                    f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
                    json={"result": "1-0"},
                    headers=event.auth(),
                )
                assert response.status_code == 200, response.text
                await board.until(ws, start + 3)
                assert board.events[-1]["event"] == "result_corrected"
    finally:
        await stop_server(writer, writer_task)
        await stop_server(follower, follower_task)


def _warmed(metrics: str, trigger: str) -> float:
    """`arbiter_live_tables_warmed_total{trigger=...}` from a /metrics page (0 if absent)."""
    prefix = f'arbiter_live_tables_warmed_total{{trigger="{trigger}"}} '
    found = [line[len(prefix) :] for line in metrics.splitlines() if line.startswith(prefix)]
    return float(found[0]) if found else 0.0


async def _peer_warmups_reach(http: httpx.AsyncClient, count: int) -> None:
    for _ in range(200):
        if _warmed((await http.get("/metrics")).text, "peer") >= count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the replica never counted {count} tables prepared for a peer")


@REPLICAS
async def test_a_start_readies_the_table_on_the_replicas_that_follow_it(
    database_url: str, bus_env: dict[str, str]
) -> None:
    """A start through one replica has another that served the tournament's table compute
    the started table before any reader asks it again (the bus's table channel,
    `TABLES_CHANNEL`); a replica that never read a tournament leaves its start alone, and
    a replica ignores its own announcement."""
    async with _two_replicas(database_url, bus_env) as (_, _, http_a, http_b):
        followed = await create_round_robin(http_a, PLAYERS, start=False)
        unread = await create_round_robin(http_a, PLAYERS, start=False)
        last = await create_round_robin(http_a, PLAYERS, start=False)
        for event in (followed, last):  # B serves their tables before the start
            assert (await http_b.get(f"/v1/tournaments/{event.id}/standings")).status_code == 200
        for event in (followed, unread, last):
            started = await http_a.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
            assert started.status_code == 200, started.text
        # the announcements reach B in commit order: once the last one is counted, the
        # unread tournament's has been heard and left alone
        await _peer_warmups_reach(http_b, 2)
        assert _warmed((await http_b.get("/metrics")).text, "peer") == 2
        own = (await http_a.get("/metrics")).text
        assert (_warmed(own, "write"), _warmed(own, "peer")) == (3, 0)
        first_b = await http_b.get(f"/v1/tournaments/{followed.id}/standings")
        first_a = await http_a.get(f"/v1/tournaments/{followed.id}/standings")
        assert first_b.status_code == 200, first_b.text
        assert first_b.headers["etag"] == first_a.headers["etag"]
        assert first_b.json() == first_a.json()
        assert _warmed((await http_b.get("/metrics")).text, "write") == 0


REDIS_SERVER = shutil.which("redis-server")


@contextlib.asynccontextmanager
async def _redis_server(port: int) -> AsyncIterator[asyncio.subprocess.Process]:
    """A Redis server of the test's own on `port`, keeping nothing on disk."""
    assert REDIS_SERVER is not None
    process = await asyncio.create_subprocess_exec(
        REDIS_SERVER,
        *("--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
        stdout=asyncio.subprocess.DEVNULL,
    )
    try:
        for _ in range(250):
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            await asyncio.sleep(0.02)
        yield process
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


async def _bus_state(http: httpx.AsyncClient) -> str:
    return str((await http.get("/healthz")).json()["live_bus"])


async def _bus_becomes(http: httpx.AsyncClient, state: str) -> None:
    for _ in range(300):
        if await _bus_state(http) == state:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the replica's bus never became {state}")


@REPLICAS
@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed")
async def test_replicas_ride_out_a_redis_killed_and_restarted(database_url: str) -> None:
    """Two replicas on a Redis bus whose server is SIGKILLed: a result written meanwhile
    reaches the writing replica's spectators at once and the other's once Redis is back
    (it subscribes again and rereads the log; polling is out of reach), and later
    results flow both ways as before."""
    port = free_port()
    env = {
        "ARBITER_BUS_URL": f"redis://127.0.0.1:{port}/0",
        "ARBITER_LIVE_POLL_SECONDS": "600",
    }
    async with (
        _redis_server(port) as redis,
        _two_replicas(database_url, env) as (a, b, http_a, http_b),
    ):
        event = await create_round_robin(http_a, PLAYERS)
        async with _a_spectator_on_each(a, b, event) as (boards, sockets, start):
            redis.kill()
            await redis.wait()
            for http in (http_a, http_b):
                await _bus_becomes(http, "reconnecting")
            await _report(http_a, event, 1, "1-0")
            await boards[0].until(sockets[0], start + 1, timeout=5)
            assert boards[1].seq == start  # B has not heard of it
            async with _redis_server(port):
                await boards[1].until(sockets[1], start + 1)
                for http in (http_a, http_b):
                    await _bus_becomes(http, "ok")
                await _report(http_b, event, 2, "0-1")
                await _both_hold(boards, sockets, start + 2)
