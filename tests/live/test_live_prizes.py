"""The prize list on the live feed (docs/live.md#prizes): in the snapshot of a tournament
with prizes set, and with the event that changes it, as `GET /prizes` answers it."""

from __future__ import annotations

from typing import Any

import httpx
import websockets

from tests.api.conftest import create_round_robin
from tests.live.follower import Follower

FOUR = [("Ann", 2400), ("Bob", 2300), ("Cid", 2200), ("Dan", 2100)]
PRIZES = {"places": [100, 60], "ties": "split"}


async def _result(http: httpx.AsyncClient, event: Any, table: int, result: str) -> None:
    url = f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result"
    answer = await http.put(url, json={"result": result}, headers=event.auth())
    assert answer.status_code == 200, answer.text


async def _awards(http: httpx.AsyncClient, event: Any) -> list[dict[str, Any]]:
    answer = await http.get(f"/v1/tournaments/{event.id}/prizes")
    assert answer.status_code == 200, answer.text
    awards: list[dict[str, Any]] = answer.json()["awards"]
    return awards


async def test_the_feed_carries_the_prize_list(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, FOUR, prizes=PRIZES)
    board = Follower()
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        snapshot = await board.receive(ws)
        # nothing played: all four tied on 0, 160 split four ways
        assert [a["amount"] for a in snapshot["prizes"]["awards"]] == ["40.00"] * 4
        assert snapshot["prizes"]["awards"] == await _awards(http, event)
        assert snapshot["prizes"]["missing"] is None  # personal data not published
        await _result(http, event, 1, "1-0")
        await board.until(ws, snapshot["seq"] + 1)
        (first,) = board.events
        # the winner leads: 100; the three on 0 share the 60 (20 each)
        prizes = first["prizes"]
        assert prizes["awards"] == await _awards(http, event)
        assert sorted(a["amount"] for a in prizes["awards"]) == [
            "100.00",
            "20.00",
            "20.00",
            "20.00",
        ]
        await _result(http, event, 2, "1/2-1/2")
        await board.until(ws, snapshot["seq"] + 2)
        # 1 first (100), the two drawers on a half share the 60
        assert board.events[-1]["prizes"]["awards"] == await _awards(http, event)
        assert sorted(a["amount"] for a in board.events[-1]["prizes"]["awards"]) == [
            "100.00",
            "30.00",
            "30.00",
        ]
        # a change that leaves the prizes as they are carries none
        renamed = await http.patch(
            f"/v1/tournaments/{event.id}", json={"name": "Renamed"}, headers=event.auth()
        )
        assert renamed.status_code == 200, renamed.text
        await board.until(ws, snapshot["seq"] + 3)
        assert "prizes" not in board.events[-1]
        unset = await http.patch(
            f"/v1/tournaments/{event.id}", json={"prizes": None}, headers=event.auth()
        )
        assert unset.status_code == 200, unset.text
        await board.until(ws, snapshot["seq"] + 4)
        assert board.events[-1]["prizes"] is None
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        again = await Follower().receive(ws)
        assert "prizes" not in again  # no prizes set: the snapshot has none


async def test_no_prizes_no_key(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, FOUR)
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        board = Follower()
        snapshot = await board.receive(ws)
        assert "prizes" not in snapshot
        await _result(http, event, 1, "1-0")
        await board.until(ws, snapshot["seq"] + 1)
        assert "prizes" not in board.events[-1]


async def test_the_compact_feed_carries_it_too(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, FOUR, prizes=PRIZES)
    url = f"ws://{server}/v1/tournaments/{event.id}/live?delta=compact"
    async with websockets.connect(url) as ws:
        board = Follower()
        snapshot = await board.receive(ws)
        await _result(http, event, 2, "0-1")
        await board.until(ws, snapshot["seq"] + 1)
        assert "ranks" in board.events[-1]  # the compact form
        assert board.events[-1]["prizes"]["awards"] == await _awards(http, event)
