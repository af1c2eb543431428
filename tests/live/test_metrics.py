"""The operators' figures move with the service: live subscribers, notification-to-fan-out
lag, pairing durations (GET /metrics on a real server)."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import websockets

from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


def _value(metrics: str, sample: str) -> float:
    """One sample's value (`name{labels}` or a bare name); 0 when absent."""
    pattern = re.escape(sample) + r"(?:\{[^}]*\})? ([0-9.e+-]+)$"
    found = [float(m.group(1)) for m in re.finditer(pattern, metrics, re.MULTILINE)]
    return sum(found)


async def test_live_and_pairing_metrics(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, PLAYERS)
    pairing = (await http.get("/metrics")).text
    assert 'arbiter_pairing_seconds_count{system="round-robin"} 1.0' in pairing

    url = f"ws://{server}/v1/tournaments/{event.id}/live"
    async with websockets.connect(url) as first, websockets.connect(url) as second:
        for ws in (first, second):
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "snapshot"
        watching = (await http.get("/metrics")).text
        assert _value(watching, "arbiter_live_subscribers") == 2
        reported = await http.put(
            f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
            json={"result": "1-0"},
            headers=event.auth(),
        )
        assert reported.status_code == 200
        message = json.loads(await asyncio.wait_for(first.recv(), 10))
        assert message["type"] in ("event", "batch")
        lagged = (await http.get("/metrics")).text
        assert _value(lagged, "arbiter_live_bus_lag_seconds_count") >= 1
    for _ in range(100):
        left = (await http.get("/metrics")).text
        if _value(left, "arbiter_live_subscribers") == 0:
            break
        await asyncio.sleep(0.05)
    assert _value(left, "arbiter_live_subscribers") == 0
