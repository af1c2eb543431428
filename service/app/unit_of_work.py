"""One write's unit of work (docs/architecture.md#a-write-from-request-to-commit-and-notify):
its session, the tournament it writes to, whether it may join a group commit, who
commits it, and what it leaves for after the commit.

A write runs in one transaction. Its workflow (`service.app`) stores rows and events in
`session`; whoever opened the context commits it once: the route (through the API's
`publish.commit_and_publish`) or, for a write sent with `Idempotency-Key` and for a
result report, the idempotency middleware, which commits the stored answer with the
write and maybe the reports of a group with it (`commits_later`). The announcements of
the write (the live bus, the live reader's new table) run only once the transaction has
committed, never for a rolled-back one (`after_commit`), and the answer waits for what
they ask it to (`hold_answer`: a start's first table), bounded by the caller.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

__all__ = ["AfterCommit", "WriteContext"]

AfterCommit = Callable[[], Awaitable[None]]
"""An action to run once the write has committed (a notification, a table to warm)."""
_log = logging.getLogger("arbiter.idempotency")
"""The logger of the idempotency middleware, which runs these actions."""


@dataclass(eq=False, slots=True)
class WriteContext:
    """One write request's unit of work."""

    session: AsyncSession
    """The transaction's session (shared by the writes of a group commit)."""
    queue_key: str | None = None
    """The tournament (or bridge event) written to, as its write queue names it
    (`write_queue.WriteQueues`): `tournaments/<id>`, `bridge/events/<id>`; None for a
    write to no existing one (a creation, an import)."""
    may_join_group: bool = False
    """Whether the write may commit in one transaction with the writes queued behind it
    (a result report: it checks everything before it changes anything)."""
    commits_later: bool = False
    """The idempotency middleware commits this transaction (with the stored answer);
    the route only flushes."""
    after_commit: list[AfterCommit] = field(default_factory=list)
    """What to run once committed, in order (`defer`)."""
    answer_waits: list[asyncio.Future[Any]] = field(default_factory=list)
    """What the answer waits for once committed (`hold_answer`)."""

    def defer(self, action: AfterCommit) -> None:
        """Run `action` once this write's transaction has committed."""
        self.after_commit.append(action)

    def hold_answer(self, ready: asyncio.Future[Any]) -> None:
        """Hold the answer of this write, once committed, until `ready` is done (bounded
        by the caller's `warm_wait_seconds`)."""
        self.answer_waits.append(ready)

    def take_answer_waits(self) -> list[asyncio.Future[Any]]:
        """What the answer is to wait for (`hold_answer`), taken from the context."""
        ready, self.answer_waits = self.answer_waits, []
        return ready

    async def committed(self) -> list[asyncio.Future[Any]]:
        """Run what the write left for after its commit (`defer`), each once, in order;
        returns what its answer is to wait for (`take_answer_waits`). A failing action is
        logged: a lost notification is repaired by the live reader's reread of the
        log."""
        actions, self.after_commit = self.after_commit, []
        for action in actions:
            try:
                await action()
            except Exception:
                _log.exception("after-commit action failed")
        return self.take_answer_waits()
