"""The statements `service.db.columns` runs on the driver itself (a reported result's, a
tournament's bulk reads), and its fallback: with `driver_statements` off they go through
SQLAlchemy like every other statement, and store and answer the same. On SQLite and
PostgreSQL; the SQLAlchemy and asyncpg parts the driver path uses are checked to be
there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest
import sqlalchemy
from fastapi import FastAPI
from sqlalchemy import event

from service.api.app import create_app
from service.config import Settings
from service.db.columns import missing_internals
from service.db.events import events_since
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


def test_what_the_driver_path_uses_is_there() -> None:
    """A SQLAlchemy or asyncpg release that changed it fails here, before any write
    takes the path."""
    missing = missing_internals()
    assert missing == [], (
        f"SQLAlchemy {sqlalchemy.__version__} / asyncpg {asyncpg.__version__} lack what "
        f"service/db/columns.py uses: {'; '.join(missing)}. Set "
        "ARBITER_DRIVER_STATEMENTS=false (every statement through SQLAlchemy) until the "
        "module follows."
    )


def test_a_missing_part_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail."""
    monkeypatch.delattr(asyncpg.Connection, "fetchrow")
    assert missing_internals() == ["asyncpg Connection.fetchrow"]


@pytest.fixture(params=[True, False], ids=["on-the-driver", "through-sqlalchemy"])
async def app(request: pytest.FixtureRequest, database_url: str) -> AsyncIterator[FastAPI]:
    application = create_app(Settings(database_url=database_url, driver_statements=request.param))
    async with application.router.lifespan_context(application):
        yield application


def _seen_by_sqlalchemy(app: FastAPI) -> list[str]:
    """The SQL of every statement SQLAlchemy executes from now on (writers' and readers'
    engines)."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))

    state = app.state.arbiter
    for engine in filter(None, (state.db_engine, state.read_db_engine)):
        event.listen(engine.sync_engine, "before_cursor_execute", record)
    return seen


async def test_a_reported_result_and_a_cold_read(app: FastAPI) -> None:
    """The result's statements (and on PostgreSQL the tournament's bulk reads) bypass
    SQLAlchemy on the driver path and go through it on the fallback; either way the
    game, its event and what is read back are the same."""
    on_driver = app.state.arbiter.settings.driver_statements
    postgres = app.state.arbiter.db_engine.dialect.name == "postgresql"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://t"
    ) as client:
        tournament = await create_round_robin(client, PLAYERS)
        seen = _seen_by_sqlalchemy(app)
        answer = await client.put(
            f"/v1/tournaments/{tournament.id}/rounds/1/games/1/result",
            json={"result": "1-0"},
            headers={**tournament.auth(), "Idempotency-Key": "driver-statements-1"},
        )
        assert answer.status_code == 200, answer.text
        assert (answer.json()["result"], answer.json()["status"]) == ("1-0", "confirmed")
        stats = await client.get(f"/v1/tournaments/{tournament.id}/stats")  # a cold read
        assert stats.status_code == 200, stats.text
        standings = (await client.get(f"/v1/tournaments/{tournament.id}/standings")).json()
    stored = [sql for sql in seen if sql.startswith(("UPDATE games SET result", "WITH changed"))]
    assert bool(stored) is not on_driver
    games = [sql for sql in seen if sql.startswith("SELECT games.round, games.table_no")]
    assert bool(games) is not (on_driver and postgres)
    assert sorted(row["points"] for row in standings["rows"]) == [0, 0, 0, 1]
    async with app.state.arbiter.sessions() as session:
        last = (await events_since(session, tournament.id, 0))[-1]
    assert last.type == "result_confirmed"
    assert isinstance(last.payload, dict) and last.payload["result"] == "1-0"  # JSON, once
