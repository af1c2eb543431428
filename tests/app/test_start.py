"""Closing the start list (service/app/start.py): start numbers in the engine's start
order, a token per player, the tournament running, every round of a round-robin
stored, one `tournament_started` event."""

from __future__ import annotations

import pytest

from service.app.start import start
from service.db.event_types import TournamentStarted
from service.db.game_reads import round_rows
from service.db.player_reads import list_players
from service.db.session import SessionFactory
from service.db.tokens import token_matches
from service.errors import Conflict, InvalidInput
from tests.app.conftest import events_after, last_seq, load, new_tournament


async def test_a_round_robin_starts_numbered_with_every_round_paired(
    sessions: SessionFactory,
) -> None:
    tid = await new_tournament(sessions, [("bob", 2000), ("Ann", 2000), ("Cid", 2100), ("Dan", 0)])
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        started = await start(session, await load(session, tid))
        await session.commit()
    assert [(p.name, p.start_number) for p, _ in started.issued] == [
        ("Cid", 1),
        ("Ann", 2),
        ("bob", 3),
        ("Dan", 4),
    ]
    assert started.schedule is not None
    async with sessions() as session:
        row = await load(session, tid)
        assert (row.status, row.total_rounds, row.current_round) == ("running", 3, 1)
        stored = {p.name: p for p in await list_players(session, tid)}
        for player, token in started.issued:
            assert token_matches(token, stored[player.name].token_hash)
        games, byes = await round_rows(session, tid)
        assert (len(games), len(byes)) == (6, 0)  # 3 rounds of 2 games
    assert await events_after(sessions, tid, seq) == [TournamentStarted(4, 3)]


async def test_a_swiss_starts_with_no_round_paired(sessions: SessionFactory) -> None:
    tid = await new_tournament(
        sessions, [("A", 2000), ("B", 1900), ("C", 1800)], system="swiss-dutch", rounds=5
    )
    async with sessions() as session:
        started = await start(session, await load(session, tid))
        await session.commit()
    assert started.schedule is None
    async with sessions() as session:
        row = await load(session, tid)
        assert (row.status, row.current_round) == ("running", 0)
        assert await round_rows(session, tid) == ([], [])


async def test_a_start_needs_two_players_and_an_open_list(sessions: SessionFactory) -> None:
    alone = await new_tournament(sessions, [("Ann", 2000)])
    async with sessions() as session:
        with pytest.raises(InvalidInput) as too_few:
            await start(session, await load(session, alone))
    assert too_few.value.field == "players"
    started = await new_tournament(sessions, [("A", 2000), ("B", 1900)], started=True)
    seq = await last_seq(sessions, started)
    async with sessions() as session:
        with pytest.raises(Conflict) as again:
            await start(session, await load(session, started))
    assert again.value.field == "status"
    assert await events_after(sessions, started, seq) == []
