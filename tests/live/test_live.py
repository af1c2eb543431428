"""The live WebSocket feed: snapshot, one message per event, `?since=` replay, and
fan-out to many scoreboards (DESIGN: Live standings)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from tests.api.conftest import Event, create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


async def _receive(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return message


async def _result(http: httpx.AsyncClient, event: Event, table: int, result: str) -> None:
    response = await http.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result",
        json={"result": result},
        headers=event.auth(),
    )
    assert response.status_code == 200, response.text


async def test_snapshot_then_events(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, PLAYERS)
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        snapshot = await _receive(ws)
        assert snapshot["type"] == "snapshot"
        assert snapshot["status"] == "running"
        assert [r["start_number"] for r in snapshot["standings"]["rows"]] == [1, 2, 3, 4]
        await _result(http, event, 1, "0-1")
        message = await _receive(ws)
        assert message["type"] == "event"
        assert message["seq"] == snapshot["seq"] + 1
        assert message["event"] == "result_confirmed"
        assert message["payload"]["result"] == "0-1"
        leader = message["standings"]["rows"][0]
        assert leader["points"] == 1
        assert leader["start_number"] == message["payload"]["black"]
        players = {message["payload"]["white"], message["payload"]["black"]}
        assert players <= set(message["changed"])


async def test_since_replays_exactly_what_was_missed(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, PLAYERS)
    url = f"ws://{server}/v1/tournaments/{event.id}/live"
    async with websockets.connect(url) as ws:
        seen = (await _receive(ws))["seq"]
    await _result(http, event, 1, "1-0")
    await _result(http, event, 2, "1/2-1/2")
    async with websockets.connect(f"{url}?since={seen}") as ws:
        first, second = await _receive(ws), await _receive(ws)
        assert [first["seq"], second["seq"]] == [seen + 1, seen + 2]
        assert [first["payload"]["table"], second["payload"]["table"]] == [1, 2]
        assert "standings" not in first
        assert second["standings"]["round"] == 1
        await _result(http, event, 1, "0-1")  # a correction, live
        live = await _receive(ws)
        assert (live["seq"], live["event"]) == (seen + 3, "result_corrected")


async def test_many_scoreboards_get_every_event(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, PLAYERS)
    url = f"ws://{server}/v1/tournaments/{event.id}/live"
    boards = [await websockets.connect(url) for _ in range(20)]
    try:
        snapshots = [await _receive(ws) for ws in boards]
        await _result(http, event, 1, "1-0")
        await _result(http, event, 2, "0-1")
        for ws, snapshot in zip(boards, snapshots, strict=True):
            got = [(await _receive(ws))["seq"], (await _receive(ws))["seq"]]
            assert got == [snapshot["seq"] + 1, snapshot["seq"] + 2]
    finally:
        for ws in boards:
            await ws.close()


async def test_unknown_tournament_closes(server: str) -> None:
    async with websockets.connect(f"ws://{server}/v1/tournaments/nope/live") as ws:
        message = await _receive(ws)
        assert (message["type"], message["status"]) == ("error", 404)
        await asyncio.wait_for(ws.wait_closed(), 5)
        assert ws.close_code == 4404
