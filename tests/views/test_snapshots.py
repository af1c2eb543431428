"""Per-event views brought forward (service/views/snapshots.py): after result events
alone, the start list read for the cached seq stands for the new seq (no new read);
after any other event it is read again."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel.ext.asyncio.session import AsyncSession

from service.config import Settings
from service.db.events import events_since
from service.db.player_reads import list_players
from service.db.tables import PlayerRow, TournamentRow
from service.views import live_tables, snapshots
from service.views.live_tables import Tables
from service.views.snapshots import engine_view, players_view
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2000), ("Ben", 1900), ("Cy", 1800), ("Dee", 1700)]


async def test_the_start_list_moves_on_with_results_and_is_read_after_other_events(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = await create_round_robin(client, PLAYERS)
    await app.state.arbiter.hub.warmed()  # the reader's own read of the new start list
    base = f"/v1/tournaments/{event.id}"
    reads: list[str] = []

    async def counted(session: AsyncSession, tournament_id: str) -> list[PlayerRow]:
        reads.append(tournament_id)
        return await list_players(session, tournament_id)

    monkeypatch.setattr(snapshots, "list_players", counted)
    state = app.state.arbiter

    async def views() -> tuple[int, dict[int, PlayerRow]]:
        async with state.sessions() as session:
            row = await session.get(TournamentRow, event.id)
            assert row is not None
            await engine_view(state.views, session, row)
            return row.last_seq, await players_view(state.views, session, row)

    seq, first = await views()
    assert reads == [event.id]
    for table in (1, 2):
        reported = await client.put(
            f"{base}/rounds/1/games/{table}/result", json={"result": "1-0"}, headers=event.auth()
        )
        assert reported.status_code == 200, reported.text
    later_seq, later = await views()
    assert later_seq == seq + 2
    assert later is first
    assert reads == [event.id]

    listed = (await client.get(f"{base}/players")).json()
    withdrawn = await client.patch(
        f"{base}/players/{listed[0]['id']}", json={"withdrawn": True}, headers=event.auth()
    )
    assert withdrawn.status_code == 200, withdrawn.text
    _, after = await views()
    assert reads == [event.id, event.id]
    number = listed[0]["start_number"]
    assert after[number].extra.get("withdrawn")
    assert not first[number].extra.get("withdrawn")


async def _in_transaction(session: AsyncSession) -> bool:
    """Whether the database connection under `session` is inside a transaction now."""
    raw = await (await session.connection()).get_raw_connection()
    driver = raw.driver_connection
    assert driver is not None
    if hasattr(driver, "is_in_transaction"):  # asyncpg
        return bool(driver.is_in_transaction())
    return bool(driver.in_transaction)  # aiosqlite, as sqlite3


async def test_the_live_reader_reads_each_event_once_and_its_table_moves_with_it(
    client: httpx.AsyncClient, app: FastAPI, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refresh reads the events after its seq for the frames, outside any transaction
    (every read is bounded by the seq in the row read first); the engine's view is
    brought forward over those same events, not read again for the table."""
    event = await create_round_robin(client, PLAYERS)
    tables = Tables(Settings(database_url=database_url))
    await tables.open()
    try:
        first = await tables.refresh(event.id, None)
        assert first.snapshot is not None
        reads: list[int] = []
        in_transaction: list[bool] = []

        async def counted(session: AsyncSession, tournament_id: str, since: int) -> list[Any]:
            reads.append(since)
            in_transaction.append(await _in_transaction(session))
            return await events_since(session, tournament_id, since)

        monkeypatch.setattr(snapshots, "events_since", counted)
        monkeypatch.setattr(live_tables, "events_since", counted)
        pairs = {1: "1-0", 2: "1/2-1/2"}
        for table, result in pairs.items():
            reported = await client.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result",
                json={"result": result},
                headers=event.auth(),
            )
            assert reported.status_code == 200, reported.text
        update = await tables.refresh(event.id, first.seq)
        assert reads == [first.seq]  # once, for the frames and the table alike
        assert in_transaction == [False]  # no BEGIN and ROLLBACK round trips around it
        assert [frame.seq for frame in update.frames] == [first.seq + 1, first.seq + 2]
        assert update.snapshot is not None
        served = json.loads(update.snapshot)["standings"]["rows"]
        expected = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
        assert [(r["start_number"], r["points"]) for r in served] == [
            (r["start_number"], r["points"]) for r in expected
        ]
        assert sorted(r["points"] for r in served) == [0, 0.5, 0.5, 1]
    finally:
        await tables.close()
