"""The reader process's pipe under every event loop the server may run on: answers far
larger than a pipe's buffer arrive whole, in order, on uvloop (which makes a watched
descriptor non-blocking) as on asyncio's own loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
import uvloop

from service.config import Settings
from service.db.loading import GameColumns, Schedule
from service.live.reader import ProcessReader, ReaderError, TableSource, TableText, Update

BIG = 3_000_000
"""Characters in each answer: many times a socket pair's buffer."""

SLOW = 1.0
"""Seconds the reader spends on the table of the tournament "slow"."""


class _BigTables:
    """A table source whose every answer is `BIG` characters, marked by tournament."""

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        text = tournament_id * (BIG // len(tournament_id))
        return Update(exists=True, system="round-robin", seq=since or 0, snapshot=text)

    async def forget(self, tournament_id: str) -> None:
        return None

    async def table(
        self, tournament_id: str, at_least: int, schedule: Schedule | None = None
    ) -> TableText | None:
        if schedule is not None:
            return TableText(
                at_least, f"{tournament_id}:{len(schedule.games)}:{schedule.games[-1]}"
            )
        if tournament_id == "slow":
            await asyncio.sleep(SLOW)  # a long computation: the reader reads no request
        return TableText(at_least, tournament_id * 10)


def big_tables(_settings: Settings) -> TableSource:
    """Module level, so the reader process is given it by name."""
    return _BigTables()


async def _ask_many() -> None:
    reader = ProcessReader(Settings(), big_tables)
    reader.start()
    try:
        names = [f"t{n}" for n in range(8)]
        updates = await asyncio.wait_for(
            asyncio.gather(*(reader.refresh(name, seq) for seq, name in enumerate(names))), 60
        )
        for seq, (name, update) in enumerate(zip(names, updates, strict=True)):
            assert update.seq == seq
            assert update.snapshot is not None
            assert len(update.snapshot) == BIG - BIG % len(name)
            assert update.snapshot.startswith(name) and update.snapshot.endswith(name)
        small = await reader.table("t3", 7)
        assert small == TableText(7, "t3" * 10)
    finally:
        reader.stop()


@pytest.mark.parametrize(
    "loop_factory",
    [asyncio.new_event_loop, uvloop.new_event_loop],
    ids=["asyncio", "uvloop"],
)
def test_large_answers_arrive_whole(loop_factory: Callable[[], asyncio.AbstractEventLoop]) -> None:
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(_ask_many())


async def _seed_while_busy() -> None:
    reader = ProcessReader(Settings(), big_tables)
    reader.start()
    try:
        await reader.table("warm", 0)  # the process is up
        busy = asyncio.create_task(reader.table("slow", 1))
        await asyncio.sleep(0.1)  # the reader is inside the slow table now
        games: list[GameColumns] = [
            (r, t, t, 1000 + t, None, "pending") for r in range(1, 400) for t in range(200)
        ]
        seeded = asyncio.create_task(reader.seed("big", 2, Schedule(games, [])))
        lags = []
        for _ in range(10):  # the loop keeps ticking while the schedule waits for the pipe
            before = asyncio.get_running_loop().time()
            await asyncio.sleep(0.05)
            lags.append(asyncio.get_running_loop().time() - before - 0.05)
        assert max(lags) < SLOW / 2, lags
        assert await asyncio.wait_for(busy, 30) == TableText(1, "slow" * 10)
        assert await asyncio.wait_for(seeded, 30) == TableText(2, f"big:79800:{games[-1]}")
        unsendable = Schedule([(1, 1, 1, 2, None, "pending")], [(1, 3, lambda: 0)])  # type: ignore[list-item]
        with pytest.raises(ReaderError, match="pickle"):  # that request alone fails
            await asyncio.wait_for(reader.seed("bad", 3, unsendable), 30)
        assert await reader.table("after", 4) == TableText(4, "after" * 10)
    finally:
        reader.stop()


def test_a_schedule_larger_than_the_pipe_never_holds_the_event_loop() -> None:
    """A start hands the reader its whole schedule (79,800 games for 400 players, more
    than a pipe holds): written by the requests thread, it waits for the busy reader
    there, and the API's event loop goes on serving meanwhile."""
    asyncio.run(_seed_while_busy())
