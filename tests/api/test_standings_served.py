"""`GET /standings` without filters: the live reader's table, as of the event the request
saw or later, tagged with that event's seq (ETag) and answered 304 when unchanged."""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI

from service.live.reader import ReaderError, TableText
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
    so the first `GET /standings` is answered from its memory."""
    hub = app.state.arbiter.hub
    asked: list[tuple[str, int]] = []
    table = hub.reader.table

    async def recording(tournament_id: str, at_least: int) -> TableText | None:
        asked.append((tournament_id, at_least))
        answer: TableText | None = await table(tournament_id, at_least)
        return answer

    async def warmed(tournament_id: str) -> int:
        """The seq the reader was last asked for, once the warm-ups have ended."""
        await hub.warmed()
        seqs = [seq for asked_for, seq in asked if asked_for == tournament_id]
        assert seqs, f"the reader was not asked for the table: {asked}"
        return seqs[-1]

    hub.reader.table = recording
    event = await create_round_robin(client, FOUR, start=False)
    assert asked == []  # registrations do not warm: one table per player would be waste
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200
    seq = await warmed(event.id)
    first = await client.get(f"/v1/tournaments/{event.id}/standings")
    assert first.headers["etag"] == f'"{seq}"'  # the start's own seq, asked for before it

    swiss = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=3)
    started_at = await warmed(swiss.id)
    paired = await client.post(f"/v1/tournaments/{swiss.id}/rounds", json={}, headers=swiss.auth())
    assert paired.status_code == 201, paired.text
    paired_at = await warmed(swiss.id)
    assert paired_at > started_at
    asked.clear()
    await _report(client, swiss.id, swiss.auth(), 1)
    await asyncio.sleep(0.05)
    assert asked == []  # a result does not warm: the reader brings its view forward
