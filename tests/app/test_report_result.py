"""Reporting a result (service/app/report_result.py): the game's new state and one event
carrying the previous one; the round and the tournament move on when the last game is
confirmed; a repeat writes nothing; a report of someone else's game is refused."""

from __future__ import annotations

import pytest

from service.app.actor import Actor
from service.app.report_result import report_result
from service.db.event_types import ResultConfirmed, ResultReported
from service.db.game_reads import find_game
from service.db.session import SessionFactory
from service.errors import Conflict, Forbidden
from tests.app.conftest import events_after, last_seq, load, new_tournament

ORGANIZER = Actor("organizer")


async def test_two_agreeing_players_confirm_a_result(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, [("A", 2000), ("B", 1900)], started=True)
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        row = await load(session, tid)
        first = await report_result(session, row, 1, 1, "1-0", Actor("player", 1))
        repeat = await report_result(session, row, 1, 1, "1-0", Actor("player", 1))
        agreed = await report_result(session, row, 1, 1, "1-0", Actor("player", 2))
        await session.commit()
    assert (first.seq, repeat.seq, agreed.seq) == (seq + 1, None, seq + 2)
    async with sessions() as session:
        game = await find_game(session, tid, 1, 1)
        assert game is not None
        assert (game.result, game.status) == ("1-0", "confirmed")
        row = await load(session, tid)
        assert (row.status, row.current_round) == ("finished", 1)  # the only round
    written = await events_after(sessions, tid, seq)
    assert [type(e) for e in written] == [ResultReported, ResultConfirmed]
    confirmed = written[1]
    assert isinstance(confirmed, ResultConfirmed)
    assert (confirmed.by, confirmed.previous["status"]) == ("player:2", "provisional")


async def test_the_round_moves_on_when_its_last_game_is_confirmed(
    sessions: SessionFactory,
) -> None:
    tid = await new_tournament(sessions, [("A", 2000), ("B", 1900), ("C", 1800)], started=True)
    async with sessions() as session:
        row = await load(session, tid)
        game = await find_game(session, tid, 1, 1)
        assert game is not None
        await report_result(session, row, 1, game.table_no, "1/2-1/2", ORGANIZER)
        await session.commit()
    async with sessions() as session:
        row = await load(session, tid)
        assert (row.status, row.current_round) == ("running", 2)


async def test_refusals_write_nothing(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, [("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)])
    async with sessions() as session:
        with pytest.raises(Conflict) as not_started:
            await report_result(session, await load(session, tid), 1, 1, "1-0", ORGANIZER)
    assert not_started.value.field == "status"
    started = await new_tournament(
        sessions, [("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)], started=True
    )
    seq = await last_seq(sessions, started)
    async with sessions() as session:
        row = await load(session, started)
        game = await find_game(session, started, 1, 1)
        assert game is not None
        outsider = ({1, 2, 3, 4} - {game.white, game.black}).pop()
        with pytest.raises(Forbidden):
            await report_result(session, row, 1, 1, "1-0", Actor("player", outsider))
    assert await events_after(sessions, started, seq) == []
