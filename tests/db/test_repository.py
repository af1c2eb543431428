"""The db layer itself, called directly (not through HTTP) on every backend the suite
runs: the event log (service.db.events) and the repository (service.db.repository)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest
from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.actor import Actor
from service.app.register import register as add_player
from service.app.report_result import report_result as submit_result
from service.app.start import close_start_list
from service.db.event_types import PlayerRemoved, TournamentArchived, decode
from service.db.events import append_event, events_since, lock_tournament
from service.db.game_reads import round_rows
from service.db.player_reads import list_players
from service.db.repository import create_tournament, store_round
from service.db.session import SessionFactory
from service.db.tables import TournamentRow
from service.db.tokens import token_matches
from service.db.tournament_reads import get_tournament, load_engine_tournament
from service.engine.model import Bye, ByeKind, Game, GameResult, Round
from service.errors import Conflict, Forbidden, InvalidInput, NotFound


async def _tournament(
    sessions: SessionFactory, players: list[tuple[str, int]], system: str = "round-robin"
) -> str:
    """A committed tournament with `players` registered; returns its id."""
    async with sessions() as session:
        row, _ = await create_tournament(
            session, name="T", system=system, settings={}, total_rounds=None
        )
        for name, rating in players:
            await add_player(session, row, {"name": name, "rating": rating})
        await session.commit()
        return row.id


async def _events(session: AsyncSession, tournament_id: str) -> list[tuple[int, str]]:
    return [(e.seq, e.type) for e in await events_since(session, tournament_id, 0)]


# ------------------------------------------------------------------ the event log


async def test_sequence_numbers_are_gapless_per_tournament(sessions: SessionFactory) -> None:
    first = await _tournament(sessions, [])
    second = await _tournament(sessions, [])
    async with sessions() as session:
        seqs = [await append_event(session, first, PlayerRemoved(n)) for n in range(3)]
        other = await append_event(session, second, TournamentArchived())
        await session.commit()
    assert seqs == [2, 3, 4]  # 1 is tournament_created
    assert other == 2
    async with sessions() as session:
        events = await events_since(session, first, 0)
        assert [(e.seq, e.type) for e in events] == [
            (1, "tournament_created"), (2, "player_removed"), (3, "player_removed"),
            (4, "player_removed"),
        ]  # fmt: skip
        assert [e.payload for e in events[1:]] == [{"id": 0}, {"id": 1}, {"id": 2}]
        assert decode(events[2].type, events[2].payload) == PlayerRemoved(1)
        assert [e.seq for e in await events_since(session, first, 2)] == [3, 4]
        assert [e.seq for e in await events_since(session, first, 1, limit=2)] == [2, 3]
        assert await events_since(session, first, 4) == []
        row = await session.get(TournamentRow, first)
        assert row is not None and row.last_seq == 4


async def test_a_rolled_back_write_leaves_no_event_and_no_gap(sessions: SessionFactory) -> None:
    tid = await _tournament(sessions, [])
    async with sessions() as session:
        assert await append_event(session, tid, PlayerRemoved(1)) == 2
        await session.rollback()
    async with sessions() as session:
        assert await append_event(session, tid, TournamentArchived()) == 2
        await session.commit()
    async with sessions() as session:
        assert await _events(session, tid) == [
            (1, "tournament_created"),
            (2, "tournament_archived"),
        ]


async def test_concurrent_writers_take_distinct_numbers(sessions: SessionFactory) -> None:
    """Ten transactions append at once: each locks the tournament first, so the numbers
    are 2..11 with none lost or repeated."""
    tid = await _tournament(sessions, [])

    async def writer(n: int) -> int:
        async with sessions() as session:
            await lock_tournament(session, tid)
            seq = await append_event(session, tid, PlayerRemoved(n))
            await session.commit()
            return seq

    seqs = await asyncio.gather(*(writer(n) for n in range(10)))
    assert sorted(seqs) == list(range(2, 12))
    async with sessions() as session:
        events = await events_since(session, tid, 1)
    assert sorted(e.payload["id"] for e in events) == list(range(10))


# ------------------------------------------------------------------ the repository


async def test_unknown_tournament_is_not_found(sessions: SessionFactory) -> None:
    async with sessions() as session:
        with pytest.raises(NotFound) as info:
            await get_tournament(session, "nope")
    assert info.value.field == "tournament_id"


async def test_closing_the_list_numbers_by_rating_then_name(sessions: SessionFactory) -> None:
    tid = await _tournament(sessions, [("bob", 2000), ("Ann", 2000), ("Cid", 2100), ("Dan", 0)])
    async with sessions() as session:
        row = await get_tournament(session, tid)
        issued = await close_start_list(session, row)
        await session.commit()
    assert [(p.name, p.start_number) for p, _ in issued] == [
        ("Cid", 1), ("Ann", 2), ("bob", 3), ("Dan", 4),
    ]  # fmt: skip
    async with sessions() as session:
        stored = {p.name: p for p in await list_players(session, tid)}
        assert (await get_tournament(session, tid)).status == "running"
        for player, token in issued:
            assert token_matches(token, stored[player.name].token_hash)
            assert sum(token_matches(token, p.token_hash) for p in stored.values()) == 1
        row = await get_tournament(session, tid)
        with pytest.raises(Conflict):
            await close_start_list(session, row)
        with pytest.raises(Conflict):
            await add_player(session, row, {"name": "Eve", "rating": 1500})


async def test_a_list_of_one_cannot_close(sessions: SessionFactory) -> None:
    tid = await _tournament(sessions, [("Ann", 2000)])
    async with sessions() as session:
        with pytest.raises(InvalidInput) as info:
            await close_start_list(session, await get_tournament(session, tid))
    assert info.value.field == "players"


async def _started(sessions: SessionFactory, total_rounds: int = 1) -> str:
    """Four players, the list closed, round 1 stored: 1-4 on table 1, 2-3 on table 2."""
    tid = await _tournament(sessions, [("A", 2400), ("B", 2300), ("C", 2200), ("D", 2100)])
    async with sessions() as session:
        row = await get_tournament(session, tid)
        row.total_rounds = total_rounds
        await close_start_list(session, row)
        await store_round(session, row, Round(1, (Game(1, 1, 4, table=1), Game(1, 2, 3, table=2))))
        row.current_round = 1  # as the start workflow leaves it (service.app.start)
        await session.commit()
    return tid


async def test_reports_agree_dispute_and_the_organizer_decides(sessions: SessionFactory) -> None:
    tid = await _started(sessions)
    white, black, organizer = Actor("player", 1), Actor("player", 4), Actor("organizer")
    async with sessions() as session:
        row = await get_tournament(session, tid)
        first = await submit_result(session, row, 1, 1, "1-0", white)
        assert (first.game.status, first.game.result) == ("provisional", "1-0")
        assert (await submit_result(session, row, 1, 1, "1-0", white)).seq is None  # a repeat
        agreed = await submit_result(session, row, 1, 1, "1-0", black)
        assert first.seq is not None
        assert agreed.game.status == "confirmed" and agreed.seq == first.seq + 1
        disputed = await submit_result(session, row, 1, 2, "1-0", Actor("player", 2))
        disputed = await submit_result(session, row, 1, 2, "0-1", Actor("player", 3))
        assert (disputed.game.status, disputed.game.result) == ("disputed", None)
        assert row.status == "running" and row.current_round == 1
        decided = await submit_result(session, row, 1, 2, "1/2-1/2", organizer)
        assert decided.game.status == "confirmed"
        assert row.status == "finished"  # every game of the last round confirmed
        await session.commit()
    async with sessions() as session:
        events = await events_since(session, tid, 0)
    results = [
        (e.type, e.payload["table"], e.payload["result"])
        for e in events
        if e.type.startswith("result")
    ]
    assert results == [
        ("result_reported", 1, "1-0"),
        ("result_confirmed", 1, "1-0"),
        ("result_reported", 2, "1-0"),
        ("result_disputed", 2, None),
        ("result_confirmed", 2, "1/2-1/2"),
    ]
    last = events[-1].payload
    assert last["by"] == "organizer"
    assert last["previous"]["status"] == "disputed"
    assert last["previous"]["reports"] == {"white": "1-0", "black": "0-1"}


async def test_a_confirmed_result_is_corrected_only_by_the_organizer(
    sessions: SessionFactory,
) -> None:
    tid = await _started(sessions, total_rounds=2)
    async with sessions() as session:
        row = await get_tournament(session, tid)
        await submit_result(session, row, 1, 1, "1-0", Actor("organizer"))
        with pytest.raises(Conflict) as conflict:
            await submit_result(session, row, 1, 1, "0-1", Actor("player", 4))
        assert conflict.value.field == "result"
        corrected = await submit_result(session, row, 1, 1, "0-1", Actor("organizer"))
        assert corrected.game.result == "0-1"
        await session.commit()
    async with sessions() as session:
        types = [t for _, t in await _events(session, tid)]
    assert types[-2:] == ["result_confirmed", "result_corrected"]


async def test_reports_outside_ones_own_games_are_refused(sessions: SessionFactory) -> None:
    tid = await _started(sessions)
    async with sessions() as session:
        row = await get_tournament(session, tid)
        with pytest.raises(Forbidden):
            await submit_result(session, row, 1, 1, "1-0", Actor("player", 2))
        with pytest.raises(NotFound) as unpaired:
            await submit_result(session, row, 2, 1, "1-0", Actor("organizer"))
        assert unpaired.value.field == "round_number"
        with pytest.raises(NotFound) as no_table:
            await submit_result(session, row, 1, 9, "1-0", Actor("organizer"))
        assert no_table.value.field == "table"
        assert await _events(session, tid) == [(1, "tournament_created")] + [
            (n, "player_added") for n in range(2, 6)
        ]


async def test_the_engine_view_reads_back_what_was_stored(sessions: SessionFactory) -> None:
    tid = await _started(sessions, total_rounds=2)
    async with sessions() as session:
        row = await get_tournament(session, tid)
        await store_round(
            session,
            row,
            Round(2, (Game(2, 4, 2, GameResult.DRAW, table=1),), (Bye(2, 3, ByeKind.HALF_POINT),)),
        )
        await submit_result(session, row, 1, 1, "1-0", Actor("organizer"))
        await submit_result(session, row, 1, 2, "0-1", Actor("player", 2))  # provisional
        await session.commit()
    async with sessions() as session:
        row = await get_tournament(session, tid)
        games, byes = await round_rows(session, tid)
        assert [(g.round, g.table_no, g.white, g.black, g.status) for g in games] == [
            (1, 1, 1, 4, "confirmed"), (1, 2, 2, 3, "provisional"), (2, 1, 4, 2, "confirmed"),
        ]  # fmt: skip
        assert [(b.round, b.player, b.kind) for b in byes] == [(2, 3, ByeKind.HALF_POINT)]
        confirmed = await load_engine_tournament(session, row)
        everything = await load_engine_tournament(session, row, confirmed_only=False)
    assert [p.start_number for p in confirmed.players] == [1, 2, 3, 4]
    by_table = {(g.round, g.table): g.result for r in confirmed.rounds for g in r.games}
    assert by_table[(1, 1)] is GameResult.WHITE_WINS
    assert by_table[(1, 2)] is None  # a provisional report is not a result yet
    assert by_table[(2, 1)] is GameResult.DRAW  # stored with its result (an import)
    assert {(g.round, g.table): g.result for r in everything.rounds for g in r.games}[
        (1, 2)
    ] is GameResult.BLACK_WINS
    # 2: the draw only (the provisional round 1 game does not count); 3: the half-point bye
    assert (confirmed.scores()[2], confirmed.scores()[3]) == (Fraction(1, 2), Fraction(1, 2))


async def test_the_engine_view_sees_its_own_transactions_writes(sessions: SessionFactory) -> None:
    """A workflow reads the engine view inside its write (pairing the next round): the
    bulk read of the games runs on the session's connection, in its transaction."""
    tid = await _started(sessions, total_rounds=2)
    async with sessions() as session:
        row = await get_tournament(session, tid)
        await store_round(session, row, Round(2, (Game(2, 4, 2, GameResult.DRAW, table=1),), ()))
        view = await load_engine_tournament(session, row)
        await session.rollback()
    assert [(g.round, g.white, g.black, g.result) for g in view.rounds[-1].games] == [
        (2, 4, 2, GameResult.DRAW)
    ]
    async with sessions() as session:
        after = await load_engine_tournament(session, await get_tournament(session, tid))
    assert [r.number for r in after.rounds] == [1]  # rolled back: nothing of round 2 stored
