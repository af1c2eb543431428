"""The tournament rows that connecting spectators are checked against, read once for
all the spectators of a tournament who arrive together, so that 10,000 of them connect
in seconds (docs/decisions/shared-connect-reads.md).

A spectator's access is checked at connect against the tournament's row (visibility,
archival: `access.check_readable`). Read per connection, that row was the connect
phase's bound: 10,000 spectators arriving together queued for the readers' pool
(`read_pool_size`), each holding a connection for several round trips of the database
driver, about 550 connections a second on this machine, and the objects of the
thousands of handlers waiting meanwhile made one collection of 1 s in the middle of
the storm (`heap.SpectatorHeap`).

Shared reads keep the check as fresh as a read of its own: a spectator who arrives
while a read of its tournament runs does not take that read's answer (it may predate
the spectator's arrival) but waits for the next one, which starts as soon as the
running one ends and serves everyone who arrived meanwhile. So every spectator is
checked against a row read after it arrived, and a tournament costs at most one read
in flight however many arrive.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING

from service.futures import mark_retrieved

if TYPE_CHECKING:
    from service.db.tables import TournamentRow

__all__ = ["SharedRowReads"]

RowRead = Callable[[str], Coroutine[object, object, "TournamentRow | None"]]
"""One database read of a tournament's row (None: no such tournament)."""


class SharedRowReads:
    """One read in flight per tournament; spectators who arrive during it share the
    next one (see the module's docstring)."""

    def __init__(self, read: RowRead) -> None:
        self._read = read
        self._running: dict[str, asyncio.Task[TournamentRow | None]] = {}
        """The read under way of each tournament."""
        self._next: dict[str, asyncio.Future[TournamentRow | None]] = {}
        """The answer those who arrived during it wait for: the read after it."""
        self.reads = 0
        """Database reads made (for tests and figures)."""

    async def row(self, tournament_id: str) -> TournamentRow | None:
        """The tournament's row as read after this call began (None: no such
        tournament); the read's error, if it failed."""
        answer: asyncio.Future[TournamentRow | None]
        if tournament_id not in self._running:
            answer = self._start(tournament_id)
        elif tournament_id in self._next:
            answer = self._next[tournament_id]
        else:
            answer = self._next[tournament_id] = asyncio.get_running_loop().create_future()
            answer.add_done_callback(mark_retrieved)
        return await asyncio.shield(answer)  # a spectator who leaves cancels only its wait

    def _start(self, tournament_id: str) -> asyncio.Task[TournamentRow | None]:
        self.reads += 1
        task = asyncio.get_running_loop().create_task(self._read(tournament_id))
        task.add_done_callback(mark_retrieved)
        task.add_done_callback(lambda _: self._ended(tournament_id))
        self._running[tournament_id] = task
        return task

    def _ended(self, tournament_id: str) -> None:
        """A read ended: those who arrived during it get the next one."""
        del self._running[tournament_id]
        following = self._next.pop(tournament_id, None)
        if following is None:
            return
        self._start(tournament_id).add_done_callback(lambda read: _settle(following, read))


def _settle(
    waiting: asyncio.Future[TournamentRow | None], read: asyncio.Task[TournamentRow | None]
) -> None:
    """Hand a read's outcome to the future its sharers wait on."""
    if read.cancelled():
        waiting.cancel()
    elif (error := read.exception()) is not None:
        waiting.set_exception(error)
    else:
        waiting.set_result(read.result())
