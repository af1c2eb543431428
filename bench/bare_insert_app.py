"""The baseline for bench_writes.py: a bare FastAPI + asyncpg endpoint that inserts one
row per PUT (no auth, no locking, no event log, no idempotency). Run by the bench as
`uvicorn --factory bench.bare_insert_app:create` with BARE_DSN set."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from fastapi import FastAPI, Request


def create() -> FastAPI:
    """The baseline app; its pool has the size of SQLAlchemy's default (5 + 10)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = await asyncpg.create_pool(os.environ["BARE_DSN"], min_size=5, max_size=15)
        async with pool.acquire() as connection:
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS bare_results "
                "(id serial PRIMARY KEY, game int NOT NULL, result text NOT NULL)"
            )
        app.state.pool = pool
        yield
        await pool.close()

    app = FastAPI(lifespan=lifespan)

    @app.put("/games/{game}/result")
    async def put_result(game: int, body: dict[str, Any], request: Request) -> dict[str, Any]:
        async with request.app.state.pool.acquire() as connection:
            await connection.execute(
                "INSERT INTO bare_results (game, result) VALUES ($1, $2)", game, body["result"]
            )
        return {"game": game, "result": body["result"]}

    return app
