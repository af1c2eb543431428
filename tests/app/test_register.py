"""Registering a player (service/app/register.py): numbered in registration order while
the list is open, a late entry with the next start number and a token in a running
Swiss, refused once closed."""

from __future__ import annotations

import pytest

from service.app.register import register
from service.db.event_types import PlayerAdded
from service.db.player_reads import list_players
from service.db.session import SessionFactory
from service.db.tokens import token_matches
from service.errors import Conflict
from tests.app.conftest import FOUR, events_after, last_seq, load, new_tournament


async def test_a_player_joins_the_open_list(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, [("Ann", 2000)])
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        player, token = await register(
            session, await load(session, tid), {"name": "Bob", "rating": 1900, "federation": "POL"}
        )
        await session.commit()
    assert (player.number, player.start_number, token) == (2, None, None)
    async with sessions() as session:
        stored = [(p.number, p.name, p.federation) for p in await list_players(session, tid)]
    assert stored == [(1, "Ann", None), (2, "Bob", "POL")]
    assert await events_after(sessions, tid, seq) == [
        PlayerAdded(2, None, {"name": "Bob", "rating": 1900, "federation": "POL"})
    ]


async def test_a_late_entry_in_a_running_swiss(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR, system="swiss-dutch", rounds=5, started=True)
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        player, token = await register(session, await load(session, tid), {"name": "Eve"})
        await session.commit()
    assert (player.number, player.start_number) == (5, 5)
    assert token is not None and token_matches(token, player.token_hash)
    assert player.extra == {"late_entry_round": 1}
    assert await events_after(sessions, tid, seq) == [PlayerAdded(5, 5, {"name": "Eve"})]


async def test_a_closed_round_robin_takes_no_entry(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR, started=True)
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        with pytest.raises(Conflict) as refused:
            await register(session, await load(session, tid), {"name": "Eve"})
    assert refused.value.field == "status"
    assert await events_after(sessions, tid, seq) == []
