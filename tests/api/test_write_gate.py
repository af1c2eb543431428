"""The writers of one tournament queue at this process's gate (`app.write_gate`) before
they open a transaction; a wait there is bounded like a lock wait in the database: 503
with `Retry-After`, nothing written (issue 12), on both databases."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.config import Settings
from service.db.events import events_since
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
WAIT = 0.3
"""The app's `lock_wait_seconds` in these tests."""


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The app with waits bounded to `WAIT` seconds (the package's `client` uses it)."""
    application = create_app(
        Settings(database_url=database_url, lock_wait_seconds=WAIT, rate_limits_enabled=False)
    )
    async with application.router.lifespan_context(application):
        yield application


async def test_a_write_held_at_the_gate_past_the_wait_is_a_503_that_changed_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    event = await create_round_robin(client, PLAYERS)
    path = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    async with app.state.arbiter.gates.hold(f"tournaments/{event.id}"):
        for headers in ({}, {"Idempotency-Key": str(uuid.uuid4())}):
            started = time.monotonic()
            busy = await client.put(
                path, json={"result": "1-0"}, headers={**event.auth(), **headers}
            )
            assert busy.status_code == 503, busy.text
            assert time.monotonic() - started >= WAIT * 0.9
            assert busy.headers["content-type"] == "application/problem+json"
            assert busy.headers["retry-after"]
            assert "another write has held this tournament" in busy.json()["detail"]
        # reads and other tournaments are not behind the gate
        assert (await client.get(f"/v1/tournaments/{event.id}/standings")).status_code == 200
        other = await create_round_robin(client, PLAYERS)
        elsewhere = await client.put(
            f"/v1/tournaments/{other.id}/rounds/1/games/1/result",
            json={"result": "1-0"},
            headers=other.auth(),
        )
        assert elsewhere.status_code == 200, elsewhere.text
    game = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"][0]
    assert game["result"] is None
    done = await client.put(path, json={"result": "1-0"}, headers=event.auth())
    assert done.status_code == 200, done.text


async def test_writes_queued_at_the_gate_all_land_in_order_once_it_opens(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    event = await create_round_robin(client, PLAYERS)
    gates = app.state.arbiter.gates
    base = f"/v1/tournaments/{event.id}/rounds"
    reports = [(1, 1, "1-0"), (1, 2, "0-1"), (2, 1, "1/2-1/2"), (2, 2, "1-0")]
    async with gates.hold(f"tournaments/{event.id}"):
        queued = [
            asyncio.create_task(
                client.put(
                    f"{base}/{round_number}/games/{table}/result",
                    json={"result": result},
                    headers={**event.auth(), "Idempotency-Key": str(uuid.uuid4())},
                )
            )
            for round_number, table, result in reports
        ]
        await asyncio.sleep(WAIT / 3)
        assert not any(task.done() for task in queued)
    answers = await asyncio.gather(*queued)
    assert [a.status_code for a in answers] == [200] * len(reports)
    async with app.state.arbiter.sessions() as session:
        logged = await events_since(session, event.id, 0)
    stored = [
        (e.payload["round"], e.payload["table"]) for e in logged if e.type.startswith("result")
    ]
    assert stored == [(r, t) for r, t, _ in reports]  # first come, first served
    for round_number, table, result in reports:
        games = (await client.get(f"{base}/{round_number}")).json()["games"]
        assert next(g for g in games if g["table"] == table)["result"] == result
    assert len(gates) == 0
