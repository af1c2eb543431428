"""CPU-heavy work runs off the event loop (docs/decisions/thread-pool.md): while a standings
computation is still running, /healthz and a result PUT are answered. Ordering, not timing:
the heavy request is held inside its computation until the light ones have completed. The
table is computed by the API process itself here, as it is while the live reader (which
computes it in a process of its own) restarts."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from service.live.reader import ReaderError, TableText
from service.views import standings_table
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


async def test_health_and_a_put_answer_while_standings_compute(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = threading.Event(), threading.Event()
    original = standings_table.compute_standings  # type: ignore[attr-defined]

    def heavy(*args: Any, **kwargs: Any) -> Any:
        started.set()
        deadline = time.monotonic() + 15
        spins = 0
        while not release.is_set() and time.monotonic() < deadline:
            spins += 1  # burn CPU, holding the interpreter like a real computation
        return original(*args, **kwargs)

    async def restarting(tournament_id: str, at_least: int) -> TableText | None:
        raise ReaderError("restarting")

    event = await create_round_robin(client, PLAYERS)
    monkeypatch.setattr(app.state.arbiter.hub.reader, "table", restarting)
    monkeypatch.setattr(standings_table, "compute_standings", heavy)
    loop = asyncio.get_running_loop()
    standings = asyncio.create_task(client.get(f"/v1/tournaments/{event.id}/standings"))
    assert await loop.run_in_executor(None, started.wait, 10)
    try:
        health = await client.get("/healthz")
        put = await client.put(
            f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
            json={"result": "1-0"},
            headers=event.auth(),
        )
        assert not standings.done()  # the computation is still running
    finally:
        release.set()
    assert health.status_code == 200
    assert put.status_code == 200
    assert (await standings).status_code == 200
