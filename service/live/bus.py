"""Event notification across WebSocket handlers and replicas (DESIGN: Live standings).

The bus carries only (tournament id, seq): the event itself is read from the event log,
so a notification can be lost or repeated without harm. `InProcessBus` serves a single
process (the SQLite default); `PostgresBus` uses LISTEN/NOTIFY on a dedicated asyncpg
connection, so every replica sees every tournament's events, and it reconnects (then
tells subscribers to resynchronise) when the connection drops.

Subscribers own bounded queues: a slow client never blocks the bus; when its queue is
full it is marked `overflowed` and its handler sends a fresh snapshot instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, Protocol

__all__ = ["EventBus", "InProcessBus", "PostgresBus", "Subscription", "create_bus"]

_log = logging.getLogger("arbiter.live")
CHANNEL = "arbiter_events"
RESYNC = -1
"""A notification meaning "you may have missed something: reread the log"."""


class Subscription:
    """One listener's queue of sequence numbers for one tournament."""

    def __init__(self, tournament_id: str, size: int) -> None:
        self.tournament_id = tournament_id
        self.queue: asyncio.Queue[int] = asyncio.Queue(maxsize=size)
        self.overflowed = False

    def offer(self, seq: int) -> None:
        """Queue a notification without ever blocking the publisher."""
        try:
            self.queue.put_nowait(seq)
        except asyncio.QueueFull:
            self.overflowed = True


class EventBus(Protocol):
    """What the API needs from a bus."""

    async def start(self) -> None:
        """Open connections."""

    async def stop(self) -> None:
        """Close connections."""

    async def publish(self, tournament_id: str, seq: int) -> None:
        """Announce a committed event."""

    def subscribe(self, tournament_id: str) -> contextlib.AbstractAsyncContextManager[Subscription]:
        """Listen to one tournament for the duration of a `async with` block."""


class _Fanout:
    """Subscriptions by tournament, shared by both bus kinds."""

    def __init__(self, queue_size: int) -> None:
        self._queue_size = queue_size
        self._subscribers: dict[str, set[Subscription]] = defaultdict(set)

    def deliver(self, tournament_id: str, seq: int) -> None:
        for subscription in tuple(self._subscribers.get(tournament_id, ())):
            subscription.offer(seq)

    def deliver_all(self, seq: int) -> None:
        for tournament_id in tuple(self._subscribers):
            self.deliver(tournament_id, seq)

    @contextlib.asynccontextmanager
    async def subscribe(self, tournament_id: str) -> AsyncIterator[Subscription]:
        subscription = Subscription(tournament_id, self._queue_size)
        self._subscribers[tournament_id].add(subscription)
        try:
            yield subscription
        finally:
            subscribers = self._subscribers.get(tournament_id)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self._subscribers[tournament_id]


class InProcessBus(_Fanout):
    """A bus for one process."""

    async def start(self) -> None:
        """Nothing to open."""

    async def stop(self) -> None:
        """Nothing to close."""

    async def publish(self, tournament_id: str, seq: int) -> None:
        """Deliver to this process's subscribers."""
        self.deliver(tournament_id, seq)


class PostgresBus(_Fanout):
    """LISTEN/NOTIFY across replicas; payload `<tournament id>:<seq>` (well under 8000 B)."""

    def __init__(self, dsn: str, queue_size: int) -> None:
        super().__init__(queue_size)
        self._dsn = dsn
        self._connection: Any = None
        self._reconnect: asyncio.Task[None] | None = None
        self._closing = False

    async def start(self) -> None:
        """Open the dedicated listening connection."""
        await self._connect()

    async def _connect(self) -> None:
        import asyncpg

        connection = await asyncpg.connect(self._dsn)
        await connection.add_listener(CHANNEL, self._on_notify)
        connection.add_termination_listener(self._on_terminated)
        self._connection = connection

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        tournament_id, _, seq = payload.rpartition(":")
        with contextlib.suppress(ValueError):
            self.deliver(tournament_id, int(seq))

    def _on_terminated(self, _conn: Any) -> None:
        if not self._closing:
            self._reconnect = asyncio.get_running_loop().create_task(self._reconnect_loop())

    async def _reconnect_loop(self) -> None:
        delay = 0.2
        while not self._closing:
            try:
                await self._connect()
            except (OSError, ConnectionError) as exc:  # pragma: no cover - timing dependent
                _log.warning("live bus reconnect failed: %s", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            self.deliver_all(RESYNC)
            return

    async def stop(self) -> None:
        """Close the listening connection."""
        self._closing = True
        if self._reconnect is not None:
            self._reconnect.cancel()
        if self._connection is not None:
            await self._connection.close()

    async def publish(self, tournament_id: str, seq: int) -> None:
        """NOTIFY every replica (this one included, through its own LISTEN)."""
        if self._connection is None or self._connection.is_closed():
            self.deliver(tournament_id, RESYNC)
            return
        await self._connection.execute(
            "SELECT pg_notify($1, $2)", CHANNEL, f"{tournament_id}:{seq}"
        )


def asyncpg_dsn(database_url: str) -> str:
    """The plain libpq DSN asyncpg wants, from a SQLAlchemy URL."""
    return database_url.replace("postgresql+asyncpg://", "postgresql://", 1)


def create_bus(database_url: str, queue_size: int) -> InProcessBus | PostgresBus:
    """The right bus for the database: LISTEN/NOTIFY on PostgreSQL, in-process otherwise."""
    if database_url.startswith("postgresql"):
        return PostgresBus(asyncpg_dsn(database_url), queue_size)
    return InProcessBus(queue_size)
