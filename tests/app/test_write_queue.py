"""The writers' queue (`app.write_queue`): one writer at a time per tournament, first come
first served, other tournaments unaffected, a bounded wait, nothing kept once idle.
Which queue a write waits in is its route's declaration (tests/api/test_write_queue.py)."""

from __future__ import annotations

import asyncio

import pytest

from service.app.write_queue import Rider, WriteQueues, WriteQueueTimeout
from service.errors import Unavailable


async def test_writers_of_one_tournament_pass_one_at_a_time_in_arrival_order() -> None:
    queues = WriteQueues(wait_seconds=5)
    inside = 0
    most_inside = 0
    order: list[int] = []

    async def write(number: int) -> None:
        nonlocal inside, most_inside
        async with queues.hold("tournaments/a"):
            inside += 1
            most_inside = max(most_inside, inside)
            order.append(number)
            await asyncio.sleep(0.002)
            inside -= 1

    tasks = []
    for number in range(20):
        tasks.append(asyncio.create_task(write(number)))
        await asyncio.sleep(0)  # each reaches the queue before the next is created
    await asyncio.gather(*tasks)
    assert most_inside == 1
    assert order == list(range(20))
    assert len(queues) == 0  # nothing kept once nobody writes


async def test_other_tournaments_pass_while_one_is_held() -> None:
    queues = WriteQueues(wait_seconds=5)
    async with queues.hold("tournaments/a"):
        async with asyncio.timeout(1), queues.hold("tournaments/b"):
            assert len(queues) == 2
        async with queues.hold(None):  # a path naming no tournament waits for nothing
            pass
    assert len(queues) == 0


async def test_a_wait_past_the_limit_is_a_503_and_leaves_the_queue_working() -> None:
    queues = WriteQueues(wait_seconds=0.05)
    held = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with queues.hold("tournaments/a"):
            held.set()
            await release.wait()

    task = asyncio.create_task(holder())
    await held.wait()
    with pytest.raises(WriteQueueTimeout) as caught:
        async with queues.hold("tournaments/a"):
            pytest.fail("got past a writer that held the queue")
    assert isinstance(caught.value, Unavailable) and caught.value.status == 503
    assert "retry later" in str(caught.value)
    release.set()
    await task
    async with asyncio.timeout(1), queues.hold("tournaments/a"):
        pass  # the next writer is let in again
    assert len(queues) == 0


async def test_a_cancelled_waiter_does_not_block_the_writers_after_it() -> None:
    queues = WriteQueues(wait_seconds=5)
    release = asyncio.Event()
    passed: list[str] = []

    async def write(name: str, wait: asyncio.Event | None = None) -> None:
        async with queues.hold("tournaments/a"):
            passed.append(name)
            if wait is not None:
                await wait.wait()

    first = asyncio.create_task(write("first", release))
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(write("cancelled"))
    third = asyncio.create_task(write("third"))
    await asyncio.sleep(0.01)
    cancelled.cancel()
    release.set()
    async with asyncio.timeout(1):
        await first
        await third
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert passed == ["first", "third"]
    assert len(queues) == 0


async def test_a_released_pass_lets_the_next_writer_in_before_its_block_ends() -> None:
    queues = WriteQueues(wait_seconds=5)
    async with queues.hold("tournaments/a") as hold:
        hold.release()  # the holder's transaction has committed
        hold.release()  # a second release changes nothing
        async with asyncio.timeout(1), queues.hold("tournaments/a"):
            assert len(queues) == 1
            follower = asyncio.create_task(_pass_once(queues))
            await asyncio.sleep(0.01)
            assert not follower.done()  # the one inside holds the queue as usual
        await follower
    assert len(queues) == 0


async def _pass_once(queues: WriteQueues) -> None:
    async with queues.hold("tournaments/a"):
        pass


class _Named(Rider):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name


async def test_the_holder_takes_the_riders_right_behind_it_in_order_up_to_a_barrier() -> None:
    """Group commit (`api.idempotency`): riders are taken in arrival order, up to the
    limit, and never one that arrived after a writer that is not a rider or that the
    holder refuses."""
    queues = WriteQueues(wait_seconds=5)
    took: dict[str, list[str]] = {}
    release = asyncio.Event()

    async def write(name: str) -> None:
        me = None if name == "plain" else _Named(name)
        async with queues.hold("tournaments/a", me) as hold:
            if me is None or me.taken:
                return  # a plain writer takes no riders; a taken rider is done
            if name == "first":
                await release.wait()  # everyone else queues meanwhile
            riders = hold.take_riders(2, lambda r: isinstance(r, _Named) and r.name != "no")
            took[name] = [r.name for r in riders if isinstance(r, _Named)]
            for rider in riders:
                rider.finished.set()

    names = ["first", "a", "b", "c", "plain", "d", "no", "e"]
    tasks = []
    for name in names:
        tasks.append(asyncio.create_task(write(name)))
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)
    release.set()
    async with asyncio.timeout(1):
        await asyncio.gather(*tasks)
    assert took == {"first": ["a", "b"], "c": [], "d": [], "no": ["e"]}
    assert len(queues) == 0


async def test_a_taken_rider_whose_wait_runs_out_is_still_taken() -> None:
    queues = WriteQueues(wait_seconds=0.05)
    rider = Rider()
    release = asyncio.Event()
    took: list[Rider] = []

    async def holder() -> None:
        async with queues.hold("tournaments/a") as hold:
            await asyncio.sleep(0.01)
            took.extend(hold.take_riders(5, lambda _: True))
            await release.wait()

    task = asyncio.create_task(holder())
    await asyncio.sleep(0)
    with pytest.raises(WriteQueueTimeout):
        async with queues.hold("tournaments/a", rider):
            pytest.fail("got past a writer that held the queue")
    assert took == [rider] and rider.taken  # its work is the holder's: it waits for that
    release.set()
    await task
    assert len(queues) == 0
