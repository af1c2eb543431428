"""The live reader: every database read and table computation of the live feed, in its
own process (or thread), with its own event loop and small connection pool
(docs/decisions/live-reader-process.md).

Spectators never read the database: the process's hub asks this reader, once per
tournament per batch of events, to turn the new events into encoded frames and a new
snapshot. The reader has its own engine (a pool of `reader_pool_size` connections on
PostgreSQL), so no number of spectators can take a connection a writer needs, and its
own process, so computing the standings of a large event (80 ms for a 200-player
round-robin) never holds the GIL the API's event loop needs to serve result PUTs (the
thread variant, `ARBITER_LIVE_READER=thread`, shares the GIL: lighter, for small events).

The tables are brought forward incrementally: the engine view of the tournament is
patched with the games the new result events name (`service.views.snapshots`), and
several events that arrive during one computation are handled by the next one together
(one computation, one delta, every event still gets its own frame).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import queue
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from service.config import Settings
from service.heap import settle_after_start, settle_heap
from service.live.frames import Frame

if TYPE_CHECKING:
    from service.db.loading import Schedule

__all__ = [
    "FeedReader",
    "ProcessReader",
    "ReaderError",
    "TableFactory",
    "TableSource",
    "TableText",
    "ThreadReader",
    "Update",
    "create_reader",
]

T = TypeVar("T")

SHUTDOWN_GRACE = 2.0
"""Seconds the thread reader's reads may take to end when it stops, before they are
cancelled."""


@dataclass(frozen=True, slots=True)
class Update:
    """What changed since the seq the hub asked from."""

    exists: bool
    system: str = ""
    seq: int = 0
    frames: list[Frame] = field(default_factory=list)
    """The events after the seq asked from, each in both delta forms."""
    snapshot: str | None = None
    """The encoded snapshot at `seq`, when it changed."""
    admission_seq: int | None = None
    """The newest of `frames` that may change who may follow the tournament (a token
    rotated or revoked, the visibility changed, the tournament archived): the hub
    checks its sockets again. None: none may."""
    narrowed: bool = False
    """One of `frames` hides from readers what earlier frames showed (personal data no
    longer published): the hub replays nothing from before this update."""


@dataclass(frozen=True, slots=True)
class TableText:
    """A tournament's standings document, encoded once, as of event `seq`."""

    seq: int
    text: str


class TableSource(Protocol):
    """The reader's work on its loop (service/views/live_tables.py builds the tables the
    feed sends): the live layer only moves it to a thread or a process and carries its
    answers."""

    async def open(self) -> None:
        """Open its own database engine."""

    async def close(self) -> None:
        """Close it."""

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        """The frames of the events after `since` (all of the state when None)."""

    async def forget(self, tournament_id: str) -> None:
        """Drop a tournament nobody follows any more."""

    async def table(
        self, tournament_id: str, at_least: int, schedule: Schedule | None = None
    ) -> TableText | None:
        """The standings document as of at least `at_least` (None: no tournament); with
        `schedule` (every round as stored at `at_least`), the engine's view is built from
        it instead of read back."""


TableFactory = Callable[[Settings], TableSource]
"""Makes the reader's table source; a module-level function, so that a reader process
can be given it (it is pickled by name)."""


class FeedReader(Protocol):
    """What the hub needs of the reader of its live feed: the frames of new events and
    the standings tables, read from the event log (`ThreadReader`, `ProcessReader`)."""

    def start(self) -> None:
        """Start the reader (its thread or process)."""

    def stop(self) -> None:
        """Stop it."""

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        """The frames of the events after `since` (all of the state when None)."""

    async def forget(self, tournament_id: str) -> None:
        """Drop a tournament nobody follows any more."""

    async def table(self, tournament_id: str, at_least: int) -> TableText | None:
        """The standings document as of at least `at_least` (None: no tournament)."""

    async def seed(self, tournament_id: str, seq: int, schedule: Schedule) -> TableText | None:
        """The table as of at least `seq`, built from the rounds a start stored."""


class ThreadReader:
    """The reader on its own thread and event loop (shares the GIL with the API)."""

    def __init__(self, settings: Settings, tables: TableFactory) -> None:
        self._tables = tables(settings)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="live-reader")
        self._thread.daemon = True

    def start(self) -> None:
        """Start the thread and open the reader's engine there."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._tables.open(), self._loop).result(timeout=30)

    @property
    def running(self) -> bool:
        """Whether its thread runs or its loop is still open."""
        return self._thread.is_alive() or not self._loop.is_closed()

    def stop(self) -> None:
        """Finish the work still running, close the engine, end the thread and close
        its loop."""
        if not self._thread.is_alive():
            return
        future = asyncio.run_coroutine_threadsafe(self._shut_down(), self._loop)
        with contextlib.suppress(TimeoutError, concurrent.futures.TimeoutError):
            future.result(timeout=SHUTDOWN_GRACE + 5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self._loop.close()

    async def _shut_down(self) -> None:
        """Let the reads still running end (cancelled ones are cleaning up: a hub that
        stops mid-refresh cancels them) and give their connections back before the
        engine closes; a read that outlasts `SHUTDOWN_GRACE` is cancelled. A read left
        pending on a stopped loop would keep its connection past the engine, for the
        garbage collector to close later from any thread, on a loop long closed."""
        this = asyncio.current_task()
        running = [task for task in asyncio.all_tasks() if task is not this]
        if running:
            _, late = await asyncio.wait(running, timeout=SHUTDOWN_GRACE)
            for task in late:
                if not task.cancelling():
                    task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        await self._tables.close()

    async def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return await asyncio.wrap_future(future)

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        """The frames of the events after `since` (all of the state when None)."""
        return await self._call(self._tables.refresh(tournament_id, since))

    async def forget(self, tournament_id: str) -> None:
        """Drop what the reader keeps for a tournament nobody follows any more."""
        await self._call(self._tables.forget(tournament_id))

    async def table(self, tournament_id: str, at_least: int) -> TableText | None:
        """The standings document as of at least `at_least` (None: no tournament)."""
        return await self._call(self._tables.table(tournament_id, at_least))

    async def seed(self, tournament_id: str, seq: int, schedule: Schedule) -> TableText | None:
        """The table as of at least `seq`, built from the rounds a start stored."""
        return await self._call(self._tables.table(tournament_id, seq, schedule))


def _serve_requests(settings_json: str, connection: Connection, tables: TableFactory) -> None:
    """The reader process: answer (id, op, tournament, since, schedule) requests until
    None."""
    asyncio.run(_answer(tables(Settings.model_validate_json(settings_json)), connection))


async def _answer(tables: TableSource, connection: Connection) -> None:
    await tables.open()
    settle_after_start()
    loop = asyncio.get_running_loop()
    try:
        while True:
            try:
                request = await loop.run_in_executor(None, connection.recv)
            except EOFError:
                return  # the API process went away
            if request is None:
                return
            ident, op, tournament_id, since, schedule = request
            try:
                if op == "refresh":
                    update = await tables.refresh(tournament_id, since)
                    answer: Any = (
                        update.exists,
                        update.system,
                        update.seq,
                        update.frames,
                        update.snapshot,
                        update.admission_seq,
                        update.narrowed,
                    )
                elif op in ("table", "seed"):
                    text = await tables.table(tournament_id, since or 0, schedule)
                    answer = None if text is None else (text.seq, text.text)
                else:
                    await tables.forget(tournament_id)
                    answer = None
                connection.send((ident, True, answer))
            except Exception as exc:  # reported to the hub, which retries with backoff
                connection.send((ident, False, f"{type(exc).__name__}: {exc}"))
            settle_heap()  # between answers nothing is in flight: no session, no read
    finally:
        await tables.close()


class ReaderError(Exception):
    """The reader process could not answer (its message says why)."""


class ProcessReader:
    """The reader in its own process: computing a large table never takes the API's GIL,
    so result PUTs do not wait for the spectators' standings.
    Requests and answers (encoded strings) cross a pipe.

    Answers are read by a thread of their own that blocks on the pipe and hands each
    whole answer to the event loop. The pipe is never watched by the loop itself: an
    event loop may make a watched descriptor non-blocking (uvloop does, through libuv),
    and a large answer read from a non-blocking pipe stops short where the sender is
    still writing."""

    def __init__(self, settings: Settings, tables: TableFactory) -> None:
        self._settings = settings
        self._tables = tables
        self._connection: Connection | None = None
        self._process: Any = None
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._next = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: threading.Thread | None = None
        self._outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._sender: threading.Thread | None = None

    def start(self) -> None:
        """Spawn the process, the thread that writes its requests and the thread that
        reads its answers."""
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self._process = context.Process(
            target=_serve_requests,
            args=(self._settings.model_dump_json(), theirs, self._tables),
            name="arbiter-live-reader",
            daemon=True,
        )
        self._process.start()
        theirs.close()
        self._connection = ours
        self._loop = asyncio.get_running_loop()
        self._listener = threading.Thread(
            target=self._listen, args=(ours, self._loop), name="live-reader-answers", daemon=True
        )
        self._listener.start()
        self._sender = threading.Thread(
            target=self._send_all, args=(ours,), name="live-reader-requests", daemon=True
        )
        self._sender.start()

    def _send_all(self, connection: Connection) -> None:
        """The requests thread: writes each request to the pipe in turn, the last being
        None. The event loop never writes to the pipe itself: a start's schedule is
        larger than the pipe's buffer, and the reader takes it only once it has answered
        the requests before it."""
        while True:
            message = self._outbox.get()
            try:
                connection.send(message)
            except (OSError, ValueError):
                return  # the process has gone: the answers thread fails the waiters
            except Exception as exc:  # this request could not be encoded: it alone fails
                self._answer_from_thread((message[0], False, f"{type(exc).__name__}: {exc}"))
                continue
            if message is None:
                return

    def _answer_from_thread(self, message: tuple[int, bool, Any]) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._on_answer, message)

    def _listen(self, connection: Connection, loop: asyncio.AbstractEventLoop) -> None:
        """The answers thread: each whole answer goes to the loop, then the end."""
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                message = None
            try:
                if message is None:
                    loop.call_soon_threadsafe(self._fail_all, "the live reader process ended")
                    return
                loop.call_soon_threadsafe(self._on_answer, message)
            except RuntimeError:  # the loop is closed: nobody waits any more
                return

    def _on_answer(self, message: tuple[int, bool, Any]) -> None:
        ident, ok, answer = message
        future = self._pending.pop(ident, None)
        if future is None or future.done():
            return
        if ok:
            future.set_result(answer)
        else:
            future.set_exception(ReaderError(answer))

    def _fail_all(self, why: str) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ReaderError(why))
        self._pending.clear()

    async def _call(
        self, op: str, tournament_id: str, since: int | None, schedule: Schedule | None = None
    ) -> Any:
        if self._connection is None or self._process is None or not self._process.is_alive():
            raise ReaderError("the live reader process is not running")
        self._next += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[self._next] = future
        self._outbox.put((self._next, op, tournament_id, since, schedule))
        return await future

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        """The frames of the events after `since` (all of the state when None)."""
        answer = await self._call("refresh", tournament_id, since)
        exists, system, seq, frames, snapshot, admission_seq, narrowed = answer
        return Update(
            exists=exists,
            system=system,
            seq=seq,
            frames=frames,
            snapshot=snapshot,
            admission_seq=admission_seq,
            narrowed=narrowed,
        )

    async def forget(self, tournament_id: str) -> None:
        """Drop what the reader keeps for a tournament nobody follows any more."""
        with contextlib.suppress(ReaderError):
            await self._call("forget", tournament_id, None)

    async def table(self, tournament_id: str, at_least: int) -> TableText | None:
        """The standings document as of at least `at_least` (None: no tournament)."""
        answer = await self._call("table", tournament_id, at_least)
        return None if answer is None else TableText(*answer)

    async def seed(self, tournament_id: str, seq: int, schedule: Schedule) -> TableText | None:
        """The table as of at least `seq`, built from the rounds a start stored (they
        cross the pipe as plain columns: a 400-player round-robin's 79,800 games pickle
        in a few tens of milliseconds, a fraction of reading them back)."""
        answer = await self._call("seed", tournament_id, seq, schedule)
        return None if answer is None else TableText(*answer)

    def stop(self) -> None:
        """Ask the process to finish, then make sure it did."""
        if self._connection is None:
            return
        self._fail_all("the live reader stopped")
        self._outbox.put(None)
        if self._sender is not None:
            self._sender.join(5)
        if self._process is not None:
            self._process.join(5)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(5)
        if self._listener is not None:
            self._listener.join(5)  # the process has gone, so its pipe is at its end
        self._connection.close()
        self._connection = None


def create_reader(settings: Settings, tables: TableFactory) -> FeedReader:
    """The process reader unless `live_reader` is "thread" (lighter, shares the GIL);
    `tables` makes the work it runs (service/views/live_tables.py)."""
    if settings.live_reader == "thread":
        return ThreadReader(settings, tables)
    return ProcessReader(settings, tables)
