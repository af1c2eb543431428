"""The arbiter's hand on a Swiss round (service/app/manual_pairing.py): a round replaced
by hand before any result is recorded (stored, one `round_repaired` event, warnings
beside the engine's pairing), a round taken back (`round_unpaired`), and every bad
input refused naming the entry with nothing stored."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service.app.actor import Actor
from service.app.manual_pairing import replace_pairing, unpair_round
from service.app.pair_round import pair_round
from service.app.register import register
from service.app.report_result import report_result
from service.app.withdraw import change_player
from service.db.event_types import RoundPaired, RoundRepaired, RoundUnpaired
from service.db.game_reads import round_rows
from service.db.player_reads import list_players
from service.db.session import SessionFactory
from service.errors import Conflict, InvalidInput, NotFound, Problem
from tests.app.conftest import FOUR, events_after, last_seq, load, new_tournament

ORGANIZER = Actor("organizer")
WHITE_FIRST = {"initial_colour": "white"}
"""XXC white1: the top player has white in round 1."""


async def dutch_with_round_one(sessions: SessionFactory, *, confirm: bool) -> str:
    """Four players, Dutch, 3 rounds; round 1 paired by the engine (1-3 and 4-2) and,
    with `confirm`, white winning both games (confirmed by the organizer)."""
    tid = await new_tournament(
        sessions, FOUR, system="swiss-dutch", rounds=3, started=True, swiss=WHITE_FIRST
    )
    async with sessions() as session:
        await pair_round(session, await load(session, tid), [], explain=False)
        if confirm:
            for table in (1, 2):
                await report_result(session, await load(session, tid), 1, table, "1-0", ORGANIZER)
        await session.commit()
    return tid


async def stored(sessions: SessionFactory, tid: str, number: int) -> list[tuple[int, int, int]]:
    async with sessions() as session:
        games, _ = await round_rows(session, tid, number)
    return [(g.table_no, g.white, g.black) for g in games]


async def refused(
    sessions: SessionFactory,
    tid: str,
    number: int,
    games: Sequence[tuple[int, int]],
    byes: Sequence[tuple[int, str]] = (),
) -> Problem:
    """The problem a manual pairing is refused with; nothing stored."""
    seq = await last_seq(sessions, tid)
    before = await stored(sessions, tid, number)
    async with sessions() as session:
        with pytest.raises(Problem) as caught:
            await replace_pairing(session, await load(session, tid), number, games, byes, ORGANIZER)
        await session.rollback()
    assert await events_after(sessions, tid, seq) == []
    assert await stored(sessions, tid, number) == before
    return caught.value


async def test_round_one_replaced_by_hand(sessions: SessionFactory) -> None:
    tid = await dutch_with_round_one(sessions, confirm=False)
    engine = await stored(sessions, tid, 1)
    assert engine == [(1, 1, 3), (2, 4, 2)]  # C.04.3: S1 {1, 2} against S2 {3, 4}
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        made = await replace_pairing(
            session, await load(session, tid), 1, [(2, 1), (3, 4)], [], ORGANIZER
        )
        await session.commit()
    assert await stored(sessions, tid, 1) == [(1, 2, 1), (2, 3, 4)]
    # round 1: no history, every score 0, no preference: nothing to warn of
    assert made.warnings == []
    assert made.engine is not None
    assert [(g.table, g.white, g.black) for g in made.engine.games] == engine
    assert await events_after(sessions, tid, seq) == [
        RoundRepaired(1, games=[[1, 2, 1], [2, 3, 4]], byes=[], by="organizer", warnings=[])
    ]
    async with sessions() as session:
        assert (await load(session, tid)).current_round == 1


async def test_a_rematch_with_the_same_colours_is_warned_of(sessions: SessionFactory) -> None:
    """Round 1: 1-3 1-0, 4-2 1-0, so 1 and 4 have 1 point, 2 and 3 none. Round 2 by
    hand repeats round 1: two rematches (C.04.1 b); 1 and 4 (white, preference black)
    and 2 and 3 (black, preference white) miss their preference, strong after one game
    (C12, C13: 4 against 0); 1 and 4 float down onto 0-point players (C6: 2 against 0,
    C7 scores [1, 1] against none)."""
    tid = await dutch_with_round_one(sessions, confirm=True)
    async with sessions() as session:
        await pair_round(session, await load(session, tid), [], explain=False)
        await session.commit()
    async with sessions() as session:
        made = await replace_pairing(
            session, await load(session, tid), 2, [(1, 3), (4, 2)], [], ORGANIZER
        )
        await session.commit()
    found = [(w.severity, w.rule, w.players) for w in made.warnings]
    assert found == [
        ("error", "C.04.1 b", (1, 3)),
        ("error", "C.04.1 b", (4, 2)),
        ("warning", "C.04.3 C6", (1, 4)),
        ("warning", "C.04.3 C7", (1, 4)),
        ("warning", "C.04.3 C12", (1, 3, 4, 2)),
        ("warning", "C.04.3 C13", (1, 3, 4, 2)),
    ]
    c6 = next(w for w in made.warnings if w.rule == "C.04.3 C6")
    assert c6.message.endswith(": 2 against 0 in the engine's pairing")
    assert made.engine is not None
    engine_pairs = {frozenset((g.white, g.black)) for g in made.engine.games}
    assert engine_pairs == {frozenset((1, 4)), frozenset((2, 3))}
    events = await events_after(sessions, tid, 0)
    assert events[-1] == RoundRepaired(
        2,
        games=[[1, 1, 3], [2, 4, 2]],
        byes=[],
        by="organizer",
        warnings=["C.04.1 b", "C.04.3 C12", "C.04.3 C13", "C.04.3 C6", "C.04.3 C7"],
    )


async def test_the_engines_pairing_with_colours_swapped_is_info(sessions: SessionFactory) -> None:
    tid = await dutch_with_round_one(sessions, confirm=False)
    async with sessions() as session:
        made = await replace_pairing(
            session, await load(session, tid), 1, [(3, 1), (4, 2)], [], ORGANIZER
        )
    assert [(w.severity, w.rule, w.players) for w in made.warnings] == [
        ("info", "C.04.3 art. 5", (3, 1))
    ]


async def test_bad_manual_pairings_are_refused(sessions: SessionFactory) -> None:
    five = [*FOUR, ("Eve", 2000)]
    tid = await new_tournament(sessions, five, system="swiss-dutch", rounds=3, started=True)
    async with sessions() as session:
        await pair_round(session, await load(session, tid), [], explain=False)
        await session.commit()
    twice = await refused(sessions, tid, 1, [(1, 2), (3, 4), (2, 5)])
    assert isinstance(twice, InvalidInput) and twice.field == "games[2].white"
    unknown = await refused(sessions, tid, 1, [(1, 2), (3, 9)], [(4, "half-point")])
    assert unknown.field == "games[1].black" and "no player 9" in unknown.detail
    missing = await refused(sessions, tid, 1, [(1, 2), (3, 4)])
    assert (missing.field, missing.extra["players"]) == ("games", [5])
    two_pabs = await refused(
        sessions,
        tid,
        1,
        [(1, 2)],
        [(3, "pairing-allocated"), (4, "zero-point"), (5, "pairing-allocated")],
    )
    assert two_pabs.field == "byes[2].type"
    bye_twice = await refused(
        sessions, tid, 1, [(1, 2), (3, 4)], [(5, "half-point"), (1, "zero-point")]
    )
    assert bye_twice.field == "byes[1].player"
    async with sessions() as session:
        eve = next(p for p in await list_players(session, tid) if p.start_number == 5)
        await change_player(session, await load(session, tid), eve.number, {"withdrawn": True})
        await session.commit()
    withdrawn = await refused(sessions, tid, 1, [(1, 2), (3, 5)], [(4, "pairing-allocated")])
    assert withdrawn.field == "games[1].black" and "withdrawn" in withdrawn.detail
    # without the withdrawn player: four games' players, and 5 gets a zero-point bye
    async with sessions() as session:
        await replace_pairing(session, await load(session, tid), 1, [(1, 2), (3, 4)], [], ORGANIZER)
        await session.commit()
        _, byes = await round_rows(session, tid, 1)
    assert [(b.player, b.kind) for b in byes] == [(5, "zero-point")]


async def test_a_round_with_a_result_is_not_changed(sessions: SessionFactory) -> None:
    tid = await dutch_with_round_one(sessions, confirm=False)
    async with sessions() as session:
        await report_result(session, await load(session, tid), 1, 2, "0-1", Actor("player", 2))
        await session.commit()
    conflict = await refused(sessions, tid, 1, [(1, 2), (3, 4)])
    assert isinstance(conflict, Conflict) and conflict.extra["tables"] == [2]
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        with pytest.raises(Conflict):
            await unpair_round(session, await load(session, tid), 1, ORGANIZER)
    assert await events_after(sessions, tid, seq) == []


async def test_only_the_last_paired_round(sessions: SessionFactory) -> None:
    tid = await dutch_with_round_one(sessions, confirm=True)
    async with sessions() as session:
        await pair_round(session, await load(session, tid), [], explain=False)
        await session.commit()
    earlier = await refused(sessions, tid, 1, [(1, 2), (3, 4)])
    assert isinstance(earlier, Conflict) and "round 2" in earlier.detail
    # the next round may be paired by hand only once the last one's results are in
    next_one = await refused(sessions, tid, 3, [(1, 2), (3, 4)])
    assert isinstance(next_one, Conflict)
    beyond = await refused(sessions, tid, 4, [(1, 2), (3, 4)])
    assert isinstance(beyond, NotFound)


async def test_unpair_and_pair_again(sessions: SessionFactory) -> None:
    tid = await dutch_with_round_one(sessions, confirm=True)
    async with sessions() as session:
        await pair_round(session, await load(session, tid), [], explain=False)
        await session.commit()
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        await unpair_round(session, await load(session, tid), 2, ORGANIZER)
        await session.commit()
    assert await stored(sessions, tid, 2) == []
    assert await events_after(sessions, tid, seq) == [RoundUnpaired(2, by="organizer")]
    async with sessions() as session:
        assert (await load(session, tid)).current_round == 1
        # paired again, now with player 4's half-point bye announced
        pairing = await pair_round(
            session, await load(session, tid), [(4, "half-point")], explain=False
        )
        await session.commit()
    # three to pair: 1 (1 point) floats down to 2; 3, the lowest, gets the PAB
    assert sorted((b.player, b.kind.value) for b in pairing.byes) == [
        (3, "pairing-allocated"),
        (4, "half-point"),
    ]
    assert [{g.white, g.black} for g in pairing.games] == [{1, 2}]
    events = await events_after(sessions, tid, seq)
    assert [type(e) for e in events] == [RoundUnpaired, RoundPaired]


async def test_round_one_taken_back(sessions: SessionFactory) -> None:
    tid = await dutch_with_round_one(sessions, confirm=False)
    async with sessions() as session:
        await unpair_round(session, await load(session, tid), 1, ORGANIZER)
        await session.commit()
    async with sessions() as session:
        row = await load(session, tid)
    assert (row.current_round, row.status) == (0, "running")
    assert await stored(sessions, tid, 1) == []


async def test_a_late_entry_may_be_paired_by_hand_or_left_absent(
    sessions: SessionFactory,
) -> None:
    """Eve enters (start number 5) after round 1 is paired: the round did not place her,
    so a manual round 1 need not name her (she stays absent: a zero-point bye), and
    may pair her, with the pairing-allocated bye to another player."""
    tid = await dutch_with_round_one(sessions, confirm=False)
    async with sessions() as session:
        await register(session, await load(session, tid), {"name": "Eve", "rating": 2000})
        await session.commit()
    async with sessions() as session:
        await replace_pairing(session, await load(session, tid), 1, [(1, 2), (3, 4)], [], ORGANIZER)
        await session.commit()
        _, byes = await round_rows(session, tid, 1)
    assert [(b.player, b.kind) for b in byes] == [(5, "zero-point")]
    async with sessions() as session:
        made = await replace_pairing(
            session,
            await load(session, tid),
            1,
            [(1, 5), (3, 2)],
            [(4, "pairing-allocated")],
            ORGANIZER,
        )
        await session.commit()
        _, byes = await round_rows(session, tid, 1)
    assert [(b.player, b.kind) for b in byes] == [(4, "pairing-allocated")]
    assert made.engine is not None and len(made.engine.games) == 2  # five to pair
