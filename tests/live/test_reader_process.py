"""The reader process's pipe under every event loop the server may run on: answers far
larger than a pipe's buffer arrive whole, in order, on uvloop (which makes a watched
descriptor non-blocking) as on asyncio's own loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
import uvloop

from service.config import Settings
from service.live.reader import ProcessReader, TableSource, TableText, Update

BIG = 3_000_000
"""Characters in each answer: many times a socket pair's buffer."""


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

    async def table(self, tournament_id: str, at_least: int) -> TableText | None:
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
