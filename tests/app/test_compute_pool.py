"""The compute workers (`app.compute_pool`): problems cross back as themselves and bugs as
`WorkerError`; a computation past the time bound is killed with its process; a worker
is replaced after `max_tasks`; a caller that goes away keeps its allowance until its
worker is free."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator

import pytest

from service.app.compute_pool import ClientBusy, ComputePool, TimedOut, WorkerError
from service.errors import InvalidInput


def refuse(field: str) -> None:
    """A job that refuses its input (run in a worker)."""
    raise InvalidInput("not this", field=field, limit=3)


def pid_after(seconds: float) -> int:
    """A job that takes `seconds`, then names its process."""
    time.sleep(seconds)
    return os.getpid()


@pytest.fixture
async def pool() -> AsyncIterator[ComputePool]:
    workers = ComputePool(1, seconds=2.0, per_client=1, queue=4, max_tasks=3)
    workers.start()
    yield workers
    await workers.stop()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as stat:  # killed, not yet reaped: a zombie
        return stat.read().split(") ")[1].startswith("Z")


async def test_problems_and_bugs_cross_back(pool: ComputePool) -> None:
    with pytest.raises(InvalidInput) as refused:
        await pool.run("a", refuse, "players")
    assert refused.value.field == "players" and refused.value.extra == {"limit": 3}
    with pytest.raises(WorkerError, match="ValueError"):
        await pool.run("a", int, "x")
    assert await pool.run("a", sum, [1, 2, 3]) == 6


async def test_a_computation_past_the_bound_is_killed(pool: ComputePool) -> None:
    first = await pool.run("a", pid_after, 0)
    with pytest.raises(TimedOut):
        await pool.run("a", pid_after, 30)
    assert _gone(first)
    replaced = await pool.run("a", pid_after, 0)
    assert replaced != first


async def test_a_worker_is_replaced_after_max_tasks(pool: ComputePool) -> None:
    pids = [await pool.run("a", pid_after, 0) for _ in range(4)]
    assert len(set(pids[:3])) == 1 and pids[3] != pids[0]


async def test_a_caller_gone_keeps_its_allowance_until_the_worker_is_free(
    pool: ComputePool,
) -> None:
    slow = asyncio.create_task(pool.run("a", pid_after, 0.5))
    while not pool.running:
        await asyncio.sleep(0.01)
    slow.cancel()
    with pytest.raises(ClientBusy):
        await pool.run("a", sum, [1])
    assert await pool.run("b", sum, [2]) == 2  # waited for the worker
    assert await pool.run("a", sum, [3]) == 3


async def test_a_worker_that_died_idle_is_replaced_before_a_computation(
    pool: ComputePool,
) -> None:
    """A worker killed between computations (the OOM killer, say) is found dead when
    taken from the idle queue: the computation runs in its replacement, not a 500."""
    first = await pool.run("a", pid_after, 0)
    os.kill(first, signal.SIGKILL)
    while not _gone(first):
        await asyncio.sleep(0.01)
    replaced = await pool.run("a", pid_after, 0)
    assert replaced != first
