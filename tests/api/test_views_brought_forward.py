"""Per-event views brought forward (service/api/snapshots.py): after result events
alone, the start list read for the cached seq stands for the new seq (no new read);
after any other event it is read again."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api import snapshots
from service.api.snapshots import engine_view, players_view
from service.db.repository import list_players
from service.db.tables import PlayerRow, TournamentRow
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
            await engine_view(state, session, row)
            return row.last_seq, await players_view(state, session, row)

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
