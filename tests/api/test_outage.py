"""The database goes away under a running server (issue 12, finding 6): writes answer
503 problem+json with Retry-After, /healthz says which part is down, and the server
serves again once the database is back, without a restart.

PostgreSQL only (the server stays up while its database refuses connections); the
suite runs it whenever ARBITER_TEST_DATABASE_URL is set, as CI does. The outage is
made on a database of its own (`ALLOW_CONNECTIONS false` and `pg_terminate_backend`),
so other users of the server are not disturbed.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

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
