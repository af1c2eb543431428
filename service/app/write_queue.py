"""One writer at a time per tournament in this process, queued in memory
(docs/decisions/write-queue.md).

Every write to a tournament takes the tournament's row lock in the database first
(`db.events.lock_and_reload`), so its writers run one after another
however many arrive. Without a queue of its own, a process lets all of them begin:
each holds a pooled connection and an open transaction while it waits in the
database, and the one holding the lock waits for its next turn on the event loop
behind the requests that can only queue after it. A write waits in its tournament's
write queue before it opens its transaction: the writers of one tournament then queue
here, in arrival order, holding nothing, and the holder's statements no longer share
the event loop with the waiters' statements; writers of other tournaments are at the
head of their own queues at once. The next writer moves up when the write commits
(`QueueHold.release`), before its answer is sent. Several processes or replicas still
meet at the row lock, which stays the guarantee: the queue only orders the writers of
one process.

A queue is named by its key (`WriteContext.queue_key`: `tournaments/<id>`,
`bridge/events/<id>`), which each write route declares by its path parameter.

A wait in the queue is bounded like a lock wait in the database (`lock_wait_seconds`):
past it the write answers 503 with `Retry-After`, having changed nothing.

Riders: a writer may wait as a `Rider`, work the holder can do for it. The writer at
the head of the queue may take the riders queued right behind it (`QueueHold.take_riders`) and do
their work together with its own, in one transaction (`api.group_commit`: group
commit). It takes them in arrival order and stops at the first writer that is not a
rider, so no write ever overtakes another: the order stays the order of arrival.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from service.errors import Unavailable

__all__ = ["LOCK_WAIT_DETAIL", "QueueHold", "Rider", "WriteQueueTimeout", "WriteQueues"]

LOCK_WAIT_DETAIL = (
    "another write has held this tournament longer than the lock wait; the request "
    "changed nothing, retry later"
)
"""What a write is told when its wait for the tournament ran out, here or in the
database (`api.errors.outage_problem`)."""


class WriteQueueTimeout(Unavailable):
    """The wait in a tournament's write queue ran out (503, sent with `Retry-After`)."""

    def __init__(self) -> None:
        super().__init__(LOCK_WAIT_DETAIL, field="database")


class Rider:
    """A writer whose work the queue's holder may take on (`QueueHold.take_riders`).

    Once `taken`, the holder owes it an outcome: it sets `finished` when the rider's work
    is done (or has failed), and the rider's own hold, when it reaches the head of the
    queue, finds nothing left to do."""

    def __init__(self) -> None:
        self.taken = False
        self.finished = asyncio.Event()


_Waiting = Rider | object
"""A writer in a tournament's queue: a rider, or a plain writer's marker (a barrier)."""


@dataclass
class _TournamentQueue:
    """The write queue of one tournament: the lock its holder holds, and who waits."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Writers holding or waiting for the lock; at 0 the queue is forgotten."""
    queue: deque[_Waiting] = field(default_factory=deque)
    """Writers waiting for the lock and not yet taken, in arrival order."""


class QueueHold:
    """A writer's hold on the head of its tournament's queue: `release()` lets the next
    writer in (at the end
    of the holder's block at the latest; releasing again does nothing)."""

    def __init__(
        self, release: Callable[[], None] | None = None, queue: deque[_Waiting] | None = None
    ) -> None:
        self._release = release
        self._queue = queue

    def take_riders(self, limit: int, accept: Callable[[Rider], bool]) -> list[Rider]:
        """Take up to `limit` riders queued right behind the holder, in arrival order,
        stopping at the first writer that is not a rider or that `accept` refuses (so
        none is taken ahead of a writer that arrived before it). Each is marked taken."""
        taken: list[Rider] = []
        queue = self._queue
        while queue and len(taken) < limit:
            head = queue[0]
            if not isinstance(head, Rider) or not accept(head):
                break
            queue.popleft()
            head.taken = True
            taken.append(head)
        return taken

    def release(self) -> None:
        """Let the next writer in (once the write's transaction has ended)."""
        release, self._release = self._release, None
        if release is not None:
            release()


class WriteQueues:
    """The write queues of one process, one per tournament, created on first use and
    forgotten when idle (so their number stays the number of tournaments being written to
    right now)."""

    def __init__(self, wait_seconds: float) -> None:
        self.wait_seconds = wait_seconds
        self._queues: dict[str, _TournamentQueue] = {}

    def __len__(self) -> int:
        return len(self._queues)

    @asynccontextmanager
    async def hold(self, key: str | None, rider: Rider | None = None) -> AsyncIterator[QueueHold]:
        """Hold the head of the queue of `key` (first come, first served) until the block
        ends or the hold is released, whichever comes first; `None` holds at once. Raises
        `WriteQueueTimeout` after `wait_seconds` of waiting. A `rider` may meanwhile be taken
        by the holder (then `rider.taken`; a timeout does not undo that)."""
        if key is None:
            yield QueueHold()
            return
        tournament = self._queues.get(key)
        if tournament is None:
            tournament = self._queues[key] = _TournamentQueue()
        tournament.users += 1
        waiting: _Waiting = rider if rider is not None else object()
        tournament.queue.append(waiting)
        try:
            async with asyncio.timeout(self.wait_seconds):
                await tournament.lock.acquire()
        except TimeoutError:
            self._leave(key, tournament, waiting)
            raise WriteQueueTimeout from None
        except BaseException:  # the waiting request was cancelled
            self._leave(key, tournament, waiting)
            raise
        _forget(tournament.queue, waiting)

        def release() -> None:
            tournament.lock.release()
            self._leave(key, tournament)

        hold = QueueHold(release, tournament.queue)
        try:
            yield hold
        finally:
            hold.release()

    def _leave(
        self, key: str, tournament: _TournamentQueue, waiting: _Waiting | None = None
    ) -> None:
        if waiting is not None:
            _forget(tournament.queue, waiting)
        tournament.users -= 1
        if not tournament.users:
            del self._queues[key]


def _forget(queue: deque[_Waiting], waiting: _Waiting) -> None:
    """Take a writer out of the queue, unless a holder has taken it already. It is at the
    head whenever it holds the lock (all before it held it first or were taken)."""
    if queue and queue[0] is waiting:
        queue.popleft()
    elif not (isinstance(waiting, Rider) and waiting.taken):
        queue.remove(waiting)
