"""The thread reader's shutdown: a read whose caller went away (a hub stopping while it
refreshes) ends and gives its connection back before the engine closes, and the
reader's loop is closed with nothing left on it."""

from __future__ import annotations

import asyncio
import threading

from service.config import Settings
from service.db.loading import Schedule
from service.live.reader import TableSource, TableText, ThreadReader, Update


class _HangingTables:
    """A table source whose refresh waits until cancelled, as a slow database read
    would, then takes a while to give its connection back (a rollback, awaited), and
    which records the order things end in."""

    def __init__(self) -> None:
        self.ended: list[str] = []
        self.reading = threading.Event()

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        self.ended.append("engine closed")

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        self.reading.set()
        try:
            await asyncio.sleep(3600)
        finally:
            await asyncio.sleep(0.2)
            self.ended.append(f"refresh of {tournament_id} ended")
        return Update(exists=False)

    async def forget(self, tournament_id: str) -> None:
        return None

    async def table(
        self, tournament_id: str, at_least: int, schedule: Schedule | None = None
    ) -> TableText | None:
        return None


async def test_stopping_ends_abandoned_reads_before_closing_the_engine() -> None:
    tables = _HangingTables()

    def factory(_settings: Settings) -> TableSource:
        return tables

    reader = ThreadReader(Settings(), factory)
    reader.start()
    caller = asyncio.create_task(reader.refresh("t1", None))
    assert await asyncio.to_thread(tables.reading.wait, 10)
    caller.cancel()  # the hub stops: the read is cancelled and starts to clean up
    await asyncio.to_thread(reader.stop)

    assert tables.ended == ["refresh of t1 ended", "engine closed"]
    assert not reader.running


async def test_a_reader_that_never_started_stops_quietly() -> None:
    tables = _HangingTables()
    reader = ThreadReader(Settings(), lambda _settings: tables)
    reader.stop()
    assert tables.ended == []


async def test_a_read_that_outlasts_the_grace_is_cancelled_before_the_engine_closes() -> None:
    tables = _HangingTables()
    reader = ThreadReader(Settings(), lambda _settings: tables)
    reader.start()
    caller = asyncio.create_task(reader.refresh("t2", None))
    assert await asyncio.to_thread(tables.reading.wait, 10)

    await asyncio.to_thread(reader.stop)  # the caller still waits

    assert tables.ended == ["refresh of t2 ended", "engine closed"]
    assert not reader.running
    caller.cancel()
