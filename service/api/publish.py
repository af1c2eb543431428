"""Commit a write and announce its events to live listeners (docs/live.md#how-it-is-served).

PostgreSQL: `SELECT pg_notify(channel, '<tournament>:<seq>')` runs in the writer's own
session, inside the write's transaction, so the notification is delivered exactly when
the write commits and never for a rolled-back one; no connection is shared between
requests (a shared asyncpg connection once made committed writes answer 500). Every
replica, this one included, hears it through its LISTEN.

SQLite (one process): the in-process bus is told after the commit. So is a Redis bus
(`ARBITER_BUS_URL`, `service.live.redis_bus`), on either database: it cannot take part in
the transaction (on PostgreSQL the event's NOTIFY is still queued by `append_event`,
unheard).

A write whose unit of work the idempotency middleware owns (`WriteContext.commits_later`:
sent with `Idempotency-Key`, or a result report) is committed there with its stored
response; here it is only flushed, and the announcements wait for that commit
(`WriteContext.defer`).
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.idempotency_records import wait_ready
from service.api.state import AppState
from service.app.unit_of_work import WriteContext
from service.db.events import CHANNEL, TABLES_CHANNEL, appended_seq
from service.db.loading import Schedule
from service.db.tables import TournamentRow

__all__ = ["commit_and_publish", "notify_in_transaction"]


_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


async def _notify(session: AsyncSession, channel: str, payload: str) -> None:
    """Queue a NOTIFY in the session's transaction (PostgreSQL: sent at commit)."""
    await session.exec(  # type: ignore[call-overload]
        _NOTIFY, params={"channel": channel, "payload": payload}
    )


async def notify_in_transaction(session: AsyncSession, tournament_id: str) -> int:
    """Queue the NOTIFY for the tournament's newest event in this transaction (PostgreSQL
    only); returns that sequence number. Nothing to read or queue when `append_event`
    appended it in this transaction: it keeps the seq it took, and on PostgreSQL its
    statement queued the NOTIFY too."""
    known = appended_seq(session, tournament_id)
    if known is not None:
        return known
    result = await session.exec(  # type: ignore[call-overload]
        text("SELECT last_seq FROM tournaments WHERE id = :id"), params={"id": tournament_id}
    )
    seq = int(result.scalar_one())
    if session.get_bind().dialect.name == "postgresql":
        await _notify(session, CHANNEL, f"{tournament_id}:{seq}")
    return seq


async def commit_and_publish(
    context: WriteContext,
    state: AppState,
    tournament: TournamentRow,
    *,
    warm: bool = False,
    schedule: Schedule | None = None,
) -> None:
    """Notify inside the transaction, then commit the write's unit of work (or leave the
    commit to the idempotency middleware that owns it). With `warm` (a write that changes
    more than results: a start, a pairing), the live reader is also asked to compute
    the new table once committed (`Hub.warm`), from `schedule` when the write stored
    every round there is (a start of a round-robin or FLAMPARK), and the answer waits
    for that table (at most `warm_wait_seconds`), so that the spectators who come with
    the first round find it computed; the next writer of the tournament is let in meanwhile.
    On PostgreSQL the other replicas are told in the same transaction (the bus's table
    channel), and those that follow the tournament compute that table too."""
    session = context.session
    await session.flush()
    seq = await notify_in_transaction(session, tournament.id)
    set_committed_value(tournament, "last_seq", seq)
    bus = state.bus
    in_transaction = not bus.announces_after_commit
    if warm and in_transaction:
        await _notify(session, TABLES_CHANNEL, f"{bus.origin}:{tournament.id}:{seq}")
    tournament_id = tournament.id

    hub = state.hub if warm else None

    async def announce() -> None:
        if not in_transaction:
            await bus.publish(tournament_id, seq)
            if warm:
                await bus.publish_table(tournament_id, seq)
        if hub is not None:
            context.hold_answer(hub.warm(tournament_id, seq, schedule))

    if context.commits_later:
        context.defer(announce)  # the middleware holds the answer (`hold_answer`)
        return
    await session.commit()
    await announce()
    await wait_ready(context.take_answer_waits(), state.settings.warm_wait_seconds)
