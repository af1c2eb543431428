"""The cyclic garbage collector's share of a long-running process (issue 12: no pause
that a result report or a standings read waits behind).

CPython's full collection walks every container object the process holds. Measured
under `bench_writes.py` (50 clients reporting into a 400-player round-robin):

* the API process holds about 150,000 containers after start-up (functions, classes,
  module dicts, the OpenAPI models), alive for the life of the process. With fifty
  requests in flight the collector ran a full pass every second or two, 50 to 170 ms
  each, and freed nothing: every request waiting on the event loop waited that long
  (a result report's p99 was 160-180 ms for a p50 of 75 ms);
* the live reader process holds about 320,000 (the engine view of 79,800 games and
  the tie-break digest) and paused 50 to 170 ms just as often, inside the standings
  reads.

Freezing the heap moves what exists now out of the collector's sight: later passes
walk only what was made since. A frozen object that dies is still freed by reference
counting; only a reference cycle that was alive at the freeze and dies later is kept
until the process ends, which is why the heap is frozen only where nothing is in
flight: once start-up is over, and in the reader process between two answers (it
answers one request at a time, so no session or read is open then).

Spectators are the other long-lived objects (issue 11): each live connection holds about
200 containers (its tasks, coroutines, futures, transport, the server's protocol and
handshake) for as long as it is open. CPython counts a generation's size as allocations
minus deallocations of any age, so once spectators are connected, objects dying in the
older generations (a spectator's previous wait, the handshake's leftovers) make room in
that count for new ones, and the young generation grew past 280,000 objects while the
count stood at its threshold: with 5,000 spectators a single young collection took
265-350 ms, in the middle of the fan-out and of the result PUTs (`bench_live.py 5000`:
PUT p99 97-188 ms, e2e p99 172-260 ms). `SpectatorHeap` freezes them once they have
joined. A departed spectator is freed by reference counting: asyncio's transport used to
keep one small cycle (its read callback, a bound method of itself: six objects, about
0.5 KiB with its socket), which `live.loop.SpectatorLoop` now ends when the connection
is lost, so a departure calls for no pass of the collector at all (under another loop
each still leaves that cycle, and a frozen cycle is never collected). Spectators join
while requests are in flight, so a settle may also freeze a request's objects; a cycle
of theirs that dies later waits for the next full pass. A full pass comes at the first
pause after `max(REOPEN_LEAVES, REOPEN_SHARE x connected)` departures (under churn that
never pauses, after `REOPEN_UNDER_CHURN` times as many), so an audience that comes and
goes is collected whole now and then, and one that stays was settled only as often as it
grew.

A full pass walks every spectator still connected, so it must stay rare. It once came
every 256 departures or a quarter of the audience: each connection then ended in a cycle
of 58 objects holding its whole ASGI scope, protocol and handshake (about 13 KiB of
containers; the scope kept the server's `send`, a bound method of the protocol that
holds the scope, `wire.ServerSendMiddleware`; and when its last send had failed, the
live route's frame, held by the failure's traceback), and 10,000 spectators leaving at
once cost ten full passes of 2.1-2.7 s each: result PUTs made meanwhile waited 25 s, and
some were answered 503 (`bench_live.py 10000`, the results reported while everyone
leaves). Once that cycle was gone too, the passes left were those the departures asked
for themselves: a settle every `SETTLE_BATCH` departures (10-60 ms each, walking the
objects of the connections still tearing down) and, at 10,000, one full pass of
330-390 ms once they had gone, which freed 60,000 objects, the transports' cycles, and
nothing else. Departures now only count towards the full pass, which is rare
(`REOPEN_LEAVES`).
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
instead of once per 70,000: 5,000 spectators connecting (about 200 containers each)
cost one full pass instead of fourteen (2.9 s of stalls, the last ones 580 ms). A
young collection then walks up to 10,000 objects, about a millisecond."""


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
settles; under another loop, about 32 MiB of the transports' cycles (see the module's
docstring)."""
REOPEN_SHARE = 1.0
"""...or this share of the spectators still connected, whichever is more: a full pass
walks them all, so its cost per departure stays that of a spectator's own settle."""
REOPEN_UNDER_CHURN = 4
"""A full pass waits for joining and leaving to pause: a spectator's objects outlive
its departure by a few turns of the event loop (its tasks are cancelled and awaited,
its protocol closes), so in the middle of a crowd leaving most of them are still
alive and a full pass walks them all (2.2-2.6 s with 8,500 of 10,000 gone). Only
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
