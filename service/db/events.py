"""The per-tournament event log: every standings-changing write appends an event.

Sequence numbers come from `tournaments.last_seq`, bumped with an atomic UPDATE in the
writer's transaction, so they are gapless per tournament on SQLite and PostgreSQL and
two writers can never take the same number.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, text, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.event_types import Event, encode
from service.db.session import transaction_of
from service.db.tables import EventRow, TournamentRow, utcnow

__all__ = [
    "CHANNEL",
    "EVENT_BINDS",
    "NUMBER_AND_STORE_EVENT",
    "STANDINGS_EVENTS",
    "TABLES_CHANNEL",
    "append_event",
    "appended_seq",
    "event_params",
    "events_since",
    "holds_lock",
    "keep_appended",
    "load_locked",
    "lock_and_reload",
    "lock_tournament",
]

STANDINGS_EVENTS = frozenset(
    {
        "tournament_started",
        "result_confirmed",
        "result_corrected",
        "round_paired",
        "round_repaired",
        "round_unpaired",
        "imported",
        "settings_changed",
    }
)
"""Event types after which the standings may differ."""


CHANNEL = "arbiter_events"
"""The PostgreSQL channel that announces new events (payload `tournament id:seq`)."""

TABLES_CHANNEL = "arbiter_tables"
"""The PostgreSQL channel that announces a write which changed more than results (a
start, a pairing: payload `origin:tournament id:seq`, `origin` naming the announcing
process), so that the other replicas that follow the tournament compute the new table
before their next read of it."""


async def lock_tournament(session: AsyncSession, tournament_id: str) -> None:
    """Serialise writers of one tournament for the rest of the transaction.

    A no-op UPDATE row-locks the tournament on PostgreSQL and takes SQLite's write lock,
    so read-modify-write sequences (two players reporting one game) cannot interleave.
    """
    await session.exec(  # type: ignore[call-overload]
        text("UPDATE tournaments SET last_seq = last_seq WHERE id = :id"),
        params={"id": tournament_id},
    )


_LOCKED_COLUMNS = ("status", "current_round", "total_rounds", "last_seq")


async def load_locked(session: AsyncSession, tournament_id: str) -> TournamentRow | None:
    """The tournament (None when there is none), locked for the rest of the transaction
    as it is loaded: the load of the request's tournament and `lock_and_reload` in one
    statement, for a write that locks it anyway (a result report), one round trip less
    than loading it first and locking it after. Later calls in the same transaction (the
    next reports of a group committed together) read the row this one locked."""
    reloaded = transaction_of(session).locked
    held = reloaded.get(tournament_id)
    if held is not None:
        return held
    statement = (
        update(TournamentRow)
        .where(col(TournamentRow.id) == tournament_id)
        .values(last_seq=TournamentRow.last_seq)
        .returning(TournamentRow)
        .execution_options(populate_existing=True, synchronize_session=False)
    )
    row = (await session.exec(statement)).scalars().one_or_none()
    if row is not None:
        reloaded[tournament_id] = row
    return row


def holds_lock(session: AsyncSession, tournament_id: str) -> bool:
    """Whether this transaction has locked the tournament (`lock_and_reload`, or
    `load_locked` as it loaded it)."""
    return tournament_id in transaction_of(session).locked


async def lock_and_reload(session: AsyncSession, tournament: TournamentRow) -> None:
    """`lock_tournament`, and the round state as it stands once the lock is held
    (status, current round, total rounds, last seq), in the same round trip.

    Once per transaction: a second call (the next result of a group committed together,
    `api.group_commit`) finds the lock held and the row as this transaction left it (or,
    had the session let it go, loaded again under the lock)."""
    reloaded = transaction_of(session).locked
    if tournament.id in reloaded:
        reloaded[tournament.id] = tournament
        return
    result = await session.exec(  # type: ignore[call-overload]
        text(
            "UPDATE tournaments SET last_seq = last_seq WHERE id = :id RETURNING "
            + ", ".join(_LOCKED_COLUMNS)
        ),
        params={"id": tournament.id},
    )
    row = result.one()
    for name, value in zip(_LOCKED_COLUMNS, row, strict=True):
        set_committed_value(tournament, name, value)
    reloaded[tournament.id] = tournament


async def append_event(session: AsyncSession, tournament_id: str, event: Event) -> int:
    """Add an event in the caller's transaction; returns its sequence number.

    On PostgreSQL one statement numbers the event, stores it and queues its NOTIFY
    (delivered at commit, never for a rolled-back write): one round trip while the
    tournament is locked.
    """
    if session.get_bind().dialect.name == "postgresql":
        result = await session.exec(  # type: ignore[call-overload]
            _NUMBER_STORE_AND_NOTIFY, params=event_params(tournament_id, event)
        )
        return keep_appended(session, tournament_id, int(result.scalar_one()))
    event_type, payload = encode(event)
    result = await session.exec(  # type: ignore[call-overload]
        text("UPDATE tournaments SET last_seq = last_seq + 1 WHERE id = :id RETURNING last_seq"),
        params={"id": tournament_id},
    )
    seq = int(result.scalar_one())
    session.add(EventRow(tournament_id=tournament_id, seq=seq, type=event_type, payload=payload))
    return keep_appended(session, tournament_id, seq)


def keep_appended(session: AsyncSession, tournament_id: str, seq: int) -> int:
    """Keep `seq` as the tournament's newest event appended in this transaction
    (`TransactionState.appended`), so that nothing reads it back before announcing it;
    returns it."""
    transaction_of(session).appended[tournament_id] = seq
    return seq


def appended_seq(session: AsyncSession, tournament_id: str) -> int | None:
    """The seq of the tournament's newest event appended in this transaction, if any."""
    return transaction_of(session).appended.get(tournament_id)


def event_params(tournament_id: str, event: Event) -> dict[str, Any]:
    """The parameters of `NUMBER_AND_STORE_EVENT` for one event."""
    event_type, payload = encode(event)
    return {
        "tournament": tournament_id,
        "channel": CHANNEL,
        "type": event_type,
        "payload": payload,
        "created_at": utcnow(),
    }


_EVENT_COLUMNS = EventRow.__table__.c  # type: ignore[attr-defined]
NUMBER_AND_STORE_EVENT = (
    "numbered AS ("
    "UPDATE tournaments SET last_seq = last_seq + 1 WHERE id = :tournament "
    "RETURNING id, last_seq, pg_notify(:channel, id || ':' || last_seq)), "
    "stored AS ("
    "INSERT INTO events (tournament_id, seq, type, payload, created_at) "
    "SELECT id, last_seq, :type, :payload, :created_at FROM numbered RETURNING seq)"
)
"""PostgreSQL: two common table expressions that take the next seq, queue its NOTIFY
(sent at commit) and store the event (`stored` returns its seq); parameters from
`event_params`, bound with `EVENT_BINDS`."""
EVENT_BINDS = (
    bindparam("payload", type_=_EVENT_COLUMNS.payload.type),
    bindparam("created_at", type_=_EVENT_COLUMNS.created_at.type),
)
"""The typed parameters of `NUMBER_AND_STORE_EVENT`."""
_NUMBER_STORE_AND_NOTIFY = text(f"WITH {NUMBER_AND_STORE_EVENT} SELECT seq FROM stored").bindparams(
    *EVENT_BINDS
)
"""PostgreSQL: the next seq, the event row and its NOTIFY in one statement, one round
trip while the tournament is locked."""


async def events_since(
    session: AsyncSession, tournament_id: str, since: int, limit: int = 10_000
) -> list[EventRow]:
    """Events with `seq > since`, oldest first."""
    statement = (
        select(EventRow)
        .where(EventRow.tournament_id == tournament_id, col(EventRow.seq) > since)
        .order_by(col(EventRow.seq))
        .limit(limit)
    )
    return list((await session.exec(statement)).all())
