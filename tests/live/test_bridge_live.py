"""The bridge live feed (/v1/bridge/events/{id}/live) on a real server: a snapshot with
the ranking, one message per result with the new ranking, `?since=` replay, the
shared tournament feed carrying the same events, and a table's socket closed when its
token is revoked or rotated."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from tests.live.follower import Follower

EVENTS = "/v1/bridge/events"


async def _receive(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return message


async def _create(http: httpx.AsyncClient) -> dict[str, Any]:
    body = {
        "kind": "pairs",
        "name": "Live pairs",
        "pairs": [{"number": n, "name": f"Pair {n}"} for n in range(1, 5)],
        "boards": 1,
        "movement": [
            {
                "round": 1,
                "tables": [
                    {"table": 1, "ns": 1, "ew": 3, "boards": [1]},
                    {"table": 2, "ns": 2, "ew": 4, "boards": [1]},
                ],
            }
        ],
    }
    response = await http.post(EVENTS, json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def _enter(http: httpx.AsyncClient, event: dict[str, Any], table: int, tricks: int) -> None:
    token = next(t["token"] for t in event["table_tokens"] if t["table"] == table)
    response = await http.put(
        f"{EVENTS}/{event['id']}/tables/{table}/boards/1",
        json={"contract": "4S", "declarer": "N", "tricks": tricks},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("form", ["full", "compact"])
async def test_snapshot_then_results_with_the_ranking(
    server: str, http: httpx.AsyncClient, form: str
) -> None:
    """The ranking follows each result, as patches per changed rank or (`?delta=compact`)
    with the ranks as one list."""
    event = await _create(http)
    url = f"ws://{server}{EVENTS}/{event['id']}/live"
    board = Follower("ranking", "number")
    async with websockets.connect(f"{url}?delta={form}") as ws:
        snapshot = await board.receive(ws)
        assert snapshot["type"] == "snapshot"
        assert snapshot["status"] == "running"
        assert [row["percent"] for row in snapshot["ranking"]["rows"]] == [50] * 4
        await _enter(http, event, 1, 10)  # NS 1: +420 on board 1
        await board.until(ws, snapshot["seq"] + 1)
        first = board.events[-1]
        assert (first["type"], first["event"]) == ("event", "bridge_result_entered")
        assert first["payload"]["result"]["ns_score"] == 420
        assert first["ranking"]["results"] == 1
        await _enter(http, event, 2, 9)  # NS 2: -50
        await board.until(ws, snapshot["seq"] + 2)
        leaders = [row["number"] for row in board.table() if row["rank"] == 1]
        assert leaders == [1, 4]  # NS 1 beat NS 2; EW 4 beat EW 3
        await _enter(http, event, 2, 11)  # table 2 corrects: +450 now beats +420
        await board.until(ws, snapshot["seq"] + 3)
        third = board.events[-1]
        assert third["event"] == "bridge_result_corrected"
        assert third["payload"]["previous"]["ns_score"] == -50
        leaders = [row["number"] for row in board.table() if row["rank"] == 1]
        assert leaders == [2, 3]
        # the deltas rebuilt exactly the table a fresh snapshot shows
        async with websockets.connect(url) as fresh:
            assert (await _receive(fresh))["ranking"]["rows"] == board.table()
        assert [("ranks" in m) for m in board.events] == [form == "compact"] * 3


async def test_since_replays_and_the_tournament_feed_carries_the_events(
    server: str, http: httpx.AsyncClient
) -> None:
    event = await _create(http)
    url = f"ws://{server}{EVENTS}/{event['id']}/live"
    base = Follower("ranking", "number")
    async with websockets.connect(url) as ws:
        await base.receive(ws)
    seen = base.seq
    assert seen is not None
    await _enter(http, event, 1, 10)
    await _enter(http, event, 2, 10)
    resumed = base.fork()  # resuming: the client holds the table at `seen`
    async with websockets.connect(f"{url}?since={seen}") as ws:
        await resumed.until(ws, seen + 2)
        assert [m["seq"] for m in resumed.events] == [seen + 1, seen + 2]
        assert [m["event"] for m in resumed.events] == ["bridge_result_entered"] * 2
        assert resumed.events[-1]["ranking"]["results"] == 2
    # The event is a tournament underneath: the generic feed replays the same events.
    generic = f"ws://{server}/v1/tournaments/{event['id']}/live?since={seen}"
    again = base.fork()
    async with websockets.connect(generic) as ws:
        await again.until(ws, seen + 2)
        assert [m["event"] for m in again.events] == ["bridge_result_entered"] * 2
        assert again.table() == resumed.table()  # one feed, one ranking
    async with websockets.connect(url) as ws:  # and both hold what a new client sees
        assert (await _receive(ws))["ranking"]["rows"] == resumed.table()
    standings = await http.get(f"/v1/tournaments/{event['id']}/standings")
    assert standings.status_code == 404
    assert "/v1/bridge/events/" in standings.json()["detail"]


async def test_unknown_event_closes(server: str) -> None:
    async with websockets.connect(f"ws://{server}{EVENTS}/nope/live") as ws:
        message = await _receive(ws)
        assert (message["type"], message["status"]) == ("error", 404)
        await asyncio.wait_for(ws.wait_closed(), 5)
        assert ws.close_code == 4404


async def test_a_table_token_revoked_or_rotated_closes_its_sockets(
    server: str, http: httpx.AsyncClient
) -> None:
    """A bridge table's socket is closed (4401), after an `error` message, once its
    token is revoked or rotated; the other table's stays open and gets the next event."""
    event = await _create(http)
    url = f"ws://{server}{EVENTS}/{event['id']}/live"
    organizer = {"Authorization": f"Bearer {event['organizer_token']}"}
    tokens = {t["table"]: t["token"] for t in event["table_tokens"]}
    async with (
        websockets.connect(f"{url}?token={tokens[1]}") as first,
        websockets.connect(f"{url}?token={tokens[2]}") as second,
    ):
        for ws in (first, second):
            assert (await _receive(ws))["type"] == "snapshot"
        revoked = await http.post(
            f"{EVENTS}/{event['id']}/tokens/revoke",
            json={"role": "table", "table": 1},
            headers=organizer,
        )
        assert revoked.status_code == 204, revoked.text
        messages = [await _receive(first), await _receive(first)]
        assert [m["type"] for m in messages] == ["event", "error"]
        await asyncio.wait_for(first.wait_closed(), 10)
        assert first.close_code == 4401
        assert (await _receive(second))["event"] == "token_revoked"
        rotated = await http.post(
            f"{EVENTS}/{event['id']}/tokens/rotate",
            json={"role": "table", "table": 2},
            headers=organizer,
        )
        assert rotated.status_code == 200, rotated.text
        assert (await _receive(second))["event"] == "token_rotated"
        assert (await _receive(second))["type"] == "error"
        await asyncio.wait_for(second.wait_closed(), 10)
        assert second.close_code == 4401
