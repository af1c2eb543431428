"""CPU-heavy work off the event loop: while a 20 s computation runs, /healthz and a
result PUT must still answer (docs/decisions/thread-pool.md).

Pairing, standings, schedules and cards run in a small thread pool, not on the event
loop. Threads rather than processes: the engine's values are immutable and shared with
the per-replica caches (the incremental engine view of a 400-player round-robin holds
79,800 games), so a thread reads them for free where a process pool would pickle them
on every call; CPython hands the interpreter back to the event loop every switch
interval (1 ms, `api.app.SWITCH_INTERVAL_SECONDS`), so requests keep being answered
while a computation runs. The cost: a
computation does not use a second core. The pool is bounded (`_WORKERS`), so a burst
of heavy requests queues instead of starving the loop.

This pool is the stored tournaments' alone: the stateless `/v1/compute/...` endpoints,
which anyone may call, compute in processes of their own (`compute_pool`), so no
anonymous computation is ever queued ahead of an organizer's pairing here.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["run_cpu"]

_WORKERS = 2
_P = ParamSpec("_P")
_T = TypeVar("_T")
_pool = ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="arbiter-cpu")


async def run_cpu(function: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run `function(*args, **kwargs)` in the CPU pool and await its result."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_pool, functools.partial(function, *args, **kwargs))
