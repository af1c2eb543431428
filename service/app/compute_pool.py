"""Processes of their own for stateless computations (the `/v1/compute/...` endpoints):
whatever an anonymous caller sends, a stored tournament's work never waits behind it.

Stored tournaments compute in the API process (`offload.run_cpu`, threads sharing the
engine's cached values). A stateless computation needs none of them: its input is plain
data (a TRF or JSON body) and its answer is bytes, so it runs in a pool of worker
processes instead, where it takes neither a thread of `run_cpu` nor the API's GIL, and
uses a core of its own. Each computation is bounded:

- in time: a worker that has not answered within `seconds` is killed (SIGKILL, so a
  runaway computation really stops) and replaced; the caller gets `TimedOut`;
- per client: a client (its address) has at most `per_client` computations waiting or
  running (`ClientBusy` past it), counted until the worker is free again, so a caller
  that hangs up and sends again gains nothing;
- in number: at most `queue` computations wait for a worker (`PoolBusy` past it).

Workers are forked from the forkserver (Python's `multiprocessing`), which imports the
`preload` modules once per API process and then freezes its heap (`forked_heap`): a new
worker starts in milliseconds, already warm. The first computation starts the workers
(an app that never computes starts no process; the forkserver's imports take about a
second, once). A worker is replaced after `max_tasks` computations, returning to the system
what a large one left in its heap. A worker's exceptions come back as they are when
they are `Problem`s (the job has already turned engine and validation errors into
problems); any other is a bug, reported as `WorkerError` with its traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from service.errors import Problem
from service.heap import settle_after_start

__all__ = ["ClientBusy", "ComputePool", "PoolBusy", "TimedOut", "WorkerError"]

_T = TypeVar("_T")
_log = logging.getLogger("arbiter.compute")
_STOP_GRACE = 2.0
"""Seconds a worker may take to end when asked, before it is killed."""


class TimedOut(Exception):
    """The computation ran past the pool's time bound; its worker was killed."""


class ClientBusy(Exception):
    """The client already has its allowance of computations waiting or running."""


class PoolBusy(Exception):
    """As many computations as the pool queues are already waiting for a worker."""


class WorkerError(Exception):
    """The computation failed with an exception that is not a `Problem` (a bug), or its
    worker died; the message carries the worker's traceback."""


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    connection: Connection
    tasks: int = 0
    alive: bool = True


class ComputePool:
    """`workers` processes, each computation bounded in time, per client and in number
    (see the module docstring). `start` and `stop` run on the event loop that calls
    `run`."""

    def __init__(
        self,
        workers: int,
        *,
        seconds: float,
        per_client: int,
        queue: int,
        max_tasks: int,
        preload: Sequence[str] = (),
    ) -> None:
        self.workers = workers
        self.seconds = seconds
        self.per_client = per_client
        self.queue = queue
        self.max_tasks = max_tasks
        self._preload = [*preload, "service.app.forked_heap"]  # last: freezes the heap
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: asyncio.Queue[_Worker] | None = None
        self._started = False
        self._waiting = 0
        self._busy = 0
        self._clients: Counter[str] = Counter()
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False
        # One thread per worker talks to it (blocking on its pipe, the GIL released),
        # plus one that starts and retires workers.
        self._talkers = ThreadPoolExecutor(workers, thread_name_prefix="arbiter-compute")
        self._keeper = ThreadPoolExecutor(1, thread_name_prefix="arbiter-compute-keeper")

    @property
    def running(self) -> int:
        """Computations a worker is running now."""
        return self._busy

    @property
    def waiting(self) -> int:
        """Computations waiting for a worker now."""
        return self._waiting

    def start(self) -> None:
        """Bind the pool to the running loop. The workers start with the first
        computation (the forkserver's first start imports the preloaded modules,
        about a second), so an app that never computes starts no process."""
        self._loop = asyncio.get_running_loop()
        self._idle = asyncio.Queue()

    async def run(self, client: str, function: Callable[..., _T], *args: Any) -> _T:
        """`function(*args)` in a worker, for `client`; raises `ClientBusy`, `PoolBusy`,
        `TimedOut`, `WorkerError`, or the `Problem` the function raised."""
        if self._idle is None or self._loop is None or self._closed:
            raise WorkerError("the compute pool is not running")
        if self._clients[client] >= self.per_client:
            raise ClientBusy(client)
        if self._waiting >= self.workers - self._busy + self.queue:
            raise PoolBusy()
        if not self._started:
            self._started = True
            for _ in range(self.workers):
                self._keeper.submit(self._replace)
        self._clients[client] += 1
        handed: Future[_T] | None = None
        try:
            self._waiting += 1
            try:
                worker = await self._idle.get()
            finally:
                self._waiting -= 1
            self._busy += 1
            handed = self._talkers.submit(self._call, worker, function, args)
            loop = self._loop

            def finished(_: Future[_T]) -> None:
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(self._done, worker, client)

            handed.add_done_callback(finished)
            return await asyncio.wrap_future(handed)
        finally:
            if handed is None:  # never reached a worker: the client's count goes now
                self._release(client)

    def _done(self, worker: _Worker, client: str) -> None:
        """On the loop, once the worker is free: the client's allowance comes back, and
        the worker goes back to the idle queue (or is replaced)."""
        self._release(client)
        self._busy -= 1
        if self._closed:
            return
        if worker.alive and worker.tasks < self.max_tasks:
            assert self._idle is not None
            self._idle.put_nowait(worker)
        else:
            self._keeper.submit(self._retire, worker)
            self._keeper.submit(self._replace)

    def _release(self, client: str) -> None:
        self._clients[client] -= 1
        if self._clients[client] <= 0:
            del self._clients[client]

    def _call(self, worker: _Worker, function: Callable[..., _T], args: tuple[Any, ...]) -> _T:
        """In a talker thread: send the job, wait at most `seconds` for the answer."""
        try:
            worker.connection.send((function, args))
            if not worker.connection.poll(self.seconds):
                worker.alive = False
                worker.process.kill()
                worker.process.join(_STOP_GRACE)  # gone before the caller is answered
                raise TimedOut(f"no answer within {self.seconds:g} s")
            ok, answer = worker.connection.recv()
        except (EOFError, OSError) as exc:
            worker.alive = False
            raise WorkerError(f"the compute worker ended: {exc!r}") from None
        worker.tasks += 1
        if ok:
            return answer  # type: ignore[no-any-return]
        if isinstance(answer, BaseException):
            raise answer
        raise WorkerError(str(answer))

    def _replace(self) -> None:
        """In the keeper thread: start a worker and put it in the idle queue."""
        if self._closed:
            return
        try:
            worker = self._start_worker()
        except Exception:  # the computations wait; the next replacement tries again
            _log.exception("a compute worker could not be started")
            return
        loop, idle = self._loop, self._idle
        if loop is not None and idle is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(idle.put_nowait, worker)

    def _start_worker(self) -> _Worker:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(self._preload)
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(theirs,), name="arbiter-compute", daemon=True
        )
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        with self._lock:
            self._all.add(worker)
        return worker

    def _retire(self, worker: _Worker, *, ask: bool = True) -> None:
        """In the keeper thread: end a worker (asked first, unless `ask` is false; killed
        if it does not end) and close its pipe."""
        with self._lock:
            self._all.discard(worker)
        if ask and worker.process.is_alive():
            with contextlib.suppress(OSError, ValueError):
                worker.connection.send(None)
            worker.process.join(_STOP_GRACE)
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(_STOP_GRACE)
        worker.connection.close()

    def stop(self) -> None:
        """End every worker at once (they keep nothing; a computation still running is
        killed) and the threads."""
        self._closed = True
        self._keeper.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            workers = list(self._all)
        for worker in workers:
            self._retire(worker, ask=False)
        self._talkers.shutdown(wait=True, cancel_futures=True)


def _serve(connection: Connection) -> None:
    """A worker: answer (function, args) jobs with (ok, answer) until None or EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's Ctrl-C is for the server
    settle_after_start()  # the preloaded modules leave the collector's sight
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return  # the API process has gone
        if job is None:
            return
        function, args = job
        try:
            answer: tuple[bool, Any] = (True, function(*args))
        except Problem as problem:
            answer = (False, problem)
        except Exception:
            answer = (False, traceback.format_exc())
        try:
            connection.send(answer)
        except (OSError, ValueError):
            return
        except Exception:  # the answer could not be pickled: a bug, reported as such
            connection.send((False, traceback.format_exc()))
