"""Idempotency-Key (docs/api.md#retries-and-idempotency): the stored response commits with
the write, goes only to the caller entitled to it, and holds no readable secret."""

from __future__ import annotations

import asyncio
import base64
import uuid
from datetime import timedelta
from types import SimpleNamespace
from typing import cast

import httpx
from fastapi import FastAPI
from sqlmodel import select

from service.api.idempotency import purge_expired, run_purger
from service.db.session import SessionFactory
from service.db.tables import IdempotencyRow, utcnow
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
CREATE = {"name": "Club night", "system": "round-robin"}


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def _app(client: httpx.AsyncClient) -> FastAPI:
    app: FastAPI = client._transport.app  # type: ignore[attr-defined]
    return app


async def _records(client: httpx.AsyncClient) -> list[IdempotencyRow]:
    async with _app(client).state.arbiter.sessions() as session:
        return list((await session.exec(select(IdempotencyRow))).all())


async def test_a_short_key_without_a_token_is_refused(client: httpx.AsyncClient) -> None:
    """A guessable key without a token (`create-club-1`) would let anyone replay the
    organizer token."""
    before = len(await _records(client))
    response = await client.post(
        "/v1/tournaments", json=CREATE, headers={"Idempotency-Key": "create-club-1"}
    )
    assert response.status_code == 422
    assert response.json()["field"] == "Idempotency-Key"
    assert len(await _records(client)) == before


async def test_another_caller_never_gets_the_stored_token(client: httpx.AsyncClient) -> None:
    key = _key()
    first = await client.post("/v1/tournaments", json=CREATE, headers=key)
    assert first.status_code == 201
    # someone else sends the same body and key, with a token of their own
    thief = await client.post(
        "/v1/tournaments", json=CREATE, headers={**key, "Authorization": "Bearer stolen"}
    )
    assert thief.status_code == 201
    assert thief.headers.get("idempotent-replayed") is None
    assert thief.json()["organizer_token"] != first.json()["organizer_token"]
    # the creator's own retry replays the first answer
    again = await client.post("/v1/tournaments", json=CREATE, headers=key)
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.json() == first.json()


async def test_the_table_holds_no_readable_token(client: httpx.AsyncClient) -> None:
    before = {r.key for r in await _records(client)}
    created = await client.post("/v1/tournaments", json=CREATE, headers=_key())
    event = created.json()
    auth = {"Authorization": f"Bearer {event['organizer_token']}"}
    for name, rating in PLAYERS:
        await client.post(
            f"/v1/tournaments/{event['id']}/players",
            json={"name": name, "rating": rating},
            headers=auth,
        )
    started = await client.post(f"/v1/tournaments/{event['id']}/start", headers={**auth, **_key()})
    assert started.status_code == 200
    secrets = [event["organizer_token"]] + [t["token"] for t in started.json()["player_tokens"]]
    records = [r for r in await _records(client) if r.key not in before]
    assert len(records) == 2
    for record in records:
        stored = f"{record.key} {record.headers} {record.body}"
        decoded = base64.b64decode(record.body or "")
        for secret in secrets:
            assert secret not in stored
            assert secret.encode() not in decoded
        assert event["id"].encode() not in decoded  # the whole body is sealed


async def test_a_retry_right_after_the_response_replays(client: httpx.AsyncClient) -> None:
    """The key is done when the response goes out (once it was marked done after, and a
    quick retry got a 409)."""
    players = [(f"P{n}", 2000 - n) for n in range(12)]
    event = await create_round_robin(client, players)
    for table in range(1, 7):
        url = f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result"
        headers = {**event.auth(), **_key()}
        first = await client.put(url, json={"result": "1-0"}, headers=headers)
        retry = await client.put(url, json={"result": "1-0"}, headers=headers)
        assert first.status_code == retry.status_code == 200
        assert retry.headers.get("idempotent-replayed") == "true"
        assert retry.json() == first.json()


async def test_simultaneous_copies_write_once_and_answer_alike(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, PLAYERS)
    url = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    headers = {**event.auth(1), **_key()}
    responses = await asyncio.gather(
        *(client.put(url, json={"result": "1-0"}, headers=headers) for _ in range(6))
    )
    assert {r.status_code for r in responses} == {200}
    assert len({r.text for r in responses}) == 1
    assert sum(r.headers.get("idempotent-replayed") != "true" for r in responses) == 1
    from service.db.events import events_since

    async with _app(client).state.arbiter.sessions() as session:
        events = await events_since(session, event.id, 0)
    assert [e.type for e in events].count("result_reported") == 1


async def test_a_refused_write_keeps_no_record(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    before = len(await _records(client))
    headers = {**event.auth(), **_key()}
    url = f"/v1/tournaments/{event.id}/rounds/1/games/99/result"
    missing = await client.put(url, json={"result": "1-0"}, headers=headers)
    assert missing.status_code == 404
    assert len(await _records(client)) == before


async def test_a_retry_waits_for_the_first_and_runs_if_it_failed(
    client: httpx.AsyncClient,
) -> None:
    """A request still holding its key (uncommitted) makes the retry wait; when the
    first one ends without committing (a crash), the retry runs the write itself."""
    from service.api.idempotency_records import RequestParts
    from service.db.idempotency import claim

    event = await create_round_robin(client, PLAYERS)
    path = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    body = b'{"result":"1-0"}'
    key = str(uuid.uuid4())
    headers = {**event.auth(), "Idempotency-Key": key, "content-type": "application/json"}
    parts = RequestParts("PUT", path, headers["Authorization"], key)
    import hashlib

    async with _app(client).state.arbiter.sessions() as first:
        assert await claim(first, parts.lookup, hashlib.sha256(body).hexdigest())
        retry = asyncio.create_task(client.put(path, content=body, headers=headers))
        await asyncio.sleep(0.5)
        assert not retry.done()  # waiting for the first request's transaction
        await first.rollback()  # the first request dies
    response = await retry
    assert response.status_code == 200
    assert response.headers.get("idempotent-replayed") is None
    assert response.json()["result"] == "1-0"


async def test_expired_records_are_purged(client: httpx.AsyncClient) -> None:
    sessions = _app(client).state.arbiter.sessions
    old, new = f"old-{uuid.uuid4()}", f"new-{uuid.uuid4()}"
    async with sessions() as session:
        session.add(
            IdempotencyRow(
                key=old, request_hash="x", state="done", created_at=utcnow() - timedelta(days=3)
            )
        )
        session.add(IdempotencyRow(key=new, request_hash="x", state="done"))
        await session.commit()
    # the app's own purger may have run meanwhile (it starts with the app), so the count
    # may be 0 here; what matters is that the old record is gone and the new one kept
    await purge_expired(sessions, timedelta(hours=24))
    keys = {r.key for r in await _records(client)}
    assert new in keys
    assert old not in keys


class _SlowPurgeSession:
    """A session whose DELETE takes 0.2 s, recording what it got to do."""

    def __init__(self, done: list[str]) -> None:
        self.done = done

    async def __aenter__(self) -> _SlowPurgeSession:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        return None

    async def exec(self, _statement: object) -> SimpleNamespace:
        await asyncio.sleep(0.2)
        self.done.append("deleted")
        return SimpleNamespace(rowcount=0)

    async def commit(self) -> None:
        self.done.append("committed")


async def test_the_purger_stops_between_purges_never_in_one() -> None:
    """Stopping it while a purge runs lets that purge finish: cancelled mid-statement,
    its connection would be closed after the event loop is gone."""
    done: list[str] = []
    stop = asyncio.Event()
    sessions = cast(SessionFactory, lambda: _SlowPurgeSession(done))
    purger = asyncio.create_task(run_purger(sessions, timedelta(hours=24), 600, stop))
    await asyncio.sleep(0.05)  # the first purge is under way
    stop.set()
    await asyncio.wait_for(purger, 5)
    assert done == ["deleted", "committed"]
