"""The writers of one tournament queue in this process's write queue (`app.write_queue`) before
they open a transaction; a wait there is bounded like a lock wait in the database: 503
with `Retry-After`, nothing written (docs/decisions/write-queue.md), on both databases."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, MutableMapping
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.api.write_access import write_routes
from service.config import Settings
from service.db.events import events_since
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
WAIT = 0.3
"""The app's `lock_wait_seconds` in these tests."""


def _declared(method: str, path: str) -> tuple[str | None, bool]:
    """The write queue's key and whether it may join a group, as the request's route declares
    them (`api.write_access`)."""
    routes = write_routes(create_app(Settings(database_url="sqlite+aiosqlite:///:memory:")))
    found = routes.find({"type": "http", "method": method, "path": path})
    if found is None:
        return None, False
    route, params = found
    return route.queue_key(params), route.joins_group


@pytest.mark.parametrize(
    ("method", "path", "key"),
    [
        ("PUT", "/v1/tournaments/abc/rounds/1/games/2/result", "tournaments/abc"),
        ("POST", "/v1/tournaments/abc/start", "tournaments/abc"),
        ("PATCH", "/v1/tournaments/abc", "tournaments/abc"),
        ("PUT", "/v1/bridge/events/e1/tables/3/boards/4", "bridge/events/e1"),
        ("POST", "/v1/bridge/events/e1/tokens/rotate", "bridge/events/e1"),
        ("POST", "/v1/tournaments", None),
        ("POST", "/v1/tournaments/import", None),
        ("POST", "/v1/tournaments/", None),
        ("POST", "/v1/bridge/events", None),
        ("POST", "/v1/compute/pairings", None),
        ("POST", "/healthz", None),
    ],
)
def test_a_path_names_the_tournament_it_writes_to(method: str, path: str, key: str | None) -> None:
    assert _declared(method, path)[0] == key


def test_every_write_to_a_tournament_declares_its_queue() -> None:
    """A write route whose path names a tournament or bridge event waits in that one's
    write queue; the others (creations, imports, the stateless computations) in none."""
    routes = write_routes(create_app(Settings(database_url="sqlite+aiosqlite:///:memory:")))
    for route in routes.routes:
        if "{tournament_id}" in route.path:
            assert route.queue == "tournaments/{tournament_id}", route.path
        elif "{event_id}" in route.path:
            assert route.queue == "bridge/events/{event_id}", route.path
        else:
            assert route.queue is None, route.path


def test_only_result_reports_join_a_group() -> None:
    routes = write_routes(create_app(Settings(database_url="sqlite+aiosqlite:///:memory:")))
    grouped = {(sorted(r.methods)[0], r.path) for r in routes.routes if r.joins_group}
    assert grouped == {
        ("PUT", "/v1/tournaments/{tournament_id}/rounds/{round_number}/games/{table}/result")
    }
    assert _declared("PUT", "/v1/tournaments/abc/rounds/1/games/2/result") == (
        "tournaments/abc",
        True,
    )


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The app with waits bounded to `WAIT` seconds (the package's `client` uses it)."""
    application = create_app(
        Settings(database_url=database_url, lock_wait_seconds=WAIT, rate_limits_enabled=False)
    )
    async with application.router.lifespan_context(application):
        yield application


async def test_a_write_held_in_the_queue_past_the_wait_is_a_503_that_changed_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    event = await create_round_robin(client, PLAYERS)
    path = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    async with app.state.arbiter.write_queues.hold(f"tournaments/{event.id}"):
        for headers in ({}, {"Idempotency-Key": str(uuid.uuid4())}):
            started = time.monotonic()
            busy = await client.put(
                path, json={"result": "1-0"}, headers={**event.auth(), **headers}
            )
            assert busy.status_code == 503, busy.text
            assert time.monotonic() - started >= WAIT * 0.9
            assert busy.headers["content-type"] == "application/problem+json"
            assert busy.headers["retry-after"]
            assert "another write has held this tournament" in busy.json()["detail"]
        # reads and other tournaments are not in the queue
        assert (await client.get(f"/v1/tournaments/{event.id}/standings")).status_code == 200
        other = await create_round_robin(client, PLAYERS)
        elsewhere = await client.put(
            f"/v1/tournaments/{other.id}/rounds/1/games/1/result",
            json={"result": "1-0"},
            headers=other.auth(),
        )
        assert elsewhere.status_code == 200, elsewhere.text
    game = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"][0]
    assert game["result"] is None
    done = await client.put(path, json={"result": "1-0"}, headers=event.auth())
    assert done.status_code == 200, done.text


async def test_writes_queued_all_land_in_order_once_the_holder_lets_go(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    event = await create_round_robin(client, PLAYERS)
    queues = app.state.arbiter.write_queues
    base = f"/v1/tournaments/{event.id}/rounds"
    reports = [(1, 1, "1-0"), (1, 2, "0-1"), (2, 1, "1/2-1/2"), (2, 2, "1-0")]
    async with queues.hold(f"tournaments/{event.id}"):
        queued = [
            asyncio.create_task(
                client.put(
                    f"{base}/{round_number}/games/{table}/result",
                    json={"result": result},
                    headers={**event.auth(), "Idempotency-Key": str(uuid.uuid4())},
                )
            )
            for round_number, table, result in reports
        ]
        await asyncio.sleep(WAIT / 3)
        assert not any(task.done() for task in queued)
    answers = await asyncio.gather(*queued)
    assert [a.status_code for a in answers] == [200] * len(reports)
    async with app.state.arbiter.sessions() as session:
        logged = await events_since(session, event.id, 0)
    stored = [
        (e.payload["round"], e.payload["table"]) for e in logged if e.type.startswith("result")
    ]
    assert stored == [(r, t) for r, t, _ in reports]  # first come, first served
    for round_number, table, result in reports:
        games = (await client.get(f"{base}/{round_number}")).json()["games"]
        assert next(g for g in games if g["table"] == table)["result"] == result
    assert len(queues) == 0


async def _write_with_a_stalled_reader(
    app: FastAPI, path: str, headers: dict[str, str], body: bytes, stalled: asyncio.Event
) -> list[dict[str, object]]:
    """One PUT straight through ASGI whose client does not read its answer until
    `stalled` is set (a phone on a bad network); returns the messages it was sent."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "PUT",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]
        + [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("arbiter.test", 80),
    }
    sent: list[dict[str, object]] = []
    delivered = False

    async def receive() -> dict[str, object]:
        nonlocal delivered
        if delivered:
            await asyncio.Event().wait()  # no more body; the client stays connected
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        await stalled.wait()
        sent.append(dict(message))

    await app(scope, receive, send)
    return sent


@pytest.mark.parametrize("keyed", [True, False], ids=["keyed", "unkeyed"])
async def test_a_client_slow_to_read_its_answer_does_not_hold_up_the_next_writer(
    app: FastAPI, client: httpx.AsyncClient, keyed: bool
) -> None:
    event = await create_round_robin(client, PLAYERS)
    base = f"/v1/tournaments/{event.id}/rounds/1/games"
    key = {"Idempotency-Key": str(uuid.uuid4())} if keyed else {}
    stalled = asyncio.Event()
    first = asyncio.create_task(
        _write_with_a_stalled_reader(
            app, f"{base}/1/result", {**event.auth(), **key}, b'{"result": "1-0"}', stalled
        )
    )
    try:
        async with asyncio.timeout(WAIT * 0.8):  # well inside the queue's wait
            while True:  # the first write has committed (its answer is still unsent)
                games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
                if games["games"][0]["result"] == "1-0":
                    break
                await asyncio.sleep(0.01)
            second = await client.put(
                f"{base}/2/result", json={"result": "0-1"}, headers=event.auth()
            )
        assert second.status_code == 200, second.text
        assert not first.done()
    finally:
        stalled.set()
    messages = await first
    assert messages[0]["status"] == 200
