"""The records behind `Idempotency-Key` in storage (`api.idempotency`): a key claimed in
the write's own transaction, the answer stored with the write, a record found, dropped
or purged once expired.

A record is found by its lookup digest (the API's `RequestParts.lookup`) and keeps the
digest of the whole request it answered and its answer, sealed by the API (these
statements never see a token or a plain body).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, insert, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.failures import is_lock_timeout
from service.db.session import SessionFactory
from service.db.tables import IdempotencyRow, utcnow

__all__ = [
    "InFlight",
    "SealedAnswer",
    "claim",
    "claim_all",
    "discard_claims",
    "drop_record",
    "find_record",
    "is_fresh",
    "purge_expired",
    "store_answers",
]


class InFlight(Exception):
    """The first request with this key held it longer than `lock_wait_seconds`."""


@dataclass(frozen=True, slots=True)
class SealedAnswer:
    """A claimed record's answer as stored: status, the headers kept, the sealed body."""

    lookup: str
    status_code: int
    headers: list[tuple[str, str]]
    body: str


async def claim(session: AsyncSession, lookup: str, request_hash: str) -> bool:
    """Insert the record (uncommitted) as the transaction's first write; False when a
    committed record with this key exists (after waiting for its transaction, at most
    `lock_wait_seconds` on PostgreSQL: the engine's `lock_timeout`)."""
    try:
        await session.exec(_CLAIM, params=_claim_params(lookup, request_hash, utcnow()))
    except IntegrityError:
        await session.rollback()
        return False
    except DBAPIError as exc:
        if is_lock_timeout(exc):
            await session.rollback()
            raise InFlight from exc
        raise
    return True


async def claim_all(session: AsyncSession, keyed: Sequence[tuple[str, str]]) -> set[str]:
    """Claim the keys of a group, (lookup, request digest) each, in one statement; returns
    the lookups claimed. A key left out is held by a committed request (or by one still
    running elsewhere, waited for as `claim` waits). Keys are inserted in one order
    everywhere (sorted), so two groups in two processes that share keys (a phone
    retrying through another replica) wait for each other, never both."""
    if not keyed:
        return set()
    now = utcnow()
    rows = [_claim_params(lookup, request_hash, now) for lookup, request_hash in sorted(keyed)]
    statement = _CLAIM_ALL[session.get_bind().dialect.name]
    return {row[0] for row in await session.exec(statement, params=rows)}


async def discard_claims(session: AsyncSession, lookups: list[str]) -> None:
    """Delete claims whose writes were refused: nothing is stored for them."""
    await session.exec(delete(_RECORDS).where(_RECORDS.c.key.in_(lookups)))


async def store_answers(session: AsyncSession, answers: Sequence[SealedAnswer]) -> None:
    """Store each claimed record's answer, in the transaction of the write it answers
    (one statement, however many)."""
    params = [_finish_params(answer) for answer in answers]
    if params:
        await session.exec(_FINISH, params=params[0] if len(params) == 1 else params)


async def find_record(session: AsyncSession, lookup: str) -> IdempotencyRow | None:
    """The record of a key, if any."""
    return await session.get(IdempotencyRow, lookup)


async def drop_record(session: AsyncSession, row: IdempotencyRow) -> None:
    """Delete a record that holds no answer to replay (expired, or left in flight by an
    older version), in the caller's transaction."""
    await session.delete(row)


def is_fresh(row: IdempotencyRow, ttl: timedelta) -> bool:
    """Whether a record holds a finished answer that has not expired."""
    created: datetime = row.created_at
    if created.tzinfo is None:  # SQLite drops the zone; stored values are UTC
        created = created.replace(tzinfo=UTC)
    return row.state == "done" and utcnow() - created <= ttl


async def purge_expired(sessions: SessionFactory, ttl: timedelta) -> int:
    """Delete records older than `ttl`; returns how many."""
    async with sessions() as session:
        statement = delete(IdempotencyRow).where(col(IdempotencyRow.created_at) < utcnow() - ttl)
        result = await session.exec(statement)
        await session.commit()
        return int(result.rowcount or 0)


def _claim_params(lookup: str, request_hash: str, now: datetime) -> dict[str, Any]:
    return {
        "key": lookup,
        "request_hash": request_hash,
        "state": "in-flight",
        "headers": {},
        "created_at": now,
    }


def _finish_params(answer: SealedAnswer) -> dict[str, Any]:
    return {
        "lookup": answer.lookup,
        "status_code": answer.status_code,
        "headers": {"list": answer.headers},
        "body": answer.body,
    }


_RECORDS = IdempotencyRow.__table__  # type: ignore[attr-defined]
_CLAIM = insert(_RECORDS)
"""The claim, as a plain statement: the write path runs it for every keyed request, and
an ORM object and its flush would cost more than the statement itself."""
_CLAIM_ALL = {
    dialect.dialect.name: dialect.insert(_RECORDS)
    .on_conflict_do_nothing(index_elements=["key"])
    .returning(_RECORDS.c.key)
    for dialect in (postgresql, sqlite)
}
"""A group's claims, by dialect: one statement given a row of parameters per key (the
driver sends them as one multi-row insert). The rows are parameters, not part of the
statement, so it is compiled once; with the rows in the statement (`values(rows)`) it
could not be cached and was compiled again for every group (about 4 % of the API
process's time under bench_writes.py)."""
_FINISH = (
    update(_RECORDS)
    .where(_RECORDS.c.key == bindparam("lookup"))
    .values(
        state="done",
        status_code=bindparam("status_code"),
        headers=bindparam("headers"),
        body=bindparam("body"),
    )
)
"""The stored response, written in the transaction of the write it answers."""
