"""The cyclic garbage collector kept off the hot paths of a long-running process.

CPython's full collection walks every container the process holds, and each pass stalls
every request waiting on that event loop. So young collections run less often
(`tune_collector`); the heap is frozen where nothing is in flight, once start-up is over
and, in the live reader's process, between two answers (`settle_heap`), so that later
passes walk only what was made since; connected spectators are frozen in batches once
they have joined (`SpectatorHeap`); and now and then one full pass (`reopen_heap`) frees
whatever reference cycles were frozen meanwhile.

A frozen object that dies is still freed by reference counting; only a cycle alive at a
freeze that dies later is kept, until the next full pass or the end of the process,
which is why the heap is frozen where nothing is in flight. A departed spectator leaves
no cycle (`live.loop.SpectatorLoop` ends asyncio's transport cycle), so departures only
count towards the rare full pass; spectators join while requests are in flight, so a
settle may freeze a request's objects too, and a cycle of theirs waits for that pass.

Why, and what it measured: docs/decisions/garbage-collector.md.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

__all__ = [
    "REOPEN_LEAVES",
    "REOPEN_SHARE",
    "REOPEN_UNDER_CHURN",
    "SETTLE_BATCH",
    "SETTLE_DELAY_SECONDS",
    "YOUNG_COLLECTION_THRESHOLD",
    "SpectatorHeap",
    "reopen_heap",
    "settle_after_start",
    "settle_heap",
    "tune_collector",
]

YOUNG_COLLECTION_THRESHOLD = 10_000
"""Container objects made (net of those freed) between two young collections; 700 is
CPython's default. A full pass is considered once every 100 young collections (the
default ratios of the older generations), so once per million net new containers
instead of once per 70,000, while a young collection walks at most 10,000 objects,
about a millisecond."""


def tune_collector() -> None:
    """Collect the young generation less often (see `YOUNG_COLLECTION_THRESHOLD`)."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, middle, old)


def settle_heap() -> None:
    """Collect the garbage made since the last freeze, then freeze what is left."""
    gc.collect()
    gc.freeze()


def settle_after_start() -> None:
    """A long-running process's collector once its start-up is over: young collections
    less often, and the start-up heap frozen."""
    tune_collector()
    settle_heap()


def reopen_heap() -> None:
    """Unfreeze the heap, collect it whole, and freeze what is left: the one full pass
    that frees the reference cycles frozen meanwhile (departed spectators')."""
    gc.unfreeze()
    settle_heap()


SETTLE_DELAY_SECONDS = 0.5
"""Quiet time (no spectator joining or leaving) after which the heap is settled."""
SETTLE_BATCH = 500
"""Joins after which the heap is settled even while more keep coming: a settle then
walks the objects of at most this many new spectators (about 10 ms)."""
REOPEN_LEAVES = 65_536
"""Departures (at least) between two full collections. A departure leaves no cycle under
`live.loop.SpectatorLoop`, so this bounds only the rare cycles of requests frozen by the
settles; under another loop, asyncio's transport cycle of every departure (about
0.5 KiB each, some 32 MiB at this bound)."""
REOPEN_SHARE = 1.0
"""...or this share of the spectators still connected, whichever is more: a full pass
walks them all, so its cost per departure stays that of a spectator's own settle."""
REOPEN_UNDER_CHURN = 4
"""A full pass waits for joining and leaving to pause: a spectator's objects outlive
its departure by a few turns of the event loop (its tasks are cancelled and awaited,
its protocol closes), so in the middle of a crowd leaving most of them are still
alive and a full pass would walk them all (seconds, with thousands leaving). Only
under churn that never pauses does a full pass come at a batch, once this many times
the departures a quiet one needs have gone by (a bound on the frozen leftovers)."""


class SpectatorHeap:
    """Keeps the collector's passes off the objects of connected spectators (see the
    module's docstring): joins are settled in batches (`settle_heap`: a pass over what
    was made since the last freeze, then a freeze), and after enough departures one
    full pass (`reopen_heap`) frees whatever cycles were frozen meanwhile. A settle
    comes when joining and leaving pause for `delay` seconds after a join, or at once
    after `batch` joins; departures ask for no settle of their own; a full pass only
    at a pause (see `REOPEN_UNDER_CHURN`)."""

    def __init__(
        self,
        *,
        delay: float = SETTLE_DELAY_SECONDS,
        batch: int = SETTLE_BATCH,
        settle: Callable[[], None] = settle_heap,
        reopen: Callable[[], None] = reopen_heap,
    ) -> None:
        self._delay = delay
        self._batch = batch
        self._settle_heap = settle
        self._reopen_heap = reopen
        self.connected = 0
        """Spectators connected now."""
        self._changes = 0
        """Joins since the last settle."""
        self._left = 0
        """Departures since the last full pass."""
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    def joined(self) -> None:
        """A spectator connected."""
        self.connected += 1
        self._changes += 1
        self._changed()

    def left(self) -> None:
        """A spectator went away (freed by reference counting: it counts only towards
        the next full pass)."""
        self.connected -= 1
        self._left += 1
        self._changed()

    def _changed(self) -> None:
        """Settle at once after a batch of joins; else (re)start the wait for a pause
        when a settle or a full pass is due."""
        if self._closed:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._changes >= self._batch:
            self.settle(paused=False)
        if self._changes or self._left >= self._full_pass_due():
            self._timer = asyncio.get_running_loop().call_later(self._delay, self.settle)

    def _full_pass_due(self, *, paused: bool = True) -> float:
        """Departures after which a full pass comes (see `REOPEN_UNDER_CHURN`)."""
        due = max(REOPEN_LEAVES, REOPEN_SHARE * self.connected)
        return due if paused else REOPEN_UNDER_CHURN * due

    def settle(self, *, paused: bool = True) -> None:
        """Settle now: a full pass if enough spectators left since the last one, else
        a pass over what was made since the last freeze; then freeze. `paused`: joining
        and leaving have paused (else a full pass waits, `REOPEN_UNDER_CHURN`)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._changes = 0
        if self._left >= self._full_pass_due(paused=paused):
            self._left = 0
            self._reopen_heap()
        else:
            self._settle_heap()

    def close(self) -> None:
        """Cancel a settle that is due and settle no more (the process is stopping)."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
