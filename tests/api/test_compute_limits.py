"""The bounds of stateless compute, as documented (service/config.py `compute_*`): a
field larger than `compute_max_players` is 422 `compute-too-large`; a second
computation from an address that has one running is 429 `rate-limited`; one more than
the queue holds is 503 `compute-busy`; a computation past `compute_seconds` is stopped
(its worker killed and replaced) and answered 422 `compute-timeout`. Each problem names
its setting, and nothing else waits for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.app.compute_pool import ComputePool
from service.config import Settings
from tests.api.test_compute_isolation import start_list
from tests.db_backends import prepared_database

PREFIX = "urn:arbiter:problem:"
TRF = {"content-type": "text/plain"}
SMALL = start_list(6).encode()


@pytest.fixture
def database(tmp_path: Path) -> str:
    """A migrated SQLite file: compute reads no database, any backend will do."""
    return next(prepared_database("sqlite", tmp_path))


async def _app(database: str, **settings: object) -> AsyncIterator[FastAPI]:
    application = create_app(Settings(database_url=database, **settings))  # type: ignore[arg-type]
    async with application.router.lifespan_context(application):
        yield application


def _client(app: FastAPI, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://arbiter.test", timeout=60)


def _problem(response: httpx.Response, status: int, slug: str) -> dict[str, object]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, object] = response.json()
    assert body["type"] == PREFIX + slug
    return body


async def _until_running(pool: ComputePool) -> None:
    """Wait (10 s at most) until a worker is running a computation."""
    for _ in range(1000):
        if pool.running:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no computation started")


async def test_a_field_past_the_bound_is_422_naming_players(database: str) -> None:
    async for app in _app(database):
        async with _client(app, "10.0.0.1") as client:
            trf = await client.post(
                "/v1/compute/pairings", content=start_list(1001).encode(), headers=TRF
            )
            body = _problem(trf, 422, "compute-too-large")
            assert body["field"] == "players" and body["max_players"] == 1000
            assert "ARBITER_COMPUTE_MAX_PLAYERS" in str(body["detail"])
            players = [{"id": n} for n in range(1001)]
            json = await client.post("/v1/compute/pairings", json={"players": players})
            assert _problem(json, 422, "compute-too-large")["field"] == "players"
            largest = await client.post(
                "/v1/compute/pairings", json={"players": players[:1000], "rounds": 1}
            )
            assert largest.status_code == 200, largest.text


async def test_the_allowances_and_the_time_bound(database: str) -> None:
    """One address's long computation runs; its second is 429, another address's is
    503 (no queue), and the long one is stopped at the time bound; the replaced worker
    then answers."""
    async for app in _app(database, compute_seconds=1.5, compute_queue=0, compute_max_players=2000):
        pool = app.state.arbiter.compute
        async with _client(app, "10.0.0.2") as venue, _client(app, "10.0.0.3") as other:
            long = asyncio.create_task(
                venue.post("/v1/compute/pairings", content=start_list(2000).encode(), headers=TRF)
            )
            await _until_running(pool)
            again = await venue.post("/v1/compute/pairings", content=SMALL, headers=TRF)
            limited = _problem(again, 429, "rate-limited")
            assert "ARBITER_COMPUTE_PER_CLIENT" in str(limited["detail"])
            assert again.headers["retry-after"] == "1" and limited["retry_after"] == 1
            busy = await other.post("/v1/compute/standings", content=SMALL, headers=TRF)
            queued = _problem(busy, 503, "compute-busy")
            assert "ARBITER_COMPUTE_QUEUE" in str(queued["detail"])
            assert busy.headers["retry-after"] == "5"
            stopped = _problem(await long, 422, "compute-timeout")
            assert "ARBITER_COMPUTE_SECONDS" in str(stopped["detail"])
            after = await venue.post("/v1/compute/pairings", content=SMALL, headers=TRF)
            assert after.status_code == 200, after.text
            assert len(after.json()["pairings"]) == 3
