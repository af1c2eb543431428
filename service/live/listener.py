"""What both buses that hear other processes share (`service.live.bus`'s PostgreSQL
listener, `service.live.redis_bus`): the hub's callbacks, the payload they carry, and
the watch over a connection of their own that is taken again, forever, when it is lost.

Payload: `<tournament id>:<seq>`; a connection lost is retaken with exponential backoff,
and the hub then rereads every followed tournament's log, since what was announced
meanwhile is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable

from service.engine.numerals import whole_number

__all__ = [
    "LISTENER_NAME",
    "OnEvent",
    "OnNewTable",
    "OnResync",
    "Receiver",
    "Watcher",
    "parse_payload",
]

_log = logging.getLogger("arbiter.live")

LISTENER_NAME = "arbiter-live-listener"
"""`application_name` of the LISTEN connections (visible in pg_stat_activity)."""

OnEvent = Callable[[str, int], None]
"""Called with (tournament id, seq) for each notification."""
OnResync = Callable[[], None]
"""Called after a gap in the notifications: every follower must reread the log."""
OnNewTable = Callable[[str, int], None]
"""Called with (tournament id, seq) when another process started or paired a tournament."""


def parse_payload(payload: str) -> tuple[str, int] | None:
    """`<tournament id>:<seq>` -> (id, seq); None for anything else."""
    tournament_id, _, seq = payload.rpartition(":")
    number = whole_number(seq, most_digits=18)
    if not tournament_id or number is None:
        return None
    return tournament_id, number


class Receiver:
    """The hub callbacks, shared by every bus kind."""

    def __init__(self) -> None:
        self._on_event: OnEvent = lambda _t, _s: None
        self._on_resync: OnResync = lambda: None
        self._on_new_table: OnNewTable = lambda _t, _s: None
        self.origin = secrets.token_hex(6)

    def attach(
        self, on_event: OnEvent, on_resync: OnResync, on_new_table: OnNewTable | None = None
    ) -> None:
        """Register the process's hub."""
        self._on_event = on_event
        self._on_resync = on_resync
        if on_new_table is not None:
            self._on_new_table = on_new_table


class Watcher(Receiver):
    """A bus that holds a connection of its own to hear the others (LISTEN, a Redis
    subscription) and takes it again, forever, when it is lost."""

    def __init__(self, *, first_delay: float, max_delay: float, watch: float) -> None:
        super().__init__()
        self._first_delay = first_delay
        self._max_delay = max_delay
        self._watch = watch
        """Seconds between two checks of an idle connection."""
        self._task: asyncio.Task[None] | None = None
        """The task that watches the connection."""
        self.reconnects = 0
        """How many times the connection came back after it was lost."""

    async def _connect_again(self, connect: Callable[[], Awaitable[None]], what: str) -> None:
        """Call `connect` until it succeeds, with exponential backoff (`first_delay` to
        `max_delay`), then have the hub reread every followed tournament's log, since
        what was announced meanwhile is gone."""
        delay = self._first_delay
        while True:
            try:
                await connect()
            except Exception as exc:  # refused, reset, the server starting...
                _log.warning("live bus: %s failed (%s); next try in %.1fs", what, exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._max_delay)
                continue
            self.reconnects += 1
            _log.info("live bus: %s again; resynchronising from the event log", what)
            self._on_resync()
            return

    async def _stop_watching(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
