"""`arbiter serve` on the libraries as they ship: asyncio's own event loop
(ARBITER_SPECTATOR_LOOP=false), aiosqlite's own connection
(ARBITER_SQLITE_ONE_TRIP_DRIVER=false) and every statement through SQLAlchemy
(ARBITER_DRIVER_STATEMENTS=false), the fallbacks of the three modules that build on
those libraries' internals. A tournament is created, started, reported and followed
live, on SQLite, on PostgreSQL, and over a Redis bus."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from tests.api.conftest import create_round_robin
from tests.db_backends import BACKENDS, prepared_database
from tests.live.conftest import REDIS_URL, serve_process
from tests.live.follower import Follower

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]

STOCK = {
    "ARBITER_SPECTATOR_LOOP": "false",
    "ARBITER_SQLITE_ONE_TRIP_DRIVER": "false",
    "ARBITER_DRIVER_STATEMENTS": "false",
}

SETUPS = [*BACKENDS, *(["postgresql-redis"] if REDIS_URL and "postgresql" in BACKENDS else [])]


@pytest.fixture(params=SETUPS)
def setup(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """A migrated database and the server's environment: the stock libraries, and on
    `postgresql-redis` the Redis bus in a namespace of the test's own."""
    backend, _, bus = str(request.param).partition("-")
    env = dict(STOCK)
    if bus:
        env |= {"ARBITER_BUS_URL": REDIS_URL, "ARBITER_BUS_NAMESPACE": f"t{secrets.token_hex(4)}"}
    for url in prepared_database(backend, tmp_path):
        yield url, env


async def test_a_tournament_is_played_and_followed_on_the_stock_libraries(
    setup: tuple[str, dict[str, str]],
) -> None:
    database_url, env = setup
    async with (
        serve_process(database_url, env=env) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http,
    ):
        event = await create_round_robin(http, PLAYERS)
        board = Follower()
        async with websockets.connect(f"ws://{address}/v1/tournaments/{event.id}/live") as ws:
            await board.receive(ws)
            assert board.seq is not None
            reported = await http.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
                json={"result": "1-0"},
                headers={**event.auth(), "Idempotency-Key": secrets.token_hex(16)},
            )
            assert reported.status_code == 200, reported.text
            assert reported.json()["status"] == "confirmed"
            await board.until(ws, board.seq + 1)
        assert [m["payload"]["table"] for m in board.events] == [1]
        standings = await http.get(f"/v1/tournaments/{event.id}/standings")
        assert standings.status_code == 200, standings.text
        rows = standings.json()["rows"]
        assert sorted(row["points"] for row in rows) == [0, 0, 0, 1]
        live = {row["start_number"]: row["points"] for row in board.table()}
        assert live == {row["start_number"]: row["points"] for row in rows}
