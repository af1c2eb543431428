"""SQLite statements in one trip to the driver's thread, so that no crowd of spectators
makes a result write wait (docs/decisions/sqlite-driver.md).

aiosqlite runs every call into the sqlite3 module on the connection's own thread, and
each answer comes back to the event loop as a callback that waits for the loop's next
turn. SQLAlchemy's asyncio adapter makes four such calls per statement: open a cursor,
execute, fetch the rows, close the cursor. At rest a trip costs a fraction of a
millisecond; while thousands of spectators connect or leave, a turn of the loop takes
milliseconds, and a nine-statement result PUT paid for some forty of them.

`OneTripConnection` is aiosqlite's connection with a cursor that makes one trip per
statement: the sqlite3 cursor is opened, executed, drained and closed in one call on the
driver's thread, and what SQLAlchemy reads afterwards (the rows, `description`,
`rowcount`, `lastrowid`) is kept on the Python side. Commits and rollbacks are one trip
each, as before. `run_statements` takes several statements to the thread at once, for a
write whose statements are known together (`db.result_store`: a reported result). Rows are
always read whole, which is what SQLAlchemy's adapter does for every statement but
server-side (streamed) ones, which Arbiter does not use on SQLite.

The subclass uses aiosqlite's own queue to its thread (`_execute`), its sqlite3
connection (`_conn`) and its thread (`_thread`), as SQLAlchemy's adapter does; this
module is the one place that does. They changed shape in aiosqlite 0.22 (the connection
stopped being the thread), so pyproject.toml holds aiosqlite to the 0.22 series, and
`missing_internals` (run by tests/db/test_sqlite_driver.py) names any that an upgrade
took away. ARBITER_SQLITE_ONE_TRIP_DRIVER=false (`create_engine(sqlite_one_trip_driver=
False)`) opens aiosqlite's own connection instead, as SQLAlchemy would.
"""

from __future__ import annotations

import inspect
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from functools import partial
from typing import Any, TypeVar, cast

import aiosqlite

__all__ = ["OneTripConnection", "OneTripCursor", "missing_internals", "one_trip_connector"]

T = TypeVar("T")

_Outcome = tuple[list[Any], Any, int, int | None]
"""What a statement leaves: its rows, `description`, `rowcount` and `lastrowid`."""


class OneTripCursor:
    """A cursor whose statements each cost one trip to the connection's thread; the
    rows wait here for `fetch*`, which then answer without a trip."""

    def __init__(self, connection: OneTripConnection) -> None:
        self._connection = connection
        self._rows: deque[Any] = deque()
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None
        self.arraysize = 1

    async def __aenter__(self) -> OneTripCursor:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    def __await__(self) -> Generator[Any, None, OneTripCursor]:
        return self.__aenter__().__await__()

    async def execute(self, sql: str, parameters: Any = None) -> OneTripCursor:
        """Run one statement and keep what it returns (one trip)."""
        await self._run(partial(_execute, sql=sql, parameters=_given(parameters)))
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> OneTripCursor:
        """Run one statement for each set of parameters (one trip)."""
        await self._run(partial(_execute_many, sql=sql, parameters=parameters))
        return self

    async def _run(self, statement: Callable[[sqlite3.Cursor], _Outcome]) -> None:
        """One trip; what an earlier statement left is gone first, so a statement that
        fails leaves nothing of it to be read (as sqlite3's own cursor does)."""
        self._rows, self._description, self._rowcount, self._lastrowid = deque(), None, -1, None
        outcome = await self._connection.on_thread(statement)
        rows, self._description, self._rowcount, self._lastrowid = outcome
        self._rows = deque(rows)

    async def fetchone(self) -> Any:
        return self._rows.popleft() if self._rows else None

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        count = min(self.arraysize if size is None else size, len(self._rows))
        return [self._rows.popleft() for _ in range(count)]

    async def fetchall(self) -> list[Any]:
        rows = list(self._rows)
        self._rows.clear()
        return rows

    async def close(self) -> None:
        """Nothing to close on the driver's thread: each statement closed its own."""
        self._rows.clear()

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._lastrowid


class OneTripConnection(aiosqlite.Connection):
    """aiosqlite's connection, whose cursors make one trip per statement."""

    def cursor(self) -> OneTripCursor:  # type: ignore[override]
        """A cursor at once: its sqlite3 cursor is opened with each statement, on the
        connection's thread."""
        return OneTripCursor(self)

    async def rollback(self) -> None:
        """Roll back, with no trip when no transaction is open: SQLAlchemy's pool rolls
        back every connection it takes back, and most come back committed or after
        reads alone (pysqlite begins a transaction only before a write)."""
        if self._in_transaction():
            await super().rollback()

    def _in_transaction(self) -> bool:
        try:
            return self._conn.in_transaction
        except sqlite3.ProgrammingError:  # a `:memory:` connection answers on its thread only
            return True

    async def run_statements(
        self, statements: Sequence[tuple[str, Sequence[Any]]]
    ) -> list[list[Any]]:
        """Run `statements` (SQL and its positional values) one after the other in the
        connection's transaction, in one trip; returns each one's rows. The first that
        fails stops the rest and raises as it would alone."""
        return await self.on_thread(partial(_run_all, statements=tuple(statements)))

    async def on_thread(self, work: Callable[[sqlite3.Cursor], T]) -> T:
        """Run `work` on a fresh sqlite3 cursor on the connection's thread, then close
        that cursor there: one trip."""
        trip = partial(_with_cursor, self._conn, work)
        return cast(T, await self._execute(trip))  # type: ignore[no-untyped-call]


def one_trip_connector(database: str, **connect_args: Any) -> Callable[[], Any]:
    """An `async_creator` for SQLAlchemy: opens `database` with sqlite3's `connect_args`
    on a new `OneTripConnection`'s thread. The thread is a daemon, as SQLAlchemy makes
    aiosqlite's, so an engine never disposed cannot keep the interpreter alive."""

    async def connect() -> OneTripConnection:
        connection = OneTripConnection(partial(sqlite3.connect, database, **connect_args), 64)
        connection._thread.daemon = True
        await connection
        return connection

    return connect


def missing_internals() -> list[str]:
    """The aiosqlite internals `OneTripConnection` uses that the installed aiosqlite
    lacks (empty: all are there). A non-empty list means an upgrade changed them: set
    ARBITER_SQLITE_ONE_TRIP_DRIVER=false, or hold aiosqlite back, until this module
    follows."""
    missing = []
    if not inspect.iscoroutinefunction(getattr(aiosqlite.Connection, "_execute", None)):
        missing.append("aiosqlite.Connection._execute (a coroutine function)")
    if not isinstance(getattr(aiosqlite.Connection, "_conn", None), property):
        missing.append("aiosqlite.Connection._conn (a property)")
    unopened = aiosqlite.Connection(partial(sqlite3.connect, ":memory:"), 64)  # no thread yet
    if not isinstance(getattr(unopened, "_thread", None), threading.Thread):
        missing.append("aiosqlite.Connection._thread (a threading.Thread)")
    return missing


def _given(parameters: Any) -> Sequence[Any] | dict[str, Any]:
    return [] if parameters is None else parameters


def _with_cursor(connection: sqlite3.Connection, work: Callable[[sqlite3.Cursor], T]) -> T:
    cursor = connection.cursor()
    try:
        return work(cursor)
    finally:
        cursor.close()


def _execute(cursor: sqlite3.Cursor, *, sql: str, parameters: Any) -> _Outcome:
    cursor.execute(sql, parameters)
    rows = cursor.fetchall() if cursor.description else []
    return rows, cursor.description, cursor.rowcount, cursor.lastrowid


def _run_all(
    cursor: sqlite3.Cursor, *, statements: tuple[tuple[str, Sequence[Any]], ...]
) -> list[list[Any]]:
    answers = []
    for sql, values in statements:
        cursor.execute(sql, values)
        answers.append(cursor.fetchall() if cursor.description else [])
    return answers


def _execute_many(cursor: sqlite3.Cursor, *, sql: str, parameters: Iterable[Any]) -> _Outcome:
    cursor.executemany(sql, parameters)
    return [], cursor.description, cursor.rowcount, cursor.lastrowid
