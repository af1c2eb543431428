"""An upload does not hold up the server: while a large TRF, PBN or JSON body is being
read, `/healthz` keeps answering within 100 ms (a real server on a loopback port).

A PBN file of 150,000 unclosed "{" took 7 s to read, on the event loop: `/healthz`
waited those 7 s, and 5 MB would have held the server for hours. The readers are linear
now and run in the CPU pool; each body here keeps a reader busy for a while and is
refused at the end, so nothing but the reading is measured; the last is a start list
of 9,998 players, read and stored (added one by one to the session, its players held
the event loop half a second). Probes run one after
another for as long as the upload is in flight; a scheduler hiccup of the busy machine
may make one of them slow, two may not."""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from tests.api.processes import start_process

SESSION = {
    "kind": "pairs",
    "name": "Probe pairs",
    "pairs": [{"number": n, "name": f"Pair {n}"} for n in range(1, 5)],
    "boards": 2,
    "movement": [
        {
            "round": 1,
            "tables": [
                {"table": 1, "ns": 1, "ew": 3, "boards": [1, 2]},
                {"table": 2, "ns": 2, "ew": 4, "boards": [1, 2]},
            ],
        }
    ],
}
LIMIT = 0.1
"""Seconds within which `/healthz` answers."""
XXA = ("XXA    1" + "  1.0" * 999_990).encode()
"""Five megabytes of one acceleration record: a TRF file without players."""


def _start_list() -> bytes:
    """A TRF file of 9,998 players after round 1 (1 MB): imported, not refused."""
    lines = []
    for number in range(1, 9_999):
        opponent, colour, result = (number + 1, "w", "1") if number % 2 else (number - 1, "b", "0")
        points = "1.0" if number % 2 else "0.0"
        head = f"001 {number:4d}      Player {number:<26} 1500".ljust(80) + f"{points:>4}"
        lines.append(head.ljust(91) + f"{opponent:4d} {colour} {result}")
    return ("\n".join(lines) + "\nXXR 5\n").encode()


def _json_tournament() -> bytes:
    """Four megabytes of a JSON tournament whose last game names an unknown player."""
    players = [{"id": n, "name": f"Player {n}", "rating": 1500} for n in range(1, 20_001)]
    games = [
        {"round": r, "white": 2 * k + 1, "black": 2 * k + 2, "result": "1-0"}
        for r in range(1, 6)
        for k in range(10_000)
    ]
    games[-1]["black"] = 99_999
    return json.dumps({"players": players, "games": games, "rounds": 6}).encode()


async def _probed(
    client: httpx.AsyncClient, path: str, body: bytes, headers: dict[str, str]
) -> tuple[httpx.Response, list[float]]:
    """Send `body`; meanwhile time `/healthz` again and again until the answer comes."""
    upload = asyncio.create_task(client.post(path, content=body, headers=headers))
    waits: list[float] = []
    while not upload.done():
        start = time.perf_counter()
        health = await client.get("/healthz", timeout=5)
        if not upload.done():  # answered while the upload was still in flight
            waits.append(time.perf_counter() - start)
        assert health.status_code == 200
        await asyncio.sleep(0.005)
    return await upload, waits


async def test_health_answers_while_uploads_are_read(database_url: str) -> None:
    server = await start_process(database_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.address}", timeout=60) as client:
            created = await client.post("/v1/bridge/events", json=SESSION)
            assert created.status_code == 201, created.text
            event = created.json()
            organizer = {"Authorization": f"Bearer {event['organizer_token']}"}
            uploads: list[tuple[str, bytes, dict[str, str], str]] = [
                (
                    f"/v1/bridge/events/{event['id']}/import",
                    b"{\n" * 500_000,  # half a million unclosed "{"
                    {**organizer, "content-type": "text/plain"},
                    "no game with a [Contract]",
                ),
                (
                    "/v1/tournaments/import",
                    XXA,
                    {"content-type": "application/octet-stream"},
                    "no 001 player records",
                ),
                ("/v1/compute/standings", XXA, {}, "no 001 player records"),
                (
                    "/v1/compute/pairings",
                    _json_tournament(),
                    {"content-type": "application/json"},
                    "unknown player id 99999",
                ),
                ("/v1/tournaments/import", _start_list(), {}, ""),  # imported
            ]
            for path, body, headers, refusal in uploads:
                response, waits = await _probed(client, path, body, headers)
                if refusal:
                    assert response.status_code == 422, response.text
                    assert refusal in response.json()["detail"]
                else:
                    assert response.status_code == 201, response.text
                    assert len(response.json()["player_tokens"]) == 9_998
                assert len(waits) >= 3, (path, waits)
                slow = [wait for wait in waits if wait >= LIMIT]
                assert len(slow) <= 1, (path, sorted(waits)[-3:])
    finally:
        server.stop()
