"""Changing or withdrawing a player (service/app/withdraw.py): details while the list is
open; in a round-robin under way a withdrawal forfeits the player's open games, each
with its own event."""

from __future__ import annotations

import pytest

from service.app.withdraw import change_player
from service.db.event_types import PlayerUpdated, ResultConfirmed
from service.db.game_reads import round_rows
from service.db.player_reads import get_player
from service.db.session import SessionFactory
from service.errors import Conflict
from tests.app.conftest import FOUR, events_after, last_seq, load, new_tournament


async def test_details_change_while_the_list_is_open(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, [("Ann", 2000)])
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        await change_player(session, await load(session, tid), 1, {"rating": 2050})
        await session.commit()
    async with sessions() as session:
        assert (await get_player(session, tid, 1)).rating == 2050
    assert await events_after(sessions, tid, seq) == [PlayerUpdated(1, {"rating": 2050})]


async def test_a_withdrawal_forfeits_the_open_games(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR, started=True)
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        await change_player(session, await load(session, tid), 4, {"withdrawn": True})
        await session.commit()
    async with sessions() as session:
        player = await get_player(session, tid, 4)
        assert player.extra["withdrawn"] is True
        number = player.start_number
        games, _ = await round_rows(session, tid)
    theirs = [g for g in games if number in (g.white, g.black)]
    assert len(theirs) == 3
    assert all(g.status == "confirmed" and g.extra == {"forfeit": "withdrawal"} for g in theirs)
    assert all(g.result == ("-+" if g.white == number else "+-") for g in theirs)
    written = await events_after(sessions, tid, seq)
    assert [type(e) for e in written] == [ResultConfirmed] * 3 + [PlayerUpdated]
    assert written[-1] == PlayerUpdated(4, {"withdrawn": True})


async def test_details_do_not_change_once_started(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR, started=True)
    async with sessions() as session:
        with pytest.raises(Conflict):
            await change_player(session, await load(session, tid), 1, {"rating": 1})
