"""`GET /standings` without filters: the live reader's table, as of the event the request
saw or later, tagged with that event's seq (ETag) and answered 304 when unchanged."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.app import create_app
from service.config import Settings
from service.db.loading import Schedule
from service.db.tables import TournamentRow
from service.db.tournament_reads import load_engine_tournament
from service.engine.model import Tournament
from service.live.reader import ReaderError, TableText
from service.views import snapshots
from service.views.live_tables import Tables
from tests.api.conftest import create_round_robin

FOUR = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


async def _report(
    client: httpx.AsyncClient, event_id: str, auth: dict[str, str], table: int
) -> None:
    response = await client.put(
        f"/v1/tournaments/{event_id}/rounds/1/games/{table}/result",
        json={"result": "1-0"},
        headers=auth,
    )
    assert response.status_code == 200, response.text


async def test_a_writer_reads_its_own_result_and_the_etag_follows_the_seq(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, FOUR)
    url = f"/v1/tournaments/{event.id}/standings"
    before = await client.get(url)
    assert before.status_code == 200
    assert {row["points"] for row in before.json()["rows"]} == {0}
    tag = before.headers["etag"]

    unchanged = await client.get(url, headers={"If-None-Match": tag})
    assert unchanged.status_code == 304
    assert unchanged.headers["etag"] == tag

    await _report(client, event.id, event.auth(), 1)
    after = await client.get(url, headers={"If-None-Match": tag})
    assert after.status_code == 200
    assert after.headers["etag"] != tag
    assert sorted(row["points"] for row in after.json()["rows"]) == [0, 0, 0, 1]


async def test_the_table_comes_from_the_reader_once_per_event(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    event = await create_round_robin(client, FOUR)
    hub = app.state.arbiter.hub
    await hub.warmed()  # the start's own warm-up is not a read
    asked: list[tuple[int, int]] = []
    table = hub.reader.table

    async def counting(tournament_id: str, at_least: int) -> TableText | None:
        answer: TableText | None = await table(tournament_id, at_least)
        assert answer is not None
        asked.append((at_least, answer.seq))
        return answer

    hub.reader.table = counting
    url = f"/v1/tournaments/{event.id}/standings"
    first = (await client.get(url)).json()
    await _report(client, event.id, event.auth(), 2)
    second = (await client.get(url)).json()
    assert first != second
    # each answer is as of at least the seq the request read
    assert len(asked) == 2 and all(seq >= at_least for at_least, seq in asked)
    assert asked[1][0] > asked[0][0]

    async def down(tournament_id: str, at_least: int) -> TableText | None:
        raise ReaderError("restarting")

    hub.reader.table = down  # the API computes the same table itself meanwhile
    computed = await client.get(url)
    assert computed.status_code == 200
    assert computed.json() == second


async def test_a_start_and_a_pairing_have_the_reader_compute_the_new_table_at_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """A start or a pairing leaves the reader's view of the tournament cold: the reader
    is asked for the new table as soon as the write commits, before anybody reads it,
    so the first `GET /standings` is answered from its memory. A start that paired
    every round (a round-robin) hands the reader the rounds it stored."""
    hub = app.state.arbiter.hub
    asked: list[tuple[str, int, str]] = []
    table, seed = hub.reader.table, hub.reader.seed

    async def recording(tournament_id: str, at_least: int) -> TableText | None:
        asked.append((tournament_id, at_least, "read"))
        answer: TableText | None = await table(tournament_id, at_least)
        return answer

    async def seeding(tournament_id: str, seq: int, schedule: Schedule) -> TableText | None:
        asked.append((tournament_id, seq, f"handed {len(schedule.games)} games"))
        answer: TableText | None = await seed(tournament_id, seq, schedule)
        return answer

    async def warmed(tournament_id: str) -> tuple[int, str]:
        """The seq the reader was last asked for, and how, once the warm-ups ended."""
        await hub.warmed()
        seqs = [(seq, how) for asked_for, seq, how in asked if asked_for == tournament_id]
        assert seqs, f"the reader was not asked for the table: {asked}"
        return seqs[-1]

    hub.reader.table, hub.reader.seed = recording, seeding
    event = await create_round_robin(client, FOUR, start=False)
    assert asked == []  # registrations do not warm: one table per player would be waste
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200
    seq, how = await warmed(event.id)
    assert how == "handed 6 games"  # 4 players: 3 rounds of 2 games
    first = await client.get(f"/v1/tournaments/{event.id}/standings")
    assert first.headers["etag"] == f'"{seq}"'  # the start's own seq, asked for before it

    swiss = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=3)
    started_at, how = await warmed(swiss.id)
    assert how == "read"  # a Swiss start pairs nothing: nothing to hand over
    paired = await client.post(f"/v1/tournaments/{swiss.id}/rounds", json={}, headers=swiss.auth())
    assert paired.status_code == 201, paired.text
    paired_at, how = await warmed(swiss.id)
    assert (paired_at > started_at, how) == (True, "read")
    asked.clear()
    await _report(client, swiss.id, swiss.auth(), 1)
    await asyncio.sleep(0.05)
    assert asked == []  # a result does not warm: the reader brings its view forward


@pytest.mark.parametrize("system", ["round-robin", "flampark"])
async def test_the_table_built_from_a_starts_schedule_is_the_one_read_back(
    database_url: str, monkeypatch: pytest.MonkeyPatch, system: str
) -> None:
    """The reader's first table after a start comes from the rounds the start handed
    over, and is brought forward over results from there: it never reads the games
    back, and a fresh reader that does computes the same document, before and after
    results (odd fields have byes). The reader runs on a thread here, so its reads of
    the engine view can be counted."""
    reads_back: list[str] = []

    async def counted(session: AsyncSession, row: TournamentRow) -> Tournament:
        reads_back.append(row.id)
        return await load_engine_tournament(session, row)

    monkeypatch.setattr(snapshots, "load_engine_tournament", counted)
    async with _serving(Settings(database_url=database_url, live_reader="thread")) as (
        app,
        client,
    ):
        field = [(f"P{n:02d}", 2400 - 10 * n) for n in range(13)]
        event = await create_round_robin(client, field, system=system, rounds=4)
        await app.state.arbiter.hub.warmed()
        url = f"/v1/tournaments/{event.id}/standings"
        for table in (None, 1, 2):
            if table is not None:
                await _report(client, event.id, event.auth(), table)
            answer = await client.get(url)
            assert reads_back == []
            read_back = await _read_back(database_url, event.id)
            reads_back.clear()  # the fresh reader's own read
            assert answer.headers["etag"] == f'"{read_back.seq}"'
            assert answer.json() == json.loads(read_back.text)


async def test_a_schedule_that_reaches_the_reader_after_results_is_brought_forward(
    app: FastAPI, client: httpx.AsyncClient, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Results may be committed before the reader takes a start's schedule (it is busy,
    or far): the view built from the schedule stands for the start's seq and is brought
    forward over those results, still without reading a game back."""
    hub = app.state.arbiter.hub
    handed: list[tuple[str, int, Schedule]] = []
    seed = hub.reader.seed

    async def recording(tournament_id: str, seq: int, schedule: Schedule) -> TableText | None:
        handed.append((tournament_id, seq, schedule))
        answer: TableText | None = await seed(tournament_id, seq, schedule)
        return answer

    hub.reader.seed = recording
    event = await create_round_robin(client, [(f"P{n}", 2000 - n) for n in range(7)])
    await hub.warmed()
    ((tournament_id, seq, schedule),) = handed
    for table in (1, 2, 3):
        await _report(client, event.id, event.auth(), table)

    reads_back: list[str] = []

    async def counted(session: AsyncSession, row: TournamentRow) -> Tournament:
        reads_back.append(row.id)
        return await load_engine_tournament(session, row)

    late = Tables(Settings(database_url=database_url))
    await late.open()
    try:
        monkeypatch.setattr(snapshots, "load_engine_tournament", counted)
        brought = await late.table(tournament_id, seq, schedule)
        monkeypatch.undo()
    finally:
        await late.close()
    assert reads_back == []
    read_back = await _read_back(database_url, event.id)
    assert brought is not None and brought.seq == read_back.seq == seq + 3
    assert json.loads(brought.text) == json.loads(read_back.text)


@asynccontextmanager
async def _serving(settings: Settings) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """An app with its lifespan running, and a client talking to it in-process."""
    app = create_app(settings)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://a.test") as client,
    ):
        yield app, client


async def _read_back(database_url: str, tournament_id: str) -> TableText:
    """The table of a fresh reader, which reads everything from the database."""
    cold = Tables(Settings(database_url=database_url))
    await cold.open()
    try:
        found = await cold.table(tournament_id, 0)
    finally:
        await cold.close()
    assert found is not None
    return found


@pytest.mark.parametrize("keyed", [False, True], ids=["plain", "idempotency-key"])
async def test_a_start_answers_once_the_reader_holds_the_new_table(
    database_url: str, keyed: bool
) -> None:
    """The spectators come with the first round: a start's answer goes out once the
    reader has the tournament's table (so the first `GET /standings` is served from its
    memory), and the tournament's write queue is free meanwhile. The reader is slowed down
    here, so that a start that did not wait would answer before the table is ready."""
    async with _serving(Settings(database_url=database_url)) as (app, client):
        hub = app.state.arbiter.hub
        seed = hub.reader.seed
        seeded: list[str] = []
        queue_was_free: list[bool] = []

        async def slow(tournament_id: str, seq: int, schedule: Schedule) -> TableText | None:
            await asyncio.sleep(0.4)
            queue_was_free.append(len(app.state.arbiter.write_queues) == 0)  # no writer holds one
            answer: TableText | None = await seed(tournament_id, seq, schedule)
            seeded.append(tournament_id)
            return answer

        hub.reader.seed = slow
        event = await create_round_robin(client, FOUR, start=False)
        headers = {**event.auth(), **({"Idempotency-Key": f"start-{event.id}"} if keyed else {})}
        started = await client.post(f"/v1/tournaments/{event.id}/start", headers=headers)
        assert started.status_code == 200, started.text
        assert seeded == [event.id]
        assert queue_was_free == [True]


async def test_a_start_waits_for_the_table_no_longer_than_warm_wait_seconds(
    database_url: str,
) -> None:
    """A reader that does not answer (restarting, or far behind) costs a start at most
    `warm_wait_seconds`: the answer goes out, and the table comes when it comes."""
    async with _serving(Settings(database_url=database_url, warm_wait_seconds=0.2)) as (
        app,
        client,
    ):
        hub = app.state.arbiter.hub
        seed = hub.reader.seed
        held = asyncio.Event()

        async def stuck(tournament_id: str, seq: int, schedule: Schedule) -> TableText | None:
            await held.wait()
            answer: TableText | None = await seed(tournament_id, seq, schedule)
            return answer

        hub.reader.seed = stuck
        event = await create_round_robin(client, FOUR, start=False)
        started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
        assert started.status_code == 200, started.text
        assert not held.is_set()  # answered while the reader still had no table
        held.set()
        await hub.warmed()
        standings = await client.get(f"/v1/tournaments/{event.id}/standings")
        assert standings.status_code == 200
        assert len(standings.json()["rows"]) == 4


async def test_a_batch_of_results_is_brought_forward_in_order(
    app: FastAPI, client: httpx.AsyncClient, database_url: str
) -> None:
    """Results committed between two reads reach the reader as one batch: a result and
    its correction in the same game (the later one counts), another game of that round
    and a game of another round. The table brought forward over them is the one a fresh
    reader reads back."""
    event = await create_round_robin(client, [(f"P{n}", 2000 - n) for n in range(6)])
    url = f"/v1/tournaments/{event.id}/standings"
    await app.state.arbiter.hub.warmed()
    assert (await client.get(url)).status_code == 200  # the reader's view, before the batch
    for round_number, table, result in (
        (1, 1, "1-0"),
        (1, 2, "1-0"),
        (1, 1, "0-1"),
        (2, 3, "1/2-1/2"),
    ):
        response = await client.put(
            f"/v1/tournaments/{event.id}/rounds/{round_number}/games/{table}/result",
            json={"result": result},
            headers=event.auth(),
        )
        assert response.status_code == 200, response.text
    brought = await client.get(url)
    read_back = await _read_back(database_url, event.id)
    assert brought.headers["etag"] == f'"{read_back.seq}"'
    assert brought.json() == json.loads(read_back.text)
    points = {row["start_number"]: row["points"] for row in brought.json()["rows"]}
    assert sum(points.values()) == 3  # two decisive games and a draw
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    first = next(game for game in games if game["table"] == 1)
    # the correction counts: round 1's winner is black, and white drew at most in round 2
    assert points[first["black"]] >= 1 and points[first["white"]] <= 0.5
