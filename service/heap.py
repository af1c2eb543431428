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
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_COLLECTION_THRESHOLD", "settle_after_start", "settle_heap", "tune_collector"]

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
