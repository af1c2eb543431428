"""PostgreSQL: the API's pools. Reads have their own, so writers queued on tournaments'
locks, holding every connection of the writers' pool, never hold up a read
(docs/decisions/connection-pools.md: `GET /standings` and `/healthz` answer while
results queue); the writers' pool has the
size the operator sets (docs/operations.md, PostgreSQL)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import create_round_robin
from tests.db_backends import on_backends

PLAYERS = [(f"Player {n:02d}", 2400 - n) for n in range(4)]
READ_POOL = 5
REACHABLE = 10.0
"""Seconds a read gets (the writers here wait up to 60 s for the lock, and SQLAlchemy's
pool makes a request wait 30 s for a connection): a read answers at once or not at all."""


pytestmark = on_backends("postgresql")  # the pools of PostgreSQL


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The app with the readers' pool, its lifespan running."""
    settings = Settings(
        database_url=database_url,
        lock_wait_seconds=60,
        rate_limits_enabled=False,
        read_pool_size=READ_POOL,
    )
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


async def test_reads_answer_while_queued_writers_hold_every_writer_connection(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    writers_pool = app.state.arbiter.db_engine.pool
    capacity = writers_pool.size() + writers_pool._max_overflow  # 5 + 10
    # one tournament per writer: the writers of one tournament queue in the app's write queue
    # (app.write_queue) holding no connection, so only writers of many tournaments can
    # take every connection
    events = [await create_round_robin(client, PLAYERS) for _ in range(capacity + 5)]
    url = app.state.arbiter.settings.database_url.replace("postgresql+asyncpg://", "postgresql://")
    holder = await asyncpg.connect(url)
    lock = holder.transaction()
    await lock.start()
    await holder.execute(
        "UPDATE tournaments SET last_seq = last_seq WHERE id = ANY($1::text[])",
        [event.id for event in events],
    )
    writes = [
        asyncio.create_task(
            client.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
                json={"result": "1-0"},
                headers={**event.auth(), "Idempotency-Key": str(uuid.uuid4())},
            )
        )
        for event in events
    ]
    try:
        async with asyncio.timeout(REACHABLE):
            while writers_pool.checkedout() < capacity:  # every writer connection is taken
                await asyncio.sleep(0.02)
        event = events[0]
        for path in (
            "/healthz",
            f"/v1/tournaments/{event.id}",
            f"/v1/tournaments/{event.id}/standings",
            f"/v1/tournaments/{event.id}/rounds/1",
        ):
            read = await asyncio.wait_for(client.get(path), REACHABLE)
            assert read.status_code == 200, (path, read.text)
        assert not any(write.done() for write in writes)  # all still queued behind the lock
    finally:
        await lock.rollback()
        await holder.close()
    answers = await asyncio.gather(*writes)
    assert [a.status_code for a in answers] == [200] * len(writes)
    for event in events:
        round_one = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
        assert next(g for g in round_one["games"] if g["table"] == 1)["result"] == "1-0"


async def test_the_writers_pool_has_the_size_set_and_no_overflow(database_url: str) -> None:
    """`write_pool_size` (ARBITER_WRITE_POOL_SIZE): that many writer connections, no
    overflow, so writers past them queue in the app, first come first served."""
    settings = Settings(database_url=database_url, write_pool_size=3, rate_limits_enabled=False)
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        pool = application.state.arbiter.db_engine.pool
        assert (pool.size(), pool._max_overflow) == (3, 0)
        readers = application.state.arbiter.read_db_engine.pool
        assert (readers.size(), readers._max_overflow) == (READ_POOL, 0)
    unset = create_app(Settings(database_url=database_url, rate_limits_enabled=False))
    async with unset.router.lifespan_context(unset):
        pool = unset.state.arbiter.db_engine.pool
        assert (pool.size(), pool._max_overflow) == (5, 10)  # SQLAlchemy's default
