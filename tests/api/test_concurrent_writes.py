"""Concurrent writes on a real server: no connection is shared between requests (a
shared asyncpg connection once made 22 of 120 committed PUTs answer 500 on PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx

from tests.api.conftest import Event, create_round_robin
from tests.live.conftest import start_server, stop_server

PLAYERS = [(f"Player {n:02d}", 2300 - 10 * n) for n in range(10)]


async def _games(http: httpx.AsyncClient, event: Event) -> list[str]:
    urls = []
    for number in range(1, 7):
        games = (await http.get(f"/v1/tournaments/{event.id}/rounds/{number}")).json()["games"]
        urls += [
            f"/v1/tournaments/{event.id}/rounds/{number}/games/{g['table']}/result" for g in games
        ]
    return urls


async def test_120_concurrent_organizer_puts_over_4_tournaments(database_url: str) -> None:
    server, task, address = await start_server(database_url)
    try:
        limits = httpx.Limits(max_connections=120)
        async with httpx.AsyncClient(
            base_url=f"http://{address}", timeout=60, limits=limits
        ) as http:
            events = [await create_round_robin(http, PLAYERS) for _ in range(4)]
            jobs = [(e, url) for e in events for url in (await _games(http, e))[:30]]
            assert len(jobs) == 120
            responses = await asyncio.gather(
                *(
                    http.put(url, json={"result": "1-0"}, headers=event.auth())
                    for event, url in jobs
                )
            )
            statuses = Counter(r.status_code for r in responses)
            assert statuses == {200: 120}, [r.text for r in responses if r.status_code != 200]
            for event in events:
                rows = (await http.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
                assert sum(r["points"] for r in rows) == 30
    finally:
        await stop_server(server, task)
