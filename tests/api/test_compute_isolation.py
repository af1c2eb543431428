"""Anonymous compute never holds up a stored tournament, against a real server.

Two `POST /v1/compute/pairings` of a large field (a 1,000-player first round, the
largest `compute_max_players` takes: a second or more of pairing) come from one
address; while the one the allowance lets through is still computing, the organizer of
a stored 8-player Swiss pairs its next round (`POST /rounds`) and is answered.
Ordering, not timing: the organizer's answer comes while the large computation is
still running; the bound on its wait is generous (it takes a few tens of milliseconds
alone)."""

from __future__ import annotations

import asyncio
import time

import httpx

from tests.api.conftest import create_round_robin
from tests.api.processes import start_process

FIELD = [(f"Player {n}", 2400 - 50 * n) for n in range(1, 9)]
LARGE = 1_000
ORGANIZER_WITHIN = 10.0
"""Seconds the organizer's pairing may take while anonymous compute runs (alone: well
under one)."""


def start_list(players: int) -> str:
    """A TRF-16 start list of `players` (ratings 2800 down) to be paired in round 1 of 9."""
    lines = ["012 Large field"]
    for number in range(1, players + 1):
        name = f"Player {number:04d}"
        rating = 2800 - number * 1700 // players
        lines.append(f"001 {number:>4}      {name:<33} {rating:>4}{'':>29}0.0")
    return "\n".join([*lines, "XXC white1", "XXR 9", ""])


async def test_an_organizer_pairs_while_anonymous_compute_runs(database_url: str) -> None:
    server = await start_process(database_url)  # the default allowances
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.address}", timeout=120) as http:
            event = await create_round_robin(http, FIELD, system="swiss-dutch", rounds=3)
            paired = await http.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
            assert paired.status_code == 201, paired.text
            for game in paired.json()["games"]:
                result = await http.put(
                    f"/v1/tournaments/{event.id}/rounds/1/games/{game['table']}/result",
                    json={"result": "1-0"},
                    headers=event.auth(),
                )
                assert result.status_code == 200, result.text
            body = start_list(LARGE).encode()
            computations = [
                asyncio.create_task(
                    http.post(
                        "/v1/compute/pairings",
                        content=body,
                        headers={"content-type": "text/plain"},
                    )
                )
                for _ in range(2)
            ]
            # The second computation is refused at once; without an allowance, give
            # both a moment to reach the server's pool before the organizer asks.
            await asyncio.wait(computations, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
            started = time.monotonic()
            organizer = await http.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
            waited = time.monotonic() - started
            still_computing = not all(task.done() for task in computations)
            answers = await asyncio.gather(*computations)
    finally:
        server.stop()
    assert organizer.status_code == 201, organizer.text
    assert organizer.json()["round"] == 2
    assert still_computing, "the organizer was answered only after the anonymous computations"
    assert waited < ORGANIZER_WITHIN
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [200, 429], [answer.text[:200] for answer in answers]
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert refused.json()["type"] == "urn:arbiter:problem:rate-limited"
    assert "ARBITER_COMPUTE_PER_CLIENT" in refused.json()["detail"]
    assert int(refused.headers["retry-after"]) >= 1
    done = next(answer for answer in answers if answer.status_code == 200)
    assert len(done.json()["pairings"]) == LARGE // 2
