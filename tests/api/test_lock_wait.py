"""PostgreSQL: every lock wait of the API is bounded (`lock_wait_seconds`, the
connection's `lock_timeout`), and a pooled connection the server has closed is never
handed to a request: outages answer 503, and service resumes by itself
(docs/api.md#outages)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.api.idempotency_records import RequestParts
from service.config import Settings
from tests.api.conftest import create_round_robin
from tests.db_backends import on_backends

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
WAIT = 0.5
"""The app's `lock_wait_seconds` in these tests."""


pytestmark = on_backends("postgresql")  # these are PostgreSQL's own behaviours


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The app with lock waits bounded to `WAIT` seconds, its lifespan running (the
    package's `client` fixture talks to it)."""
    application = create_app(
        Settings(database_url=database_url, lock_wait_seconds=WAIT, rate_limits_enabled=False)
    )
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def admin(app: FastAPI) -> AsyncIterator[asyncpg.Connection]:
    """A connection of its own to the app's database, for holding locks."""
    url = app.state.arbiter.settings.database_url
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        yield connection
    finally:
        await connection.close()


async def test_a_write_waiting_past_the_lock_wait_is_a_503_that_changed_nothing(
    client: httpx.AsyncClient, admin: asyncpg.Connection
) -> None:
    event = await create_round_robin(client, PLAYERS)
    path = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    holder = admin.transaction()
    await holder.start()
    await admin.execute("UPDATE tournaments SET last_seq = last_seq WHERE id = $1", event.id)
    try:
        for headers in ({}, {"Idempotency-Key": str(uuid.uuid4())}):
            started = time.monotonic()
            busy = await client.put(
                path, json={"result": "1-0"}, headers={**event.auth(), **headers}
            )
            waited = time.monotonic() - started
            assert busy.status_code == 503, busy.text
            assert busy.headers["content-type"] == "application/problem+json"
            assert busy.headers["retry-after"]
            assert "another write has held this tournament" in busy.json()["detail"]
            assert waited >= WAIT * 0.9
    finally:
        await holder.rollback()
    game = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"][0]
    assert game["result"] is None
    done = await client.put(path, json={"result": "1-0"}, headers=event.auth())
    assert done.status_code == 200, done.text


async def test_a_retry_waiting_past_the_lock_wait_for_its_first_request_is_a_409(
    client: httpx.AsyncClient, admin: asyncpg.Connection
) -> None:
    event = await create_round_robin(client, PLAYERS)
    path = f"/v1/tournaments/{event.id}/rounds/1/games/2/result"
    key = str(uuid.uuid4())
    authorization = event.auth()["Authorization"]
    lookup = RequestParts("PUT", path, authorization, key).lookup
    first = admin.transaction()  # the first request with this key, still running
    await first.start()
    await admin.execute(
        "INSERT INTO idempotency_keys (key, request_hash, state, headers, created_at) "
        "VALUES ($1, 'x', 'in-flight', '{}', now())",
        lookup,
    )
    try:
        retry = await client.put(
            path, json={"result": "0-1"}, headers={**event.auth(), "Idempotency-Key": key}
        )
    finally:
        await first.rollback()
    assert retry.status_code == 409, retry.text
    assert retry.json()["field"] == "Idempotency-Key"
    again = await client.put(
        path, json={"result": "0-1"}, headers={**event.auth(), "Idempotency-Key": key}
    )
    assert again.status_code == 200, again.text


async def test_pooled_connections_the_server_closed_are_replaced_unseen(
    client: httpx.AsyncClient, admin: asyncpg.Connection
) -> None:
    """Without a ping per checkout: the sessions are terminated (as a restart does), and
    the next requests are answered as if nothing had happened."""
    event = await create_round_robin(client, PLAYERS)
    assert (await client.get(f"/v1/tournaments/{event.id}")).status_code == 200
    terminated = await admin.fetchval(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND backend_type = 'client backend'"
    )
    assert terminated >= 1
    await asyncio.sleep(0.2)  # the terminations reach the pooled sockets
    read = await client.get(f"/v1/tournaments/{event.id}")
    assert read.status_code == 200, read.text
    write = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
        json={"result": "1/2-1/2"},
        headers=event.auth(),
    )
    assert write.status_code == 200, write.text
