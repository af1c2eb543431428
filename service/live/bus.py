"""Event notification across processes (docs/decisions/bus-carries-seq.md).

The bus carries only (tournament id, seq): the event itself is read from the event log
by the process's live hub, so a notification can be lost or repeated without harm.
`InProcessBus` serves a single process (the SQLite default); `PostgresBus` uses
LISTEN/NOTIFY on one dedicated asyncpg connection per process, so every replica sees
every tournament's events.

Wire format (shared with the writers, who NOTIFY inside their transaction): channel
`arbiter_events`, payload `<tournament id>:<seq>` (well under PostgreSQL's 8000-byte
limit). A listener that loses its connection (PostgreSQL restart, `pg_terminate_backend`,
network loss, `CannotConnectNowError` while the server starts) reconnects with
exponential backoff and then asks the hub to resynchronise every tournament from the
event log, since notifications sent meanwhile are gone.

A second channel, `arbiter_tables` (payload `<origin>:<tournament id>:<seq>`), is told
of the writes after which a table must be read back cold (a start, a pairing): every
other replica that follows the tournament computes that table at once (`Hub.follows`),
so its next reader does not wait for it. A replica that misses one only computes the
table on its next read.

`ARBITER_BUS_URL=redis://...` swaps LISTEN/NOTIFY for Redis pub/sub with the same
payloads (`service.live.redis_bus`), for replicas LISTEN does not reach; its writers
announce after the commit (`EventBus.announces_after_commit`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from service.db.events import CHANNEL, TABLES_CHANNEL
from service.live.listener import (
    LISTENER_NAME,
    OnEvent,
    OnNewTable,
    OnResync,
    Receiver,
    Watcher,
    parse_payload,
)

__all__ = [
    "CHANNEL",
    "LISTENER_NAME",
    "EventBus",
    "InProcessBus",
    "PostgresBus",
    "asyncpg_dsn",
    "create_bus",
    "parse_payload",
]

_log = logging.getLogger("arbiter.live")


class EventBus(Protocol):
    """What the app needs from a bus."""

    origin: str
    """This process's name in the table announcements it makes (`TABLES_CHANNEL`)."""
    announces_after_commit: bool
    """True: the writers call `publish` (and `publish_table`) once their write is
    committed. False: they NOTIFY inside their transaction (PostgreSQL), and never call
    either."""

    @property
    def listening(self) -> bool:
        """Whether notifications from other processes reach this one now (`/healthz`)."""

    def attach(
        self, on_event: OnEvent, on_resync: OnResync, on_new_table: OnNewTable | None = None
    ) -> None:
        """Register the process's hub (one receiver per process)."""

    async def start(self) -> None:
        """Open connections."""

    async def stop(self) -> None:
        """Close connections."""

    async def publish(self, tournament_id: str, seq: int) -> None:
        """Announce a committed event."""

    async def publish_table(self, tournament_id: str, seq: int) -> None:
        """Announce to the other processes that a start or a pairing made a new table."""


class InProcessBus(Receiver):
    """A bus for one process: publishing calls the hub directly (the process that
    starts or pairs a tournament computes its table itself, so no table is announced)."""

    announces_after_commit = True
    listening = True

    async def start(self) -> None:
        """Nothing to open."""

    async def stop(self) -> None:
        """Nothing to close."""

    async def publish(self, tournament_id: str, seq: int) -> None:
        """Deliver to this process's hub."""
        self._on_event(tournament_id, seq)

    async def publish_table(self, tournament_id: str, seq: int) -> None:
        """No other process to tell."""


class PostgresBus(Watcher):
    """LISTEN/NOTIFY across replicas on one dedicated connection, reconnected forever."""

    announces_after_commit = False

    def __init__(
        self, dsn: str, *, first_delay: float = 0.1, max_delay: float = 5.0, watch: float = 2.0
    ) -> None:
        super().__init__(first_delay=first_delay, max_delay=max_delay, watch=watch)
        self._dsn = dsn
        self._connection: Any = None
        self._lost = asyncio.Event()
        self._use = asyncio.Lock()
        """One query at a time on the connection (asyncpg forbids concurrent ones)."""

    @property
    def listening(self) -> bool:
        """Whether the LISTEN connection is up."""
        return self._connection is not None and not self._connection.is_closed()

    async def start(self) -> None:
        """Open the listening connection (retrying in the background if the database
        is not reachable yet: the app still starts, and resynchronises once it is)."""
        try:
            await self._connect()
        except Exception as exc:  # any failure is retried with backoff
            _log.warning("live bus: cannot listen yet (%s); retrying", exc)
            self._lost.set()
        self._task = asyncio.get_running_loop().create_task(self._keep_listening())

    async def _connect(self) -> None:
        import asyncpg

        connection = await asyncpg.connect(
            self._dsn, timeout=5, server_settings={"application_name": LISTENER_NAME}
        )
        try:
            await connection.add_listener(CHANNEL, self._on_notify)
            await connection.add_listener(TABLES_CHANNEL, self._on_table_notify)
        except BaseException:
            await connection.close()
            raise
        connection.add_termination_listener(lambda _conn: self._lost.set())
        self._connection = connection
        self._lost.clear()

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        parsed = parse_payload(payload)
        if parsed is not None:
            self._on_event(*parsed)

    def _on_table_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        origin, _, rest = payload.partition(":")
        parsed = parse_payload(rest)
        if parsed is not None and origin != self.origin:  # this process has its own
            self._on_new_table(*parsed)

    async def _keep_listening(self) -> None:
        """Wait for the connection to drop (or notice it closed), then reconnect with
        backoff and resynchronise. A half-open connection is caught by the periodic
        `is_closed` check plus a cheap query."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lost.wait(), self._watch)
            if not self._lost.is_set() and self.listening:
                try:
                    async with self._use:
                        await asyncio.wait_for(self._connection.execute("SELECT 1"), self._watch)
                    continue
                except Exception as exc:  # a dead connection, any way it shows
                    _log.warning("live bus: listener check failed (%s)", exc)
            await self._reconnect()

    async def _reconnect(self) -> None:
        old, self._connection = self._connection, None
        if old is not None:
            with contextlib.suppress(Exception):
                old.terminate()
        await self._connect_again(self._connect, "listening")  # CannotConnectNow, ...

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        await self._stop_watching()
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._connection.close(), 2)

    async def publish(self, tournament_id: str, seq: int) -> None:
        """NOTIFY every replica, this one included (through its own LISTEN).

        The writers may instead NOTIFY inside their own transaction (same channel and
        payload); then this is never called. Without a listening connection the local
        hub is told directly and the others catch up by their periodic check.
        """
        if not await self._notify(CHANNEL, f"{tournament_id}:{seq}"):
            self._on_event(tournament_id, seq)

    async def publish_table(self, tournament_id: str, seq: int) -> None:
        """NOTIFY the other replicas of a new table (the writers do it in their own
        transaction instead)."""
        await self._notify(TABLES_CHANNEL, f"{self.origin}:{tournament_id}:{seq}")

    async def _notify(self, channel: str, payload: str) -> bool:
        if not self.listening:
            return False
        try:
            async with self._use:
                await self._connection.execute("SELECT pg_notify($1, $2)", channel, payload)
        except Exception as exc:  # the write is committed: never fail it
            _log.warning("live bus: notify failed (%s)", exc)
            return False
        return True


def asyncpg_dsn(database_url: str) -> str:
    """The plain libpq DSN asyncpg wants, from a SQLAlchemy URL."""
    return database_url.replace("postgresql+asyncpg://", "postgresql://", 1)


def create_bus(
    database_url: str, bus_url: str | None = None, namespace: str = "arbiter"
) -> EventBus:
    """The bus `bus_url` names (Redis pub/sub, `service.live.redis_bus`), else the right
    one for the database: LISTEN/NOTIFY on PostgreSQL, in-process otherwise."""
    if bus_url:
        from service.live.redis_bus import RedisBus

        return RedisBus(bus_url, namespace=namespace)
    if database_url.startswith("postgresql"):
        return PostgresBus(asyncpg_dsn(database_url))
    return InProcessBus()
