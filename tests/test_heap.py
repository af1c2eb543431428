"""The collector's settings for long-running processes (service/heap.py): garbage is
collected before the heap is frozen, what lives on is frozen out of later passes, the
young generation is collected less often, the API and the live reader process settle
their heaps where nothing is in flight, and the API's hub settles its spectators once
they joined and collects whole once enough of them left."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from multiprocessing import Pipe
from pathlib import Path
from typing import cast

import pytest

from service.api.app import create_app
from service.config import Settings
from service.db.loading import Schedule
from service.heap import (
    REOPEN_LEAVES,
    REOPEN_SHARE,
    REOPEN_UNDER_CHURN,
    YOUNG_COLLECTION_THRESHOLD,
    SpectatorHeap,
    reopen_heap,
    settle_heap,
    tune_collector,
)
from service.live.hub import Hub, Socket
from service.live.reader import FeedReader, TableText, Update, _answer
from tests.db_backends import prepared_database


class _Node:
    """A container that can take part in a reference cycle."""

    def __init__(self) -> None:
        self.other: object = None


@pytest.fixture(autouse=True)
def restored_collector() -> Iterator[None]:
    """Each test starts from an unfrozen heap and leaves the thresholds as it found them."""
    thresholds = gc.get_threshold()
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def _frozen(thing: object) -> bool:
    """Whether `thing` is out of the collector's generations (frozen)."""
    return gc.is_tracked(thing) and not any(o is thing for o in gc.get_objects())


def test_settling_collects_dead_cycles_then_freezes_the_living() -> None:
    dead, alive = _Node(), _Node()
    dead.other, alive.other = dead, alive  # two cycles, one of them still referenced
    gone = weakref.ref(dead)
    del dead
    assert gone() is not None  # reference counting alone cannot free a cycle
    settle_heap()
    assert gone() is None
    assert gc.get_freeze_count() > 0
    assert _frozen(alive)


def test_a_frozen_object_is_still_freed_by_reference_counting() -> None:
    kept = _Node()
    settle_heap()
    assert _frozen(kept)
    gone = weakref.ref(kept)
    del kept
    assert gone() is None


def test_young_collections_are_rarer_and_the_older_ratios_kept() -> None:
    gc.set_threshold(700, 11, 12)
    tune_collector()
    assert gc.get_threshold() == (YOUNG_COLLECTION_THRESHOLD, 11, 12)
    assert YOUNG_COLLECTION_THRESHOLD > 700


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    """A migrated empty SQLite database."""
    yield from prepared_database("sqlite", tmp_path)


async def test_the_api_settles_its_heap_once_started(sqlite_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_url, live_reader="thread"))
    before = _Node()
    assert not _frozen(before)
    async with app.router.lifespan_context(app):
        assert _frozen(before)
        assert gc.get_threshold()[0] == YOUNG_COLLECTION_THRESHOLD


class _Tables:
    """A table source that answers `table` and records, at each read, whether what the
    read made is frozen (it must not be: the read is in flight) and whether what the
    reads before it made is (it must be: the reader settled between answers)."""

    def __init__(self) -> None:
        self.made: list[_Node] = []
        self.seen: list[tuple[bool, bool]] = []

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        return Update(exists=False)

    async def forget(self, tournament_id: str) -> None:
        return None

    async def table(
        self, tournament_id: str, at_least: int, schedule: Schedule | None = None
    ) -> TableText | None:
        in_flight = _Node()
        self.seen.append((_frozen(in_flight), all(_frozen(node) for node in self.made)))
        self.made.append(in_flight)
        return TableText(at_least, tournament_id)


async def test_the_reader_settles_between_answers_not_during_them() -> None:
    ours, theirs = Pipe()
    tables = _Tables()
    for ident in (1, 2):
        ours.send((ident, "table", "t", 7, None))
    ours.send(None)
    await _answer(tables, theirs)
    assert [ours.recv(), ours.recv()] == [(1, True, (7, "t")), (2, True, (7, "t"))]
    assert tables.seen == [(False, True), (False, True)]
    assert _frozen(tables.made[-1])
    assert gc.get_threshold()[0] == YOUNG_COLLECTION_THRESHOLD


class _Passes:
    """Records the passes a `SpectatorHeap` asks for, instead of running them."""

    def __init__(self) -> None:
        self.done: list[str] = []

    def heap(self, *, delay: float = 0.01, batch: int = 1000) -> SpectatorHeap:
        return SpectatorHeap(
            delay=delay,
            batch=batch,
            settle=lambda: self.done.append("settle"),
            reopen=lambda: self.done.append("reopen"),
        )


async def test_spectators_joining_are_settled_once_joining_pauses() -> None:
    passes = _Passes()
    heap = passes.heap(delay=0.05)
    for _ in range(30):
        heap.joined()
    assert passes.done == []  # nothing while they keep coming
    await asyncio.sleep(0.2)
    assert passes.done == ["settle"]
    assert heap.connected == 30


async def test_a_long_stream_of_joins_is_settled_in_batches() -> None:
    passes = _Passes()
    heap = passes.heap(delay=60, batch=100)
    for _ in range(250):
        heap.joined()
    assert passes.done == ["settle", "settle"]
    heap.close()


def _departures_needed(audience: int, times: float = 1) -> int:
    """Departures from `audience` after which a full pass is due: REOPEN_LEAVES at
    least, and REOPEN_SHARE of those still connected (`times` as many under churn)."""
    return next(
        n
        for n in range(1, audience)
        if n >= times * max(REOPEN_LEAVES, REOPEN_SHARE * (audience - n))
    )


async def test_a_full_pass_comes_at_a_pause_after_enough_departures() -> None:
    passes = _Passes()
    heap = passes.heap(delay=0.01, batch=10**9)
    audience = 3 * REOPEN_LEAVES
    for _ in range(audience):
        heap.joined()
    await asyncio.sleep(0.05)
    needed = _departures_needed(audience)
    assert needed > REOPEN_LEAVES  # here the share decides
    passes.done.clear()
    for _ in range(needed - 1):
        heap.left()
    await asyncio.sleep(0.05)
    assert passes.done == []  # departures leave nothing to settle
    heap.left()
    await asyncio.sleep(0.05)
    assert passes.done == ["reopen"]
    heap.left()  # counted afresh from the full pass
    await asyncio.sleep(0.05)
    assert passes.done == ["reopen"]
    assert heap.connected == audience - needed - 1


async def test_a_crowd_leaving_asks_for_no_pass_until_it_has_gone() -> None:
    """Then one full pass; none in the middle, where most of those counted as gone are
    still alive, and no settles: departures are freed by reference counting."""
    passes = _Passes()
    heap = passes.heap(delay=0.05, batch=512)
    audience = 2 * REOPEN_LEAVES
    for _ in range(audience):
        heap.joined()
    await asyncio.sleep(0.1)
    assert set(passes.done) == {"settle"}  # the joins' batches
    passes.done.clear()
    for _ in range(audience):
        heap.left()
    assert passes.done == []
    await asyncio.sleep(0.1)
    assert passes.done == ["reopen"]


async def test_churn_that_never_pauses_still_gets_a_full_pass() -> None:
    """Spectators coming and going with no pause: the joins' batches bring the full
    pass once `REOPEN_UNDER_CHURN` times the departures a pause needs have gone by."""
    passes = _Passes()
    heap = passes.heap(delay=60, batch=1)
    audience = 2 * REOPEN_LEAVES
    for _ in range(audience):
        heap.joined()
    passes.done.clear()
    needed = REOPEN_UNDER_CHURN * max(REOPEN_LEAVES, REOPEN_SHARE * audience)
    for _ in range(int(needed)):
        heap.left()
        assert passes.done[-1:] != ["reopen"]
        heap.joined()
    assert passes.done[-1] == "reopen"
    assert passes.done.count("reopen") == 1
    heap.close()


async def test_a_closed_heap_settles_no_more() -> None:
    passes = _Passes()
    heap = passes.heap(delay=0.01)
    heap.joined()
    heap.close()
    heap.left()
    await asyncio.sleep(0.05)
    assert passes.done == []


def test_a_cycle_frozen_while_alive_is_freed_by_the_next_full_pass() -> None:
    """Why departures still count towards `reopen_heap`: objects frozen while alive
    that end in a reference cycle are reached by no settle."""
    node = _Node()
    node.other = node
    gone = weakref.ref(node)
    settle_heap()
    del node
    settle_heap()
    assert gone() is not None  # frozen: the collector does not see it
    reopen_heap()
    assert gone() is None


async def test_the_hub_tells_its_heap_of_every_spectator_joining_and_leaving() -> None:
    passes = _Passes()
    heap = passes.heap(delay=60)
    hub = Hub(cast(FeedReader, _OneTable()), Settings(live_poll_seconds=60), heap=heap)
    channel = await hub.open("t")
    clients = [channel.join(cast(Socket, object()), None) for _ in range(3)]
    assert heap.connected == 3
    channel.leave(clients[0])
    channel.leave(clients[0])  # a second leave of the same spectator counts once
    assert heap.connected == 2
    await hub.stop()


async def test_the_api_hub_keeps_a_spectator_heap(sqlite_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_url, live_reader="thread"))
    async with app.router.lifespan_context(app):
        assert isinstance(app.state.arbiter.hub.heap, SpectatorHeap)


class _OneTable:
    """A reader with one tournament and no events."""

    async def refresh(self, _tournament_id: str, since: int | None) -> Update:
        return Update(exists=True, system="round-robin", seq=0, snapshot='{"type":"snapshot"}')

    async def forget(self, _tournament_id: str) -> None:
        return None
