"""Benchmark: player cards of a large round-robin (`/cards` of a 400-player round-robin
once held the event loop for 12 s; docs/api.md#limits).

In process, on a fresh SQLite file: registers P players (default 400), starts a
round-robin, then times `GET /cards` (the first page, as a browser opens it), every
page of cards in turn, and one `GET /players/{n}/card`, each while a ticker task
measures the longest the event loop went without running it (the stall every other
request would see).

Run: .venv/bin/python bench/bench_cards.py [--players 400]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from service.api.app import create_app
from service.config import Settings
from service.db.migrate import upgrade


async def _stall_while(action: Callable[[], Awaitable[httpx.Response]]) -> tuple[float, float]:
    """(seconds the action took, longest event-loop stall in seconds meanwhile)."""
    longest = 0.0
    done = False

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now

    task = asyncio.create_task(ticker())
    start = time.perf_counter()
    response = await action()
    took = time.perf_counter() - start
    done = True
    await task
    assert response.status_code == 200, response.text[:300]
    return took, longest


async def main(players: int, url: str) -> None:
    if True:
        app = create_app(Settings(database_url=url, rate_limits_enabled=False))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://bench", timeout=600
            ) as http:
                created = (
                    await http.post("/v1/tournaments", json={"name": "B", "system": "round-robin"})
                ).json()
                tid, auth = created["id"], {"Authorization": f"Bearer {created['organizer_token']}"}
                for n in range(players):
                    added = await http.post(
                        f"/v1/tournaments/{tid}/players",
                        json={"name": f"Player {n}", "rating": 2500 - n},
                        headers=auth,
                    )
                    assert added.status_code == 201, added.text[:300]
                started = time.perf_counter()
                done = await http.post(f"/v1/tournaments/{tid}/start", headers=auth, timeout=600)
                assert done.status_code == 200, done.text[:300]
                elapsed = time.perf_counter() - started
                print(f"{players} players registered, started in {elapsed:.1f} s")
                took, stall = await _stall_while(lambda: http.get("/healthz"))
                print(f"GET /healthz (reference): {took:6.3f} s, longest loop stall {stall:.3f} s")
                took, stall = await _stall_while(lambda: http.get(f"/v1/tournaments/{tid}/cards"))
                print(f"GET /cards (first page):   {took:6.3f} s, longest loop stall {stall:.3f} s")
                url_next: str | None = f"/v1/tournaments/{tid}/cards"
                pages, worst, total = 0, 0.0, 0.0
                while url_next is not None:
                    current = url_next
                    response = await http.get(current)
                    took, stall = await _stall_while(lambda: http.get(current))  # noqa: B023
                    worst, total, pages = max(worst, stall), total + took, pages + 1
                    link = response.headers.get("link")
                    found = re.fullmatch(r'<([^>]+)>; rel="next"', link or "")
                    url_next = found.group(1) if found else None
                print(
                    f"every page ({pages}):        {total:6.3f} s, longest loop stall {worst:.3f} s"
                )
                took, stall = await _stall_while(
                    lambda: http.get(f"/v1/tournaments/{tid}/players/{players // 2}/card")
                )
                label = f"GET /players/{players // 2}/card:"
                print(f"{label:26} {took:6.3f} s, longest loop stall {stall:.3f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=400)
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite+aiosqlite:///{Path(folder) / 'cards.db'}"
        upgrade(database)
        asyncio.run(main(parser.parse_args().players, database))
