"""Pairing the next Swiss round (service/app/pair_round.py): the round's games and byes
stored and one `round_paired` event, once the current round is confirmed; refused with
the open tables named otherwise."""

from __future__ import annotations

import pytest

from service.app.actor import Actor
from service.app.pair_round import pair_round
from service.app.report_result import report_result
from service.db.event_types import RoundPaired
from service.db.game_reads import round_rows
from service.db.session import SessionFactory
from service.errors import Conflict
from tests.app.conftest import FOUR, events_after, last_seq, load, new_tournament


async def test_round_one_is_paired_and_stored(sessions: SessionFactory) -> None:
    five = [*FOUR, ("Eve", 2000)]
    tid = await new_tournament(sessions, five, system="swiss-dutch", rounds=3, started=True)
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        pairing = await pair_round(session, await load(session, tid), [], explain=False)
        await session.commit()
    assert pairing.round == 1
    async with sessions() as session:
        games, byes = await round_rows(session, tid, 1)
        row = await load(session, tid)
    assert row.current_round == 1
    assert [(g.table_no, g.white, g.black) for g in games] == [
        (g.table, g.white, g.black) for g in pairing.games
    ]
    assert [(b.player, b.kind) for b in byes] == [(b.player, b.kind.value) for b in pairing.byes]
    assert len(games) == 2 and len(byes) == 1  # five players: one pairing-allocated bye
    assert await events_after(sessions, tid, seq) == [
        RoundPaired(
            1,
            games=[[g.table, g.white, g.black] for g in pairing.games],
            byes=[[b.player, b.kind.value] for b in pairing.byes],
        )
    ]


async def test_the_next_round_waits_for_the_open_tables(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR, system="swiss-dutch", rounds=3, started=True)
    async with sessions() as session:
        await pair_round(session, await load(session, tid), [], explain=False)
        await report_result(session, await load(session, tid), 1, 1, "1-0", Actor("organizer"))
        await session.commit()
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        with pytest.raises(Conflict) as refused:
            await pair_round(session, await load(session, tid), [], explain=False)
    assert (refused.value.field, refused.value.extra["tables"]) == ("round", [2])
    assert await events_after(sessions, tid, seq) == []
