"""`GET /standings` without filters: the live reader's table, as of the event the request
saw or later, tagged with that event's seq (ETag) and answered 304 when unchanged."""

from __future__ import annotations

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
