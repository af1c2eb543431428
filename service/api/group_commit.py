"""Group commit: result reports queued at a tournament's gate commit together
(docs/decisions/group-commit.md).

Under the gate (`app.write_gate`) the writers of a tournament run one at a time, so
their rate is one over the time each holds the gate. A keyed report alone holds it for
seven round trips (begin, claim, the tournament locked as it loads, game, result,
answer, commit). The writer that gets the gate therefore takes the result reports
queued right behind it (`take_group`), sent with an Idempotency-Key or without one, and
runs them in one transaction (`commit_group`):

1. one statement claims every key of the group (a key held by a committed request is
   left out: its write runs alone afterwards and replays; a report without a key
   claims none and stores no answer);
2. each report runs through the app in turn; the tournament is locked and reloaded
   once (`db.events.lock_and_reload`), and once the first report holds the lock, one
   statement reads the games of all the others (`app.report_result.preload_reports`);
3. one statement stores every answer; one commit.

Each report gets the answer it would get alone, in its turn. A refusal that changed
nothing (a 4xx from its checks) keeps its answer and the group goes on. A failure after
a write, an exception, or a group that cannot commit rolls the group back and splits it:
the reports before the failure commit as a group, the failed one runs alone, the rest
follow. So nothing of a failed report is stored and nothing of the others is lost.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from sqlalchemy import event
from sqlmodel.ext.asyncio.session import AsyncSession
from starlette.types import Scope

from service.api.idempotency_records import (
    Answer,
    QueuedWrite,
    claim_all,
    discard_claims,
    run_after_commit,
    store_answers,
)
from service.app.report_result import preload_reports
from service.app.write_gate import GatePass, Rider
from service.db.columns import DRIVER_WRITES, may_write
from service.db.repository import discard_loaded
from service.db.session import SessionFactory

__all__ = ["GROUP_LIMIT", "GroupRunner", "commit_group", "groupable", "take_group"]

GROUP_LIMIT = 32
"""Most writes committed together (a limit of 64 measured no faster)."""
_GROUPABLE = re.compile(
    r"/v1/tournaments/(?P<tournament>[^/]+)/rounds/(?P<round>\d+)/games/(?P<table>\d+)/result"
)
"""Writes that may join a group: result reports, the bulk of the writes in a running
tournament. Each checks everything before it changes anything and then makes one
change, so one refused report in a group costs the others nothing. Other writes (a
pairing, a registration) commit alone, in their turn."""


class GroupRunner(Protocol):
    """What a group needs of the idempotency middleware."""

    async def alone(self, write: QueuedWrite) -> None:
        """Run one write in its own transaction and finish it."""

    async def call_app(self, write: QueuedWrite, session: AsyncSession) -> Answer:
        """Run one write through the app in `session`, without committing."""


def groupable(scope: Scope) -> bool:
    """Whether a request is a result report, which may commit in a group."""
    return scope["method"] == "PUT" and _GROUPABLE.fullmatch(scope["path"]) is not None


def take_group(write: QueuedWrite, passage: GatePass) -> list[QueuedWrite]:
    """`write`, which holds its tournament's gate, and (when it is a result report) the
    reports queued right behind it, in arrival order: at most `GROUP_LIMIT` in all,
    stopping at the first write of another kind and at a retry of a key already in the
    group (that retry runs after the group has committed, and replays)."""
    group = [write]
    if not groupable(write.scope):
        return group
    lookups = set() if write.parts is None else {write.parts.lookup}

    def fresh(rider: Rider) -> bool:
        if not isinstance(rider, QueuedWrite):
            return False
        if rider.parts is None:
            return True
        lookup = rider.parts.lookup
        if lookup in lookups:
            return False
        lookups.add(lookup)
        return True

    riders = passage.take_riders(GROUP_LIMIT - 1, fresh)
    return group + [rider for rider in riders if isinstance(rider, QueuedWrite)]


async def commit_group(
    group: list[QueuedWrite], sessions: SessionFactory, runner: GroupRunner
) -> None:
    """Commit `group` in one transaction; where one of them fails after writing, or the
    group cannot commit, split it so each write gets the answer it would get alone, in
    arrival order. Every write of the group is finished on return."""
    if len(group) == 1:
        await runner.alone(group[0])
        return
    try:
        failed = await _try_group(group, sessions, runner)
    except Exception:  # the group as a whole could not commit: each on its own
        for write in group:
            await runner.alone(write)
        return
    if failed is None:
        return
    if failed:
        await commit_group(group[:failed], sessions, runner)
    await runner.alone(group[failed])
    if failed + 1 < len(group):
        await commit_group(group[failed + 1 :], sessions, runner)


async def _try_group(
    group: list[QueuedWrite], sessions: SessionFactory, runner: GroupRunner
) -> int | None:
    """One transaction for the whole group. Returns None once committed (every write
    finished), or the index of the first write that failed after changing something
    (everything rolled back, none finished)."""
    answers: list[tuple[QueuedWrite, Answer]] = []
    async with sessions() as session:
        claimed = await claim_all(session, group)
        members = [write for write in group if write.parts is None or write.parts.lookup in claimed]
        writes = _WriteCounter(await session.connection())
        refused: list[str] = []
        preloaded = False
        for index, write in enumerate(members):
            if index and not preloaded:
                preloaded = await _preload(session, members[index:])
            before = writes.count
            try:
                answer = await runner.call_app(write, session)
                if answer.status < 400:
                    await session.flush()
            except Exception:
                await session.rollback()
                return group.index(write)
            if answer.status >= 400:
                if writes.count != before:
                    await session.rollback()
                    return group.index(write)
                discard_loaded(session)  # what its checks loaded or touched, unstored
                preloaded = False
                if write.parts is not None:
                    refused.append(write.parts.lookup)
            answers.append((write, answer))
        await store_answers(
            session, [(w.parts, a) for w, a in answers if w.parts is not None and a.status < 400]
        )
        if refused:
            await discard_claims(session, refused)
        await session.commit()
        ready = await run_after_commit(session)
    for write, answer in answers:
        answer.ready = ready
        write.answer = answer
        write.finished.set()
    for write in group:  # keys a committed request holds: each replays its answer
        if write.parts is not None and write.parts.lookup not in claimed:
            await runner.alone(write)
    return None


async def _preload(session: AsyncSession, writes: list[QueuedWrite]) -> bool:
    """Read the games the reports `writes` are about in one statement, once the group's
    transaction holds the tournament's lock (`app.report_result.preload_reports`)."""
    places = [_GROUPABLE.fullmatch(write.scope["path"]) for write in writes]
    found = [match for match in places if match is not None]
    if not found:
        return False
    return await preload_reports(
        session,
        found[0]["tournament"],
        [(int(match["round"]), int(match["table"])) for match in found],
    )


class _WriteCounter:
    """Counts the statements a connection sends that may change something (all but
    SELECT): how a group tells a refusal that changed nothing from one that did. Those
    SQLAlchemy runs are seen by its events, those run on the driver by the connection's
    own tally (`db.columns.DRIVER_WRITES`)."""

    def __init__(self, connection: Any) -> None:
        self._info = connection.info
        self._executed = 0
        event.listen(connection.sync_connection, "before_cursor_execute", self._seen)

    @property
    def count(self) -> int:
        """Writes so far (compare two readings: the driver's tally outlives a checkout)."""
        return self._executed + int(self._info.get(DRIVER_WRITES, 0))

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if may_write(statement):
            self._executed += 1
