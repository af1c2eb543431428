"""Stopping the app leaves nothing running behind it (a write path that never loses work
also stops cleanly; docs/operations.md#shutdown). A database statement cancelled midway by
the shutdown is force-closed by SQLAlchemy without being awaited; on SQLite the driver's
worker thread then finishes it after the event loop has gone and raises. With the worker
thread slowed down, as on a loaded machine, every such statement shows."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from queue import SimpleQueue
from typing import Any

import aiosqlite.core
import pytest

from service.api.app import create_app
from service.config import Settings
from tests.db_backends import prepared_database


class _SlowQueue:
    """The worker thread's queue of calls, each handed over 30 ms late."""

    def __init__(self, calls: SimpleQueue[Any]) -> None:
        self.calls = calls

    def get(self) -> Any:
        call = self.calls.get()
        time.sleep(0.03)
        return call

    def put_nowait(self, call: Any) -> None:
        self.calls.put_nowait(call)


def test_a_stopping_app_leaves_no_database_work_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker: Callable[[Any], None] = aiosqlite.core._connection_worker_thread
    monkeypatch.setattr(
        aiosqlite.core, "_connection_worker_thread", lambda calls: worker(_SlowQueue(calls))
    )
    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    url = next(prepared_database("sqlite", tmp_path))
    for _ in range(2):
        # as a test's fixtures run: start, stop at once, close the loop
        with asyncio.Runner() as runner:
            app = create_app(Settings(database_url=url, live_reader="thread"))
            lifespan = app.router.lifespan_context(app)
            runner.run(lifespan.__aenter__())
            runner.run(lifespan.__aexit__(None, None, None))
    time.sleep(1)  # what a worker thread still had to do
    assert raised == []
