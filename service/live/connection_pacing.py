"""WebSocket connections let in a few per turn of the event loop, so that no number of
subscribers makes a result PUT wait (docs/decisions/connection-pacing.md).

asyncio runs every callback that is ready as one turn of its loop, first come first
served. A result report takes a dozen turns or more (each database round trip is one),
so it waits behind whatever else the loop has to do in each of them. When a crowd
connects at once, as the screens of a venue do when its network comes back, every turn
was full of handshakes: the middleware, the live route, the accept, the snapshot, for
every connection that had arrived, and a report made meanwhile waited seconds.

`ConnectionPacer` lets a few connections into the application per turn and queues the
others, first come first served: `per_turn` of them while no HTTP request is being
served, one while any is. A turn then carries the work of a few connections, whatever
the size of the crowd, and a report's turns stay short. HTTP requests are never queued
here, so writers and readers go first; with none being served, the crowd connects about
as fast as without the pacing, and while they are, more slowly.

A connection is paced twice. `ConnectionPacingMiddleware`, outside every middleware of
ours, paces everything up to the access check; the live route waits its turn again
once the check is done, because one shared read of the tournament's row answers
everyone who arrived while it ran (`api.connect_reads`), hundreds at once in a crowd.
What the server does before the application is called (accepting the socket, parsing
the upgrade request) is not paced: that is the server's part of a connection.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from service.config import ADMISSIONS_PER_TURN

__all__ = ["ADMISSIONS_PER_TURN", "ConnectionPacer", "ConnectionPacingMiddleware"]


class ConnectionPacer:
    """Lets callers through a few per turn of the event loop, in order of arrival
    (`enter`): `per_turn` while `requests` is zero, else one."""

    def __init__(self, per_turn: int = ADMISSIONS_PER_TURN) -> None:
        if per_turn < 1:
            raise ValueError("per_turn must be at least 1")
        self.per_turn = per_turn
        self._admitted = 0
        """Callers let through since the count was last reset (once per turn)."""
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._turn: asyncio.Handle | None = None
        self.requests = 0
        """HTTP requests being served (`ConnectionPacingMiddleware` counts them)."""
        self.queued = 0
        """Callers that had to wait for a later turn (for tests and figures)."""

    @property
    def waiting(self) -> int:
        """Callers queued now (cancelled ones included until their turn comes)."""
        return len(self._waiting)

    def _room(self) -> int:
        """Callers one turn lets through now."""
        return 1 if self.requests else self.per_turn

    async def enter(self) -> None:
        """Return at once if this turn still has room and nobody is queued, else wait
        for a later turn."""
        if not self._waiting and self._admitted < self._room():
            self._admitted += 1
            self._next_turn_soon()
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        self.queued += 1
        self._next_turn_soon()
        await waiter

    def _next_turn_soon(self) -> None:
        if self._turn is None:
            self._turn = asyncio.get_running_loop().call_soon(self._new_turn)

    def _new_turn(self) -> None:
        """Runs once per turn while anyone is queued or was let in: reset the count and
        let the next ones through (a waiter cancelled meanwhile takes no place)."""
        self._turn = None
        self._admitted = 0
        waiting = self._waiting
        room = self._room()
        while waiting and self._admitted < room:
            waiter = waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                self._admitted += 1
        if waiting or self._admitted:
            self._next_turn_soon()


class ConnectionPacingMiddleware:
    """The outermost of our middleware: every WebSocket connection waits its turn at `pacer` before
    anything else of the application runs for it; HTTP requests go straight through,
    counted while they are served (`ConnectionPacer.requests`)."""

    def __init__(self, app: Any, pacer: ConnectionPacer) -> None:
        self.app = app
        self.pacer = pacer

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "http":
            self.pacer.requests += 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.pacer.requests -= 1
            return
        if kind == "websocket":
            await self.pacer.enter()
        await self.app(scope, receive, send)
