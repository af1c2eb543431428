"""The async database engine and session factory, and what a session's transaction
keeps of its own work (`TransactionState`).

A transaction's writers reuse what it has done: the seq its event took (announced
without reading it back), the tournament row it locked (a second report of a group
finds the lock held), the games it read in one statement for the reports of a group,
and how many writes it ran on the driver itself (where SQLAlchemy's events do not see
them). Each session carries that as one typed value (`transaction_of`), begun afresh
when its transaction commits or rolls back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import event
from sqlalchemy.dialects.sqlite.aiosqlite import SQLiteDialect_aiosqlite
from sqlalchemy.engine import make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry
from sqlmodel import Session
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.sqlite_driver import one_trip_connector

if TYPE_CHECKING:
    from service.db.tables import GameRow, TournamentRow

__all__ = [
    "DRIVER_STATEMENTS",
    "SessionFactory",
    "TrackedSession",
    "TransactionState",
    "create_engine",
    "create_session_factory",
    "transaction_of",
]

DRIVER_STATEMENTS = "arbiter_driver_statements"
"""Engine execution option: False runs the statements of `db.columns` through SQLAlchemy
(`create_engine(driver_statements=False)`); absent or True, on the driver."""


@dataclass(slots=True)
class TransactionState:
    """What the current transaction of a session has done that its later statements
    reuse; it ends with the transaction."""

    appended: dict[str, int] = field(default_factory=dict)
    """Tournament id -> the newest seq appended (`events.append_event`); on PostgreSQL
    the statement that appended it also queued its NOTIFY."""
    locked: dict[str, TournamentRow] = field(default_factory=dict)
    """Tournament id -> the row locked and reloaded (`events.lock_and_reload`), held
    here so that the session's identity map (which holds rows only weakly) keeps it."""
    preloaded: dict[tuple[str, int, int], GameRow] = field(default_factory=dict)
    """(tournament, round, table) -> the game `game_reads.preload_games` read."""
    driver_writes: int = 0
    """Statements that may change something run on the driver itself (`db.columns`)."""


class _TrackedSyncSession(Session):
    """The synchronous session under a `TrackedSession`, holding its transaction's
    state."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.transaction_state = TransactionState()


@event.listens_for(_TrackedSyncSession, "after_commit")
@event.listens_for(_TrackedSyncSession, "after_soft_rollback")
def _begin_afresh(session: _TrackedSyncSession, *_: Any) -> None:
    """What a transaction did ends with it."""
    session.transaction_state = TransactionState()


class TrackedSession(AsyncSession):
    """The service's sessions: an `AsyncSession` whose transaction keeps its
    `TransactionState`."""

    sync_session_class = _TrackedSyncSession


def transaction_of(session: AsyncSession) -> TransactionState:
    """What the session's current transaction has done (sessions of the factory,
    `create_session_factory`)."""
    sync = session.sync_session
    if not isinstance(sync, _TrackedSyncSession):
        raise TypeError("a session of create_session_factory is needed")
    return sync.transaction_state


SessionFactory = async_sessionmaker[TrackedSession]

SQLITE_BUSY_SECONDS = 30
"""How long a SQLite writer waits for another's lock before it fails."""


def create_engine(
    url: str,
    *,
    echo: bool = False,
    pool_size: int | None = None,
    lock_wait_seconds: float | None = None,
    autocommit: bool = False,
    sqlite_one_trip_driver: bool = True,
    driver_statements: bool = True,
) -> AsyncEngine:
    """An async engine; SQLite gets foreign keys on and a busy timeout for writers.

    `pool_size` sizes a dedicated pool with no overflow (the live reader's,
    docs/decisions/connection-pools.md); without it the default pool serves the API's requests.
    `lock_wait_seconds` bounds every lock wait on PostgreSQL (`lock_timeout`, set when
    a connection opens, so no statement of a write pays a round trip for it).
    `autocommit`: on PostgreSQL, each statement commits on its own, with no BEGIN and no
    ROLLBACK round trip around a session's reads; for readers only, whose reads need no
    snapshot shared between statements (READ COMMITTED, PostgreSQL's default, gives
    every statement its own anyway). SQLite's driver already begins a transaction only
    before a write, and its statements go to the driver's thread in one trip each
    (`service.db.sqlite_driver`; `sqlite_one_trip_driver=False`: aiosqlite's own
    connection). `driver_statements=False` runs every statement through SQLAlchemy,
    those `service.db.columns` would give the driver too.
    """
    common: dict[str, Any] = {"echo": echo}
    if pool_size is not None and ":memory:" not in url:
        common |= {"pool_size": pool_size, "max_overflow": 0}
    if not driver_statements:
        common["execution_options"] = {DRIVER_STATEMENTS: False}
    if url.startswith("sqlite"):
        if sqlite_one_trip_driver:
            common["async_creator"] = _sqlite_connector(url)
        else:  # aiosqlite as SQLAlchemy opens it, with the same busy timeout
            common["connect_args"] = {"timeout": SQLITE_BUSY_SECONDS}
        engine = create_async_engine(url, **common)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cursor = conn.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    server_settings = {}
    if lock_wait_seconds is not None:
        server_settings["lock_timeout"] = f"{round(lock_wait_seconds * 1000)}ms"
    if autocommit:
        common["isolation_level"] = "AUTOCOMMIT"
    engine = create_async_engine(url, connect_args={"server_settings": server_settings}, **common)
    event.listen(engine.sync_engine, "checkout", _refuse_closed_connection)
    return engine


def _sqlite_connector(url: str) -> Any:
    """One-trip connections (`service.db.sqlite_driver`) with the arguments SQLAlchemy
    would give aiosqlite for `url` (the file, `uri`, `check_same_thread`, the URL's
    query), and the busy timeout for writers waiting on another's lock."""
    (database,), connect_args = SQLiteDialect_aiosqlite().create_connect_args(make_url(url))
    return one_trip_connector(database, **{**connect_args, "timeout": SQLITE_BUSY_SECONDS})


def _refuse_closed_connection(
    dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry, _proxy: object
) -> None:
    """Hand out no pooled connection the server has already closed (a restart or a
    terminated backend closes each session's socket, and asyncpg notices at once): the
    pool then opens a fresh one. This replaces a ping on every checkout, three round
    trips on asyncpg (BEGIN, a query, ROLLBACK) before each request's first statement.
    A connection that dies unnoticed fails its first statement instead, which is then
    a 503 with `Retry-After`, and the pool drops every connection older than it."""
    driver = getattr(dbapi_connection, "driver_connection", None)
    if driver is not None and driver.is_closed():
        raise DisconnectionError("the server closed this pooled connection")


def create_session_factory(engine: AsyncEngine) -> SessionFactory:
    """Sessions that keep loaded objects usable after commit and their transaction's
    state (`TrackedSession`)."""
    return async_sessionmaker(engine, class_=TrackedSession, expire_on_commit=False)
