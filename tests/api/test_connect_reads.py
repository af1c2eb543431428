"""Shared reads of the row connecting spectators are checked against (api.connect_reads):
one read in flight per tournament, and nobody answered by a read that began before it
arrived."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from service.api.connect_reads import SharedRowReads


class _Rows:
    """A stand-in database: each read of a tournament returns the version it was
    started at, once the test lets it finish."""

    def __init__(self) -> None:
        self.version = 0
        self.started: list[tuple[str, int]] = []
        self.finish: dict[int, asyncio.Future[None]] = {}
        self.fail = False

    async def read(self, tournament_id: str) -> Any:
        number = len(self.started)
        self.started.append((tournament_id, self.version))
        version = self.version
        self.finish[number] = asyncio.get_running_loop().create_future()
        await self.finish[number]
        if self.fail:
            raise OSError("database unreachable")
        return (tournament_id, version)

    def release(self, number: int) -> None:
        self.finish[number].set_result(None)


async def _settled() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_those_who_arrive_during_a_read_share_the_next_one() -> None:
    rows = _Rows()
    shared = SharedRowReads(cast(Any, rows.read))
    first = asyncio.create_task(shared.row("t"))
    await _settled()
    rows.version = 1  # the tournament changes while the first read runs (say, archived)
    later = [asyncio.create_task(shared.row("t")) for _ in range(50)]
    await _settled()
    assert rows.started == [("t", 0)]  # one read in flight, however many wait
    rows.release(0)
    assert await first == ("t", 0)
    await _settled()
    assert rows.started == [("t", 0), ("t", 1)]  # the next read starts at once
    assert not any(task.done() for task in later)  # none took the older answer
    rows.release(1)
    assert await asyncio.gather(*later) == [("t", 1)] * 50
    assert shared.reads == 2


async def test_tournaments_are_read_apart_and_a_quiet_one_reads_at_once() -> None:
    rows = _Rows()
    shared = SharedRowReads(cast(Any, rows.read))
    one, other = asyncio.create_task(shared.row("a")), asyncio.create_task(shared.row("b"))
    await _settled()
    assert sorted(rows.started) == [("a", 0), ("b", 0)]
    rows.release(0)
    rows.release(1)
    assert (await one, await other) == (("a", 0), ("b", 0))
    await _settled()
    again = asyncio.create_task(shared.row("a"))  # nothing in flight: a read of its own
    await _settled()
    assert len(rows.started) == 3
    rows.release(2)
    assert await again == ("a", 0)


async def test_a_failed_read_fails_everyone_sharing_it_and_the_next_reads_again() -> None:
    rows = _Rows()
    shared = SharedRowReads(cast(Any, rows.read))
    first = asyncio.create_task(shared.row("t"))
    await _settled()
    sharers = [asyncio.create_task(shared.row("t")) for _ in range(3)]
    await _settled()
    rows.fail = True
    rows.release(0)
    with pytest.raises(OSError):
        await first
    await _settled()
    rows.release(1)
    for sharer in sharers:
        with pytest.raises(OSError):
            await sharer
    rows.fail = False
    retry = asyncio.create_task(shared.row("t"))
    await _settled()
    rows.release(2)
    assert await retry == ("t", 0)


async def test_a_spectator_who_leaves_does_not_cancel_the_read_of_the_others() -> None:
    """The spectator whose arrival started a read leaves; the read still ends, and the
    next one serves those who arrived during it."""
    rows = _Rows()
    shared = SharedRowReads(cast(Any, rows.read))
    leaving = asyncio.create_task(shared.row("t"))
    await _settled()
    staying = asyncio.create_task(shared.row("t"))
    await _settled()
    leaving.cancel()
    await _settled()
    assert rows.started == [("t", 0)]
    rows.release(0)
    await _settled()
    assert rows.started == [("t", 0), ("t", 0)]
    rows.release(1)
    assert await staying == ("t", 0)
    assert leaving.cancelled()
