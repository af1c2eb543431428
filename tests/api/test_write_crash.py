"""SIGKILL of a real server in the middle of a stream of result PUTs
(docs/api.md#retries-and-idempotency): afterwards every acknowledged result is stored once,
every key replays 200 with the first body, and no key is stuck "in flight" (409)."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import httpx

from tests.api.conftest import create_round_robin
from tests.api.processes import logged_events, start_process

PLAYERS = [(f"Player {n:02d}", 2300 - 10 * n) for n in range(12)]
RESULTS = ("1-0", "0-1", "1/2-1/2")
WORKERS = 8
KILL_AFTER = 25


async def _stream_until_killed(
    http: httpx.AsyncClient, requests: list[tuple[str, str, str]], kill: object
) -> tuple[set[str], dict[str, str], list[int]]:
    """Send PUTs from several clients; SIGKILL the server after KILL_AFTER answers.
    Returns the keys sent, the acknowledged bodies by key, and any other statuses."""
    pending = iter(requests)
    sent: set[str] = set()
    acked: dict[str, str] = {}
    other: list[int] = []
    killed = False

    async def client(auth: dict[str, str]) -> None:
        nonlocal killed
        for url, key, result in pending:
            if killed:
                return
            sent.add(key)
            try:
                response = await http.put(
                    url, json={"result": result}, headers={**auth, "Idempotency-Key": key}
                )
            except httpx.TransportError:
                return
            if response.status_code == 200:
                acked[key] = response.text
            else:
                other.append(response.status_code)
            if len(acked) >= KILL_AFTER and not killed:
                killed = True
                kill()  # type: ignore[operator]

    auth = {"Authorization": http.headers["x-organizer"]}
    await asyncio.gather(*(client(auth) for _ in range(WORKERS)))
    return sent, acked, other


async def test_sigkill_mid_stream_loses_and_doubles_nothing(database_url: str) -> None:
    server = await start_process(database_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.address}", timeout=30) as http:
            event = await create_round_robin(http, PLAYERS)
            http.headers["x-organizer"] = f"Bearer {event.organizer}"
            requests = []
            for number in range(1, len(PLAYERS)):
                games = (await http.get(f"/v1/tournaments/{event.id}/rounds/{number}")).json()
                for game in games["games"]:
                    url = f"/v1/tournaments/{event.id}/rounds/{number}/games/{game['table']}/result"
                    requests.append((url, str(uuid.uuid4()), RESULTS[game["table"] % 3]))
            sent, acked, other = await _stream_until_killed(http, requests, server.kill)
        assert other == []
        assert server.process.returncode is not None  # it was killed mid-stream
        assert len(acked) >= KILL_AFTER
        assert len(sent) > len(acked) or len(sent) < len(requests)
    finally:
        server.stop()

    server = await start_process(database_url)
    try:
        async with httpx.AsyncClient(
            base_url=f"http://{server.address}", timeout=30, headers=event.auth()
        ) as http:
            for url, key, result in requests:
                if key not in sent:
                    continue
                retry = await http.put(
                    url, json={"result": result}, headers={"Idempotency-Key": key}
                )
                assert retry.status_code == 200, (key, retry.text)
                if key in acked:
                    assert retry.headers.get("idempotent-replayed") == "true"
                    assert retry.text == acked[key]
    finally:
        server.stop()

    events = await logged_events(database_url, event.id)
    confirmed = Counter(
        (e.payload["round"], e.payload["table"]) for e in events if e.type == "result_confirmed"
    )
    expected = {
        (int(url.split("/")[5]), int(url.split("/")[7])) for url, key, _ in requests if key in sent
    }
    assert set(confirmed) == expected  # every sent result stored (acknowledged or retried)
    assert set(confirmed.values()) == {1}  # and stored once
