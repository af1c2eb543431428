"""Across processes: a restart keeps everything; replicas on one PostgreSQL database
share live events through LISTEN/NOTIFY; a slow client is resynchronised."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from tests.api.conftest import create_round_robin
from tests.db_backends import BACKENDS, prepared_database
from tests.live.conftest import start_server, stop_server

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


async def test_restart_keeps_everything(database_url: str) -> None:
    server, task, address = await start_server(database_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            event = await create_round_robin(http, PLAYERS)
            await http.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
                json={"result": "1-0"},
                headers=event.auth(),
            )
            before = (await http.get(f"/v1/tournaments/{event.id}/standings")).json()
    finally:
        await stop_server(server, task)
    server, task, address = await start_server(database_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            after = (await http.get(f"/v1/tournaments/{event.id}/standings")).json()
            assert after == before
            # the organizer's token still works after the restart
            again = await http.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/2/result",
                json={"result": "0-1"},
                headers=event.auth(),
            )
            assert again.status_code == 200
    finally:
        await stop_server(server, task)


@pytest.fixture(params=[b for b in BACKENDS if b == "postgresql"])
def shared_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """PostgreSQL only: replicas share events through LISTEN/NOTIFY (CI always has it)."""
    yield from prepared_database(request.param, tmp_path)


async def test_replicas_share_events(shared_database_url: str) -> None:
    first, first_task, a = await start_server(shared_database_url)
    second, second_task, b = await start_server(shared_database_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://{a}") as http:
            event = await create_round_robin(http, PLAYERS)
            async with websockets.connect(f"ws://{b}/v1/tournaments/{event.id}/live") as ws:
                snapshot = json.loads(await asyncio.wait_for(ws.recv(), 5))
                response = await http.put(
                    f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
                    json={"result": "1-0"},
                    headers=event.auth(),
                )
                assert response.status_code == 200
                message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert message["seq"] == snapshot["seq"] + 1
                assert message["event"] == "result_confirmed"
    finally:
        await stop_server(first, first_task)
        await stop_server(second, second_task)


async def test_slow_client_gets_a_fresh_snapshot(database_url: str) -> None:
    server, task, address = await start_server(database_url, live_queue_size=1)
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            event = await create_round_robin(http, PLAYERS)
            url = f"ws://{address}/v1/tournaments/{event.id}/live"
            async with websockets.connect(url) as ws:
                json.loads(await asyncio.wait_for(ws.recv(), 5))
                state = server.config.app.state.arbiter  # type: ignore[union-attr]
                # overflow the client's queue directly: three notifications, room for one
                for seq in (101, 102, 103):
                    for subscriptions in state.bus._subscribers.values():
                        for subscription in subscriptions:
                            subscription.offer(seq)
                message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert message["type"] == "snapshot"
    finally:
        await stop_server(server, task)
