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
import logging
import multiprocessing
import pickle
import signal
import socket
import struct
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
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
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    tasks: int = 0
    alive: bool = True


class ComputePool:
    """`workers` processes, each computation bounded in time, per client and in number
    (see the module docstring). `start`, `run` and `stop` run on one event loop.

    The loop talks to each worker over a socket pair, in `multiprocessing`'s framing
    (a 4-byte length, then a pickle): a job is written and its answer read by the loop
    itself, so a computation wakes no thread of the API process on its way there and
    back, and the time bound is the loop's own timeout."""

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
        self._exchanges: set[asyncio.Task[Any]] = set()
        self._closed = False
        # Starting a worker blocks (the forkserver's first start imports the preloaded
        # modules), and so does waiting for one to end: one thread does both.
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
        exchange: asyncio.Task[_T] | None = None
        try:
            self._waiting += 1
            try:
                worker = await self._idle.get()
                while not worker.process.is_alive():  # died idle (the OOM killer, say)
                    worker.alive = False
                    self._discard(worker)
                    worker = await self._idle.get()
            finally:
                self._waiting -= 1
            self._busy += 1
            # The exchange is the pool's, not the caller's: a caller that goes away
            # leaves it to finish, and the worker and the client's allowance come
            # back only when it has.
            exchange = self._loop.create_task(self._exchange(worker, client, function, args))
            self._exchanges.add(exchange)
            exchange.add_done_callback(self._exchanges.discard)
            return await asyncio.shield(exchange)
        finally:
            if exchange is None:  # never reached a worker: the client's count goes now
                self._release(client)

    async def _exchange(
        self, worker: _Worker, client: str, function: Callable[..., _T], args: tuple[Any, ...]
    ) -> _T:
        """Send the job, wait at most `seconds` for the answer (else kill the worker)."""
        try:
            job = pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL)
            worker.writer.write(_frame(job))
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for wraps the read in
                # a task of its own, one more turn of the loop before the answer is sent.
                async with asyncio.timeout(self.seconds):
                    ok, answer = pickle.loads(await _unframe(worker))
            except TimeoutError:
                worker.alive = False
                worker.process.kill()
                await asyncio.to_thread(worker.process.join, _STOP_GRACE)  # gone first
                raise TimedOut(f"no answer within {self.seconds:g} s") from None
            except (asyncio.IncompleteReadError, OSError) as exc:
                worker.alive = False
                raise WorkerError(f"the compute worker ended: {exc!r}") from None
            worker.tasks += 1
        finally:
            self._done(worker, client)
        if ok:
            return answer  # type: ignore[no-any-return]
        if isinstance(answer, BaseException):
            raise answer
        raise WorkerError(str(answer))

    def _done(self, worker: _Worker, client: str) -> None:
        """Once the worker is free: the client's allowance comes back, and the worker
        goes back to the idle queue (or is replaced)."""
        self._release(client)
        self._busy -= 1
        if self._closed:
            return
        if worker.alive and worker.tasks < self.max_tasks:
            assert self._idle is not None
            self._idle.put_nowait(worker)
        else:
            self._discard(worker)

    def _discard(self, worker: _Worker) -> None:
        """Let a worker go (it reads the end of its socket and leaves, or is reaped
        dead) and start its replacement."""
        worker.writer.close()
        self._all.discard(worker)
        self._keeper.submit(_retire, worker.process)
        self._keeper.submit(self._replace)

    def _release(self, client: str) -> None:
        self._clients[client] -= 1
        if self._clients[client] <= 0:
            del self._clients[client]

    def _replace(self) -> None:
        """In the keeper thread: start a worker, then have the loop enlist it."""
        loop = self._loop
        if self._closed or loop is None:
            return
        try:
            process, ours = self._start_process()
        except Exception:  # the computations wait; the next replacement tries again
            _log.exception("a compute worker could not be started")
            return
        try:
            asyncio.run_coroutine_threadsafe(self._enlist(process, ours), loop)
        except RuntimeError:  # the loop has closed: nobody waits
            process.kill()
            ours.close()

    def _start_process(self) -> tuple[BaseProcess, socket.socket]:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(self._preload)
        ours, theirs = socket.socketpair()
        connection = Connection(theirs.detach())
        process = context.Process(
            target=_serve, args=(connection,), name="arbiter-compute", daemon=True
        )
        try:
            process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            connection.close()
        return process, ours

    async def _enlist(self, process: BaseProcess, ours: socket.socket) -> None:
        """On the loop: the new worker's streams, and the worker into the idle queue."""
        reader, writer = await asyncio.open_connection(sock=ours)
        worker = _Worker(process, reader, writer)
        if self._closed or self._idle is None:
            writer.close()
            self._keeper.submit(_retire, process)
            return
        self._all.add(worker)
        self._idle.put_nowait(worker)

    async def stop(self) -> None:
        """End every worker at once (they keep nothing; a computation still running is
        killed and its caller gets `WorkerError`) and the keeper thread."""
        self._closed = True
        workers = list(self._all)
        self._all.clear()
        for worker in workers:
            worker.process.kill()
            worker.writer.close()
        await asyncio.gather(*self._exchanges, return_exceptions=True)
        await asyncio.to_thread(self._keeper.shutdown, wait=True, cancel_futures=True)
        await asyncio.to_thread(_reap, [worker.process for worker in workers])


def _frame(payload: bytes) -> bytes:
    """`payload` as `multiprocessing.connection.Connection.recv_bytes` reads it."""
    if len(payload) > 0x7FFFFFFF:
        return struct.pack("!iQ", -1, len(payload)) + payload
    return struct.pack("!i", len(payload)) + payload


async def _unframe(worker: _Worker) -> bytes:
    """One message as `Connection.send_bytes` writes it."""
    (size,) = struct.unpack("!i", await worker.reader.readexactly(4))
    if size == -1:
        (size,) = struct.unpack("!Q", await worker.reader.readexactly(8))
    return await worker.reader.readexactly(size)


def _retire(process: BaseProcess) -> None:
    """In the keeper thread: let a worker whose stream was closed end, else kill it."""
    process.join(_STOP_GRACE)
    if process.is_alive():
        process.kill()
        process.join(_STOP_GRACE)


def _reap(processes: list[BaseProcess]) -> None:
    for process in processes:
        process.join(_STOP_GRACE)


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
