"""`events.load_locked`: a result report's tournament is loaded and locked by one
statement (the report's `lock_and_reload` then finds the lock held), on each backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import event, text

from service.api.app import create_app
from service.config import Settings
from service.db.events import holds_lock, load_locked, lock_and_reload
from service.db.tables import TournamentRow
from tests.api.conftest import create_round_robin
from tests.db_backends import on_backends


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    application = create_app(Settings(database_url=database_url, rate_limits_enabled=False))
    async with application.router.lifespan_context(application):
        yield application


async def _tournament(app: FastAPI) -> str:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://t"
    ) as client:
        made = await create_round_robin(client, [("Ann", 2100), ("Bob", 2000)])
    return made.id


async def test_one_statement_loads_and_locks_and_the_next_calls_make_none(app: FastAPI) -> None:
    tournament_id = await _tournament(app)
    state = app.state.arbiter
    async with state.sessions() as session:
        # the row as another writer left it: the locked load reads it whole
        await session.exec(
            text("UPDATE tournaments SET last_seq = last_seq + 5 WHERE id = :id"),
            params={"id": tournament_id},
        )
        await session.commit()
        statements: list[str] = []

        def count(*args: Any) -> None:
            statements.append(args[2])

        sync_engine = state.db_engine.sync_engine
        event.listen(sync_engine, "before_cursor_execute", count)
        try:
            row = await load_locked(session, tournament_id)
            assert isinstance(row, TournamentRow) and row.id == tournament_id
            assert len(statements) == 1 and statements[0].lstrip().upper().startswith("UPDATE")
            assert holds_lock(session, tournament_id)
            assert await load_locked(session, tournament_id) is row
            await lock_and_reload(session, row)  # the report's own lock: already held
            assert len(statements) == 1
        finally:
            event.remove(sync_engine, "before_cursor_execute", count)
        seq = row.last_seq
        await session.rollback()
        assert not holds_lock(session, tournament_id)
    async with state.sessions() as session:
        fresh = await session.get(TournamentRow, tournament_id)
        assert fresh is not None and fresh.last_seq == seq


async def test_an_unknown_tournament_is_none_and_locks_nothing(app: FastAPI) -> None:
    async with app.state.arbiter.sessions() as session:
        assert await load_locked(session, "t-missing") is None
        assert not holds_lock(session, "t-missing")


@on_backends("postgresql")  # row locks are PostgreSQL's; SQLite's locks the whole database
async def test_the_row_stays_locked_until_the_transaction_ends(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, rate_limits_enabled=False))
    async with app.router.lifespan_context(app):
        await _hold_and_probe(app, database_url)


async def _hold_and_probe(app: FastAPI, database_url: str) -> None:
    tournament_id = await _tournament(app)
    other = await asyncpg.connect(database_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        async with app.state.arbiter.sessions() as session:
            assert await load_locked(session, tournament_id) is not None
            with pytest.raises(asyncpg.LockNotAvailableError):
                await other.execute(
                    "SELECT 1 FROM tournaments WHERE id = $1 FOR UPDATE NOWAIT", tournament_id
                )
            await session.commit()
        assert await other.fetchval(
            "SELECT 1 FROM tournaments WHERE id = $1 FOR UPDATE NOWAIT", tournament_id
        )
    finally:
        await other.close()
