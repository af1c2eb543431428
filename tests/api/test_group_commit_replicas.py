"""Group commit across two real server processes on one database
(docs/decisions/group-commit.md): reports
for one tournament split over both, some sent to both (a phone retrying through the
other replica), each process committing the reports queued in its own write queue together.
Every answer is a 200, both answers to one key are the same (one of them replayed),
and every result is stored once."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter, defaultdict

import httpx

from tests.api.conftest import create_round_robin
from tests.api.processes import logged_events, start_process

PLAYERS = [(f"Player {n:02d}", 2300 - 10 * n) for n in range(12)]
CLIENTS = 8
"""Clients per server."""


async def test_two_servers_group_reports_for_one_tournament_exactly_once(
    database_url: str,
) -> None:
    servers = [await start_process(database_url) for _ in range(2)]
    try:
        bases = [f"http://{server.address}" for server in servers]
        async with (
            httpx.AsyncClient(base_url=bases[0], timeout=60) as first,
            httpx.AsyncClient(base_url=bases[1], timeout=60) as second,
        ):
            event = await create_round_robin(first, PLAYERS)
            jobs: list[tuple[httpx.AsyncClient, str, str]] = []
            for number in range(1, len(PLAYERS)):
                round_games = await first.get(f"/v1/tournaments/{event.id}/rounds/{number}")
                for game in round_games.json()["games"]:
                    url = f"/v1/tournaments/{event.id}/rounds/{number}/games/{game['table']}/result"
                    key = str(uuid.uuid4())
                    jobs.append((first if len(jobs) % 2 else second, url, key))
                    if len(jobs) % 5 == 0:  # the same report retried through the other one
                        jobs.append((second if len(jobs) % 2 else first, url, key))
            pending = iter(jobs)
            answers: dict[str, list[httpx.Response]] = defaultdict(list)

            async def client() -> None:
                for http, url, key in pending:
                    response = await http.put(
                        url,
                        json={"result": "1-0"},
                        headers={**event.auth(), "Idempotency-Key": key},
                    )
                    answers[key].append(response)

            await asyncio.gather(*(client() for _ in range(2 * CLIENTS)))
    finally:
        for server in servers:
            server.stop()

    statuses = Counter(r.status_code for rs in answers.values() for r in rs)
    assert statuses == {200: len(jobs)}, statuses
    twice = [rs for rs in answers.values() if len(rs) == 2]
    assert twice
    for pair in twice:
        assert pair[0].json() == pair[1].json()
        replayed = [r.headers.get("idempotent-replayed") == "true" for r in pair]
        assert sorted(replayed) == [False, True]
    logged = await logged_events(database_url, event.id)
    stored = Counter(
        (e.payload["round"], e.payload["table"]) for e in logged if e.type.startswith("result")
    )
    assert len(stored) == len(answers)  # every game reported
    assert set(stored.values()) == {1}  # and stored once
