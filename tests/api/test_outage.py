"""The database goes away under a running server (docs/api.md#outages): writes answer
503 problem+json with Retry-After, /healthz says which part is down, and the server
serves again once the database is back, without a restart.

PostgreSQL only (the server stays up while its database refuses connections); the
suite runs it whenever ARBITER_TEST_DATABASE_URL is set, as CI does. The outage is
made on a database of its own (`ALLOW_CONNECTIONS false` and `pg_terminate_backend`),
so other users of the server are not disturbed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.db.migrate import upgrade
from tests.api.conftest import create_round_robin
from tests.db_backends import BACKENDS, postgres_url
from tests.live.conftest import start_server, stop_server

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


async def _admin(statement: str) -> None:
    import asyncpg

    dsn = postgres_url().replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture(params=[b for b in BACKENDS if b == "postgresql"])
async def own_database(request: pytest.FixtureRequest) -> AsyncIterator[tuple[str, str]]:
    """(name, URL) of a migrated database nobody else uses; dropped afterwards."""
    name = f"arbiter_outage_{uuid.uuid4().hex[:10]}"
    await _admin(f'CREATE DATABASE "{name}"')
    base, _, _ = postgres_url().rpartition("/")
    url = f"{base}/{name}"
    await asyncio.to_thread(upgrade, url)
    try:
        yield name, url
    finally:
        await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def _cut(name: str) -> None:
    await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    await _admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")


async def test_503_while_the_database_is_away_then_service_again(
    own_database: tuple[str, str],
) -> None:
    name, url = own_database
    server, task, address = await start_server(url, retry_after_seconds=7)
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            event = await create_round_robin(http, PLAYERS)
            result = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
            await _cut(name)
            for headers in ({}, {"Idempotency-Key": str(uuid.uuid4())}):
                down = await http.put(
                    result, json={"result": "1-0"}, headers={**event.auth(), **headers}
                )
                assert down.status_code == 503, down.text
                assert down.headers["retry-after"] == "7"
                assert down.headers["content-type"] == "application/problem+json"
                assert down.json()["type"].endswith("unavailable")
            health = await http.get("/healthz")
            assert health.status_code == 503
            assert health.json()["database"] == "unreachable"
            read = await http.get(f"/v1/tournaments/{event.id}")
            assert read.status_code == 503

            await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            back = await http.put(result, json={"result": "1-0"}, headers=event.auth())
            assert back.status_code == 200, back.text
            assert back.json()["status"] == "confirmed"
            health = await http.get("/healthz")
            assert health.status_code == 200
            assert health.json()["database"] == "ok"
    finally:
        await stop_server(server, task)


class _Reporter:
    """A mobile app reporting results: one Idempotency-Key per result, resent with the
    same key after a 503 (after its Retry-After) or a dropped connection."""

    def __init__(self, clients: list[httpx.AsyncClient], auth: dict[str, str]) -> None:
        self.clients = clients
        self.auth = auth
        self.statuses: list[int] = []
        self.bad_503s: list[str] = []
        self.dropped = 0
        self.first: dict[str, tuple[int, bytes]] = {}
        """key -> (status, body) of the first acknowledgement."""

    async def report(self, path: str, result: str, key: str, turn: int) -> None:
        for attempt in range(400):
            http = self.clients[(turn + attempt) % len(self.clients)]  # either replica
            try:
                response = await http.put(
                    path, json={"result": result}, headers={**self.auth, "Idempotency-Key": key}
                )
            except httpx.TransportError:
                self.dropped += 1
                await asyncio.sleep(0.1)
                continue
            self.statuses.append(response.status_code)
            if response.status_code == 503:
                typed = response.headers.get("content-type") == "application/problem+json"
                if not typed or "retry-after" not in response.headers:
                    self.bad_503s.append(response.text)
                await asyncio.sleep(0.1)  # the test's Retry-After is 1 s; retry sooner
                continue
            assert response.status_code == 200, response.text
            self.first.setdefault(key, (response.status_code, response.content))
            return
        raise AssertionError(f"{path}: never acknowledged")


async def _replica_event_count(server: object, tournament_id: str) -> dict[str, int]:
    """Event types and counts in the tournament's log, read through a replica's app."""
    from service.db.events import events_since

    app = server.config.app  # type: ignore[attr-defined]
    async with app.state.arbiter.sessions() as session:
        events = await events_since(session, tournament_id, 0)
    counts: dict[str, int] = {}
    for event in events:
        counts[event.type] = counts.get(event.type, 0) + 1
    return counts


async def _restart_postgresql() -> None:
    """Stop the local PostgreSQL server (fast shutdown: every session is cut), keep it
    down for 2 s, start it again and wait until it accepts connections."""
    versions = sorted(p.name for p in Path("/etc/postgresql").iterdir())
    for action in ("stop", "start"):
        for version in versions:
            command = ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action]
            process = await asyncio.create_subprocess_exec(
                *command, *(["-m", "fast"] if action == "stop" else [])
            )
            assert await process.wait() == 0, f"{' '.join(command)} failed"
        if action == "stop":
            await asyncio.sleep(2)
    for _ in range(300):
        with contextlib.suppress(Exception):
            await _admin("SELECT 1")
            return
        await asyncio.sleep(0.1)
    raise AssertionError("PostgreSQL did not come back")


async def _refuse_for_3_seconds(name: str) -> None:
    """The database refuses connections for 3 s and its sessions are killed (as a
    restart does to them), the server itself staying up."""
    await _cut(name)
    await asyncio.sleep(3)
    await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


@pytest.mark.parametrize("outage", ["database-refuses", "server-restarts"])
async def test_two_replicas_ride_out_a_database_restart_under_load(
    own_database: tuple[str, str], outage: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Four reporters keep writing through two replicas while the database is
    away: its connections refused for 3 s, or the PostgreSQL server itself stopped and
    started again. While it is down every answer is a 503 problem with Retry-After;
    afterwards both replicas write again without a restart; every result is stored
    exactly once and every key replays its first answer; a write on one replica
    reaches a spectator of the other. No error escapes to the server's log as an
    unhandled exception."""
    import websockets

    from tests.live.follower import Follower

    name, url = own_database
    options: dict[str, Any] = {"retry_after_seconds": 1, "rate_limits_enabled": False}
    server_a, task_a, a = await start_server(url, **options)
    server_b, task_b, b = await start_server(url, **options)
    # uvicorn's loggers do not propagate, and its start-up resets their handlers
    server_log = logging.getLogger("uvicorn.error")
    server_log.addHandler(caplog.handler)
    try:
        async with (
            httpx.AsyncClient(base_url=f"http://{a}", timeout=30) as http_a,
            httpx.AsyncClient(base_url=f"http://{b}", timeout=30) as http_b,
        ):
            field = [(f"Player {n:02d}", 2400 - 10 * n) for n in range(1, 17)]
            event = await create_round_robin(http_a, field)  # 16 players: 120 games
            rounds = [
                (await http_a.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
                for n in range(1, 16)
            ]
            work = [
                (f"/v1/tournaments/{event.id}/rounds/{n}/games/{g['table']}/result", g)
                for n, games in enumerate(rounds, start=1)
                for g in games
            ]
            results = {path: ("1-0", "0-1", "1/2-1/2")[i % 3] for i, (path, _) in enumerate(work)}
            keys = {path: str(uuid.uuid4()) for path, _ in work}
            reporter = _Reporter([http_a, http_b], event.auth())

            async def reporting(share: list[str], turn: int) -> None:
                for path in share:
                    await reporter.report(path, results[path], keys[path], turn)
                    await asyncio.sleep(0.02)

            paths = [path for path, _ in work]
            load = [asyncio.create_task(reporting(paths[i::4], i)) for i in range(4)]
            await asyncio.sleep(0.8)
            if outage == "server-restarts":
                await _restart_postgresql()
            else:
                await _refuse_for_3_seconds(name)
            await asyncio.wait_for(asyncio.gather(*load), timeout=90)

            assert 503 in reporter.statuses, "the outage met no write"
            unhandled = [r for r in caplog.records if "Exception in ASGI" in r.getMessage()]
            assert unhandled == [], "an outage error escaped the app's own handling"
            assert set(reporter.statuses) <= {200, 503}
            assert reporter.bad_503s == []
            print(
                f"\n{len(work)} results: {reporter.statuses.count(503)} x 503 while down, "
                f"{reporter.dropped} dropped connections, all acknowledged"
            )
            # exactly once: every game holds its result, one result event per game
            for number in range(1, 16):
                stored = await http_b.get(f"/v1/tournaments/{event.id}/rounds/{number}")
                for game in stored.json()["games"]:
                    path = (
                        f"/v1/tournaments/{event.id}/rounds/{number}/games/{game['table']}/result"
                    )
                    assert game["result"] == results[path]
            counts = await _replica_event_count(server_b, event.id)
            assert counts.get("result_confirmed", 0) == len(work), counts
            # every key replays its first acknowledgement, through either replica
            for i, path in enumerate(paths):
                http = (http_a, http_b)[i % 2]
                again = await http.put(
                    path,
                    json={"result": results[path]},
                    headers={**event.auth(), "Idempotency-Key": keys[path]},
                )
                assert (again.status_code, again.content) == reporter.first[keys[path]]
            # cross-replica delivery once the database is back
            board = Follower()
            async with websockets.connect(f"ws://{b}/v1/tournaments/{event.id}/live") as ws:
                await board.receive(ws)
                start = board.seq
                assert start is not None
                sent = asyncio.get_running_loop().time()
                corrected = await http_a.put(
                    paths[0], json={"result": "1/2-1/2"}, headers=event.auth()
                )
                assert corrected.status_code == 200, corrected.text
                await asyncio.wait_for(board.until(ws, start + 1), timeout=5)
                lag = asyncio.get_running_loop().time() - sent
            print(f"cross-replica delivery after the outage: {lag * 1000:.0f} ms")
    finally:
        server_log.removeHandler(caplog.handler)
        await stop_server(server_a, task_a)
        await stop_server(server_b, task_b)
