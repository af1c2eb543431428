"""Group commit: result reports queued in a tournament's write queue commit together
(docs/decisions/group-commit.md).

Under the write queue (`app.write_queue`) the writers of a tournament run one at a time, so
their rate is one over the time each holds the head of the queue. A keyed report alone holds it for
seven round trips (begin, claim, the tournament locked as it loads, game, result,
answer, commit). The writer at the head of the queue therefore takes the writes queued right
behind it whose route declares that they may join a group (`write_access.joins_group`:
the result reports, the bulk of the writes in a running tournament; each checks
everything before it changes anything and then makes one change, so one refused report
in a group costs the others nothing), sent with an Idempotency-Key or without one
(`take_group`), and runs them in one transaction (`commit_group`):

1. one statement claims every key of the group (a key held by a committed request is
   left out: its write runs alone afterwards and replays; a report without a key
   claims none and stores no answer);
2. each report runs through the app in turn; the tournament is locked and reloaded
   once (`db.events.lock_and_reload`), and once the first report holds the lock, one
   statement reads the games of all the others (`app.report_result.preload_reports`);
3. one statement stores every answer; one commit; then each write's unit of work runs
   what it left for after the commit (`WriteContext.committed`).

Each report gets the answer it would get alone, in its turn. A refusal that changed
nothing (a 4xx from its checks) keeps its answer and the group goes on. A failure after
a write, an exception, or a group that cannot commit rolls the group back and splits it:
the reports before the failure commit as a group, the failed one runs alone, the rest
follow. So nothing of a failed report is stored and nothing of the others is lost.
"""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import event
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.idempotency_records import Answer, QueuedWrite, sealed
from service.app.report_result import preload_reports
from service.app.unit_of_work import WriteContext
from service.app.write_queue import QueueHold, Rider
from service.db.columns import may_write
from service.db.game_reads import discard_loaded
from service.db.idempotency import claim_all, discard_claims, store_answers
from service.db.session import SessionFactory, transaction_of

__all__ = ["GROUP_LIMIT", "GroupRunner", "commit_group", "take_group"]

GROUP_LIMIT = 32
"""Most writes committed together (a limit of 64 measured no faster)."""


class GroupRunner(Protocol):
    """What a group needs of the idempotency middleware."""

    async def alone(self, write: QueuedWrite) -> None:
        """Run one write in its own transaction and finish it."""

    async def call_app(
        self, write: QueuedWrite, session: AsyncSession
    ) -> tuple[Answer, WriteContext]:
        """Run one write through the app in `session`, without committing; its answer
        and its unit of work."""


def take_group(write: QueuedWrite, hold: QueueHold) -> list[QueuedWrite]:
    """`write`, which holds the head of its tournament's queue, and (when its route may
    join a group) the writes of that route queued right behind it, in arrival order: at most
    `GROUP_LIMIT` in all, stopping at the first write of another kind and at a retry of
    a key already in the group (that retry runs after the group has committed, and
    replays)."""
    group = [write]
    if not write.joins_group:
        return group
    lookups = set() if write.parts is None else {write.parts.lookup}

    def fresh(rider: Rider) -> bool:
        if not isinstance(rider, QueuedWrite) or rider.route is not write.route:
            return False
        if rider.parts is None:
            return True
        lookup = rider.parts.lookup
        if lookup in lookups:
            return False
        lookups.add(lookup)
        return True

    riders = hold.take_riders(GROUP_LIMIT - 1, fresh)
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
    answers: list[tuple[QueuedWrite, Answer, WriteContext]] = []
    async with sessions() as session:
        claimed = await claim_all(
            session, [(w.parts.lookup, w.request_hash) for w in group if w.parts is not None]
        )
        members = [write for write in group if write.parts is None or write.parts.lookup in claimed]
        writes = _WriteCounter(session, await session.connection())
        refused: list[str] = []
        preloaded = False
        for index, write in enumerate(members):
            if index and not preloaded:
                preloaded = await _preload(session, members[index:])
            before = writes.count
            try:
                answer, context = await runner.call_app(write, session)
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
            answers.append((write, answer, context))
        await store_answers(
            session,
            [sealed(w.parts, a) for w, a, _ in answers if w.parts is not None and a.status < 400],
        )
        if refused:
            await discard_claims(session, refused)
        await session.commit()
        for _write, answer, context in answers:
            answer.ready = await context.committed()
    for write, answer, _context in answers:
        write.answer = answer
        write.finished.set()
    for write in group:  # keys a committed request holds: each replays its answer
        if write.parts is not None and write.parts.lookup not in claimed:
            await runner.alone(write)
    return None


async def _preload(session: AsyncSession, writes: list[QueuedWrite]) -> bool:
    """Read the games the reports `writes` are about (a result report's path parameters
    name its tournament, round and table) in one statement, once the group's transaction
    holds the tournament's lock (`app.report_result.preload_reports`)."""
    places = [
        (int(round_number), int(table))
        for round_number, table in ((w.params["round_number"], w.params["table"]) for w in writes)
        if _number(round_number) and _number(table)
    ]  # a place that is no number is refused by its route (422) and reads nothing
    if not places:
        return False
    return await preload_reports(session, writes[0].params["tournament_id"], places)


def _number(text: str) -> bool:
    return text.isascii() and text.isdigit()


class _WriteCounter:
    """Counts the statements a session's connection sends that may change something (all
    but SELECT): how a group tells a refusal that changed nothing from one that did.
    Those SQLAlchemy runs are seen by its events, those run on the driver by the
    transaction's own tally (`TransactionState.driver_writes`)."""

    def __init__(self, session: AsyncSession, connection: Any) -> None:
        self._session = session
        self._executed = 0
        event.listen(connection.sync_connection, "before_cursor_execute", self._seen)

    @property
    def count(self) -> int:
        """Writes so far in the transaction (compare two readings)."""
        return self._executed + transaction_of(self._session).driver_writes

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if may_write(statement):
            self._executed += 1
