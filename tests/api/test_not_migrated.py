"""A server on a database without this release's schema (db/schema.py, db/failures.py):
`/healthz` says "not migrated" and every request that reaches the database answers 503
naming `arbiter migrate`, instead of a 500; once migrated, both come back by themselves.
A database migrated for a newer release is not flagged (a rolling deployment migrates
first, while the older replicas still serve)."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.config import Settings
from service.db.failures import is_not_migrated
from service.db.migrate import upgrade
from service.db.schema import NOT_MIGRATED, earlier_revisions
from tests.db_backends import BACKENDS, _admin, _with_database, postgres_url


@pytest.fixture(params=BACKENDS)
def bare_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database that nothing has migrated, on each backend."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'bare.db'}"
        return
    server, name = postgres_url(), f"arbiter_bare_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(server, f'CREATE DATABASE "{name}"'))
    try:
        yield _with_database(server, name)
    finally:
        asyncio.run(_admin(server, f'DROP DATABASE "{name}" WITH (FORCE)'))


@pytest.fixture
async def client(bare_url: str) -> AsyncIterator[httpx.AsyncClient]:
    app: FastAPI = create_app(Settings(database_url=bare_url))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
    ):
        yield c


async def _create(client: httpx.AsyncClient) -> httpx.Response:
    return await client.post("/v1/tournaments", json={"name": "Open", "system": "round-robin"})


def _says_migrate(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["retry-after"]
    problem = response.json()
    assert problem["field"] == "database"
    assert "arbiter migrate" in problem["detail"]


async def test_a_database_never_migrated(client: httpx.AsyncClient, bare_url: str) -> None:
    health = await client.get("/healthz")
    assert (health.status_code, health.json()["database"]) == (503, NOT_MIGRATED)
    _says_migrate(await _create(client))
    _says_migrate(await client.get("/v1/tournaments/t-missing/standings"))

    await asyncio.to_thread(upgrade, bare_url)
    health = await client.get("/healthz")
    assert (health.status_code, health.json()["database"]) == (200, "ok")
    assert (await _create(client)).status_code == 201


async def _register_team(client: httpx.AsyncClient) -> httpx.Response:
    """A request that needs the head's schema (0013: the `teams.awarded` column)."""
    created = await client.post(
        "/v1/tournaments",
        json={"name": "League", "system": "team-round-robin", "team": {"boards": 1}},
    )
    assert created.status_code == 201, created.text
    return await client.post(
        f"/v1/tournaments/{created.json()['id']}/teams",
        json={"name": "A", "players": [{"name": "Ann"}]},
        headers={"Authorization": f"Bearer {created.json()['organizer_token']}"},
    )


async def test_a_database_of_an_older_release(client: httpx.AsyncClient, bare_url: str) -> None:
    older = max(earlier_revisions())
    await asyncio.to_thread(upgrade, bare_url, older)
    health = await client.get("/healthz")
    assert (health.status_code, health.json()["database"]) == (503, NOT_MIGRATED)
    _says_migrate(await _register_team(client))

    await asyncio.to_thread(upgrade, bare_url)
    assert (await client.get("/healthz")).status_code == 200
    assert (await _register_team(client)).status_code == 201


async def _start_and_read_log(url: str, caplog: pytest.LogCaptureFixture) -> list[str]:
    """Start an app on `url` (its lifespan) and return what "arbiter.api" logged."""
    app: FastAPI = create_app(Settings(database_url=url))
    with caplog.at_level(logging.WARNING, logger="arbiter.api"):
        async with app.router.lifespan_context(app):
            pass
    return [r.getMessage() for r in caplog.records if r.name == "arbiter.api"]


async def test_the_start_up_log_names_the_cure(
    bare_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    said = await _start_and_read_log(bare_url, caplog)
    assert len(said) == 1 and "run `arbiter migrate`" in said[0], said

    caplog.clear()
    await asyncio.to_thread(upgrade, bare_url)
    assert await _start_and_read_log(bare_url, caplog) == []


async def test_a_database_down_at_start_up_is_logged_and_the_server_starts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # a closed port: nothing listens on port 1 of the loopback
    said = await _start_and_read_log("postgresql+asyncpg://postgres@127.0.0.1:1/none", caplog)
    assert len(said) == 1 and "did not answer at start-up" in said[0], said


def test_this_releases_earlier_revisions_are_read_from_its_migrations() -> None:
    revisions = earlier_revisions()
    assert {"0001", "0012"} <= revisions and "0013" not in revisions  # 0013: the head


class _Driver(Exception):
    def __init__(self, text: str, sqlstate: str = "") -> None:
        super().__init__(text)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("error", "missing"),
    [
        (_Driver('relation "tournaments" does not exist', "42P01"), True),
        (_Driver('column "kind" does not exist', "42703"), True),
        (_Driver("no such table: tournaments"), True),
        (_Driver("table games has no column named shortened_minutes"), True),
        (_Driver("duplicate key value violates unique constraint", "23505"), False),
        (_Driver("database is locked"), False),
    ],
)
def test_what_counts_as_a_missing_schema(error: Exception, missing: bool) -> None:
    wrapped = RuntimeError("statement failed")
    wrapped.__cause__ = error
    assert is_not_migrated(wrapped) is missing
