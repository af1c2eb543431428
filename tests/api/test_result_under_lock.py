"""PostgreSQL: a result report reads its game as the tournament's previous lock holder
left it. A statement's snapshot is taken before it waits for a lock, so the game must
be read by a statement after the lock is granted (`events.lock_and_reload`, then
`game_reads.find_game`); reading it in the locking statement would read it stale
(docs/decisions/write-round-trips.md)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import create_round_robin
from tests.db_backends import on_backends

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


pytestmark = on_backends("postgresql")  # row locks and snapshots are PostgreSQL's


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The app, with lock waits long enough for the test to act while one waits."""
    settings = Settings(database_url=database_url, lock_wait_seconds=30, rate_limits_enabled=False)
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


async def _waiting_for_a_lock(admin: asyncpg.Connection) -> None:
    """Until another session of this database waits for a lock."""
    while not await admin.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid != pg_backend_pid() AND wait_event_type = 'Lock'"
    ):
        await asyncio.sleep(0.01)


async def _report_while_the_holder_acts(
    app: FastAPI,
    client: httpx.AsyncClient,
    path: str,
    headers: dict[str, str],
    tournament_id: str,
    act: str,
    *args: object,
) -> httpx.Response:
    """Hold the tournament's lock, send a 1/2-1/2 report to `path`, and once it waits for
    the lock run `act` in the holder's transaction and commit."""
    url = app.state.arbiter.settings.database_url.replace("postgresql+asyncpg://", "postgresql://")
    admin = await asyncpg.connect(url)
    try:
        holder = admin.transaction()
        await holder.start()
        await admin.execute(
            "UPDATE tournaments SET last_seq = last_seq WHERE id = $1", tournament_id
        )
        report = asyncio.create_task(client.put(path, json={"result": "1/2-1/2"}, headers=headers))
        watcher = await asyncpg.connect(url)
        try:
            await asyncio.wait_for(_waiting_for_a_lock(watcher), 10)
        finally:
            await watcher.close()
        await admin.execute(act, *args)
        await holder.commit()
        return await asyncio.wait_for(report, 10)
    finally:
        await admin.close()


async def test_a_report_waiting_for_the_lock_sees_the_game_as_the_holder_left_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    event = await create_round_robin(client, PLAYERS)
    game = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"][0]
    # meanwhile the holder records the black player's report (as a writer would)
    answer = await _report_while_the_holder_acts(
        app,
        client,
        f"/v1/tournaments/{event.id}/rounds/1/games/{game['table']}/result",
        event.auth(game["white"]),
        event.id,
        "UPDATE games SET status = 'provisional', reports = $1::jsonb "
        "WHERE tournament_id = $2 AND round = 1 AND table_no = $3",
        json.dumps({"black": "1/2-1/2"}),
        event.id,
        game["table"],
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "confirmed"  # the opponent's report was seen
    assert answer.json()["reports"] == {"white": "1/2-1/2", "black": "1/2-1/2"}


async def test_a_game_stored_while_the_report_waited_is_found(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """A game stored by the lock's holder while the report waited (a round paired
    meanwhile) is found: 200, not 404."""
    event = await create_round_robin(client, PLAYERS)
    answer = await _report_while_the_holder_acts(
        app,
        client,
        f"/v1/tournaments/{event.id}/rounds/4/games/1/result",
        event.auth(),
        event.id,
        "INSERT INTO games (tournament_id, round, table_no, white, black, status, reports, "
        "extra) VALUES ($1, 4, 1, 1, 2, 'pending', '{}', '{}')",
        event.id,
    )
    assert answer.status_code == 200, answer.text
    assert (answer.json()["white"], answer.json()["result"]) == (1, "1/2-1/2")
