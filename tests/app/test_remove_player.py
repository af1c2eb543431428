"""Removing a player (service/app/remove_player.py): the row deleted and a
`player_removed` event while the list is open, the number never given again; refused
once the list is closed."""

from __future__ import annotations

import pytest

from service.app.register import register
from service.app.remove_player import remove_player
from service.db.event_types import PlayerRemoved
from service.db.player_reads import list_players
from service.db.session import SessionFactory
from service.errors import Conflict, NotFound
from tests.app.conftest import FOUR, events_after, last_seq, load, new_tournament


async def test_a_player_leaves_the_open_list(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, [("Ann", 2000), ("Bob", 1900)])
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        await remove_player(session, await load(session, tid), 2)
        await session.commit()
    async with sessions() as session:
        assert [p.name for p in await list_players(session, tid)] == ["Ann"]
        player, _ = await register(session, await load(session, tid), {"name": "Cid"})
        assert player.number == 3  # 2 is never given again
    assert await events_after(sessions, tid, seq) == [PlayerRemoved(2)]


async def test_nobody_is_removed_once_started_or_unknown(sessions: SessionFactory) -> None:
    open_list = await new_tournament(sessions, [("Ann", 2000)])
    async with sessions() as session:
        with pytest.raises(NotFound) as unknown:
            await remove_player(session, await load(session, open_list), 9)
    assert unknown.value.field == "number"
    started = await new_tournament(sessions, FOUR, started=True)
    seq = await last_seq(sessions, started)
    async with sessions() as session:
        with pytest.raises(Conflict):
            await remove_player(session, await load(session, started), 1)
    async with sessions() as session:
        assert len(await list_players(session, started)) == 4
    assert await events_after(sessions, started, seq) == []
