"""The records behind `Idempotency-Key` (`api.idempotency`): whose a record is, the
answer it keeps (sealed), claiming keys and storing answers in the write's own
transaction, replaying, and purging expired records.

Entitlement: a record is found by a digest of method, path, the whole `Authorization`
header and the key, so only the caller holding the same token finds it (and a replay
is then checked as the route would check that token today: `api.write_access`). Stored
bodies hold tokens, so they are encrypted (AES-256-GCM) with a key derived (HKDF) from
the same parts: whoever reads the table learns nothing without the original request.

Fingerprint: a record keeps a digest of the whole request it answered (method, path,
query string, content type and body, `fingerprint`); the same key with any other
request is refused (422), never answered with the first request's response.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy import bindparam, delete, insert, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession
from starlette.types import Message, Scope, Send

from service.api.errors import PROBLEM_MEDIA_TYPE, is_lock_timeout, problem_headers
from service.app.write_gate import Rider
from service.db.session import SessionFactory
from service.db.tables import IdempotencyRow, utcnow
from service.errors import Conflict, InvalidInput, Problem

__all__ = [
    "Answer",
    "InFlight",
    "QueuedWrite",
    "RequestParts",
    "after_commit",
    "answer_after",
    "answer_existing",
    "answer_waits",
    "claim",
    "claim_all",
    "discard_claims",
    "fingerprint",
    "in_flight",
    "is_fresh",
    "purge_expired",
    "run_after_commit",
    "run_purger",
    "send_problem",
    "store_answers",
    "wait_ready",
]

_KEEP_HEADERS = frozenset({b"content-type", b"location"})
_AFTER_COMMIT = "arbiter.after_commit"
_ANSWER_AFTER = "arbiter.answer_after"
_log = logging.getLogger("arbiter.idempotency")


class RequestParts:
    """The request parts a record belongs to: lookup digest and body cipher key."""

    def __init__(self, method: str, path: str, authorization: str, key: str) -> None:
        material = "\x1f".join((method, path, authorization, key)).encode()
        self.lookup = hashlib.sha256(b"arbiter/idempotency/lookup\x1f" + material).hexdigest()
        self._cipher = AESGCM(
            HKDF(
                algorithm=hashes.SHA256(), length=32, salt=None, info=b"arbiter/idempotency/body"
            ).derive(material)
        )

    def seal(self, body: bytes) -> str:
        """Encrypt a response body, bound to this record."""
        nonce = os.urandom(12)
        sealed = self._cipher.encrypt(nonce, body, self.lookup.encode())
        return base64.b64encode(nonce + sealed).decode()

    def open(self, stored: str) -> bytes:
        """Decrypt a stored body."""
        raw = base64.b64decode(stored)
        return self._cipher.decrypt(raw[:12], raw[12:], self.lookup.encode())


class Answer:
    """The app's response, held back until the transaction has committed."""

    def __init__(self) -> None:
        self.start: Message | None = None
        self.body = bytearray()
        self.ready: list[asyncio.Future[Any]] = []
        """What the answer waits for once committed (`answer_after`)."""

    async def send(self, message: Message) -> None:
        """The ASGI `send` the app is given."""
        if message["type"] == "http.response.start":
            self.start = message
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")

    @property
    def status(self) -> int:
        """The response's status (500 if the app sent none)."""
        return int(self.start["status"]) if self.start else 500

    async def deliver(self, send: Send) -> None:
        """Send the held response to the client."""
        assert self.start is not None
        await send(self.start)
        await send({"type": "http.response.body", "body": bytes(self.body)})


def fingerprint(scope: Scope, body: bytes) -> str:
    """The digest of a request as a record keeps it: method, path, query string,
    content type and body, each length-prefixed (so no two requests share one)."""
    content_type = next((v for k, v in scope["headers"] if k == b"content-type"), b"")
    digest = hashlib.sha256()
    for part in (
        scope["method"].encode(),
        scope["path"].encode(),
        scope.get("query_string", b""),
        content_type,
        body,
    ):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


class QueuedWrite(Rider):
    """A write the idempotency middleware runs: any write sent with `Idempotency-Key`
    (`parts` names its record) and a result report without one (`parts` None); once
    finished, its answer or the error it failed with. The holder of its tournament's
    gate may take it into a group (`api.group_commit`)."""

    def __init__(self, scope: Scope, parts: RequestParts | None, body: bytes) -> None:
        super().__init__()
        self.scope = scope
        self.parts = parts
        self.request_hash = "" if parts is None else fingerprint(scope, body)
        self.body = body
        self.answer = Answer()
        self.error: Exception | None = None


def after_commit(session: AsyncSession, action: Callable[[], Awaitable[None]]) -> None:
    """Run `action` once the middleware has committed this session's transaction."""
    session.info.setdefault(_AFTER_COMMIT, []).append(action)


async def run_after_commit(session: AsyncSession) -> list[asyncio.Future[Any]]:
    """Run what the committed transaction's writes left for after it (`after_commit`);
    returns what their answers are to wait for (`answer_after`)."""
    for action in session.info.pop(_AFTER_COMMIT, []):
        try:
            await action()
        except Exception:  # a lost notification is repaired by the log reread
            _log.exception("after-commit action failed")
    return answer_waits(session)


def answer_after(session: AsyncSession, ready: asyncio.Future[Any]) -> None:
    """Hold the answer of this session's committed write until `ready` is done, bounded
    by `wait_ready` (a start's answer waits for the live reader's first table)."""
    session.info.setdefault(_ANSWER_AFTER, []).append(ready)


def answer_waits(session: AsyncSession) -> list[asyncio.Future[Any]]:
    """What the answer of this session's committed write is to wait for (`answer_after`),
    taken from the session."""
    ready: list[asyncio.Future[Any]] = session.info.pop(_ANSWER_AFTER, [])
    return ready


async def wait_ready(ready: list[asyncio.Future[Any]], seconds: float) -> None:
    """Wait for `ready` to be done, at most `seconds`; nothing is cancelled, and how
    each ends is its own affair (the write has committed whatever happens here)."""
    if ready and seconds > 0:
        await asyncio.wait(ready, timeout=seconds)


class InFlight(Exception):
    """The first request with this key held it longer than `lock_wait_seconds`."""


def in_flight() -> Conflict:
    """The answer to a retry whose first request still holds the key."""
    return Conflict(
        "a request with this Idempotency-Key is still being processed; retry later",
        field="Idempotency-Key",
    )


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


async def claim_all(session: AsyncSession, writes: list[QueuedWrite]) -> set[str]:
    """Claim the keys of a group in one statement (writes without a key claim none);
    returns the lookups claimed. A key left out is held by a committed request (or by
    one still running elsewhere, waited for as `claim` waits): its write runs alone
    after the group and replays. Keys are inserted in one order everywhere (sorted), so
    two groups in two processes that share keys (a phone retrying through another
    replica) wait for each other, never both."""
    now = utcnow()
    keyed = sorted((write.parts.lookup, write.request_hash) for write in writes if write.parts)
    if not keyed:
        return set()
    rows = [_claim_params(lookup, request_hash, now) for lookup, request_hash in keyed]
    statement = _CLAIM_ALL[session.get_bind().dialect.name]
    return {row[0] for row in await session.exec(statement, params=rows)}


async def discard_claims(session: AsyncSession, lookups: list[str]) -> None:
    """Delete claims whose writes were refused: nothing is stored for them."""
    await session.exec(delete(_RECORDS).where(_RECORDS.c.key.in_(lookups)))


async def store_answers(session: AsyncSession, answered: list[tuple[RequestParts, Answer]]) -> None:
    """Store each claimed record's answer, in the transaction of the write it answers
    (one statement, however many)."""
    params = [_finish_params(parts, answer) for parts, answer in answered]
    if params:
        await session.exec(_FINISH, params=params[0] if len(params) == 1 else params)


def is_fresh(row: IdempotencyRow, ttl: timedelta) -> bool:
    """Whether a record holds a finished answer that has not expired."""
    created: datetime = row.created_at
    if created.tzinfo is None:  # SQLite drops the zone; stored values are UTC
        created = created.replace(tzinfo=UTC)
    return row.state == "done" and utcnow() - created <= ttl


async def answer_existing(
    send: Send, row: IdempotencyRow, parts: RequestParts, request_hash: str, path: str
) -> None:
    """Replay a record's answer (`Idempotent-Replayed: true`), or 422 when the key came
    with another request (`fingerprint`: another body, query string or content type)."""
    if row.request_hash != request_hash:
        await send_problem(
            send,
            InvalidInput(
                "this Idempotency-Key was used with a different request (body, query "
                "string or content type)",
                field="Idempotency-Key",
            ),
            path,
        )
        return
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in row.headers.get("list", [])]
    headers.append((b"idempotent-replayed", b"true"))
    body = parts.open(row.body or "")
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": row.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def send_problem(
    send: Send, problem: Problem, instance: str, *, retry_after: int | None = None
) -> None:
    """Answer with a problem document straight from ASGI middleware: the same document
    and headers as a route's (`errors.problem_response`), `instance` the request's
    path (RFC 9457 section 3.1.5)."""
    body = json.dumps(problem.body(instance)).encode()
    headers = [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
        (b"content-length", str(len(body)).encode()),
    ]
    headers += [
        (name.lower().encode(), value.encode())
        for name, value in problem_headers(problem, retry_after).items()
    ]
    await send({"type": "http.response.start", "status": problem.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def purge_expired(sessions: SessionFactory, ttl: timedelta) -> int:
    """Delete records older than `ttl`; returns how many."""
    async with sessions() as session:
        statement = delete(IdempotencyRow).where(col(IdempotencyRow.created_at) < utcnow() - ttl)
        result = await session.exec(statement)
        await session.commit()
        return int(result.rowcount or 0)


async def run_purger(
    sessions: SessionFactory, ttl: timedelta, every_seconds: float, stop: asyncio.Event
) -> None:
    """The lifespan's background task: purge, wait, repeat; errors are logged. It ends
    when `stop` is set, between purges, never in the middle of one: a purge cancelled
    mid-statement would leave its connection to be closed after the event loop is gone
    (on SQLite, an exception in the driver's worker thread)."""
    while not stop.is_set():
        with contextlib.suppress(Exception):
            purged = await purge_expired(sessions, ttl)
            if purged:
                _log.info("purged %d expired idempotency records", purged)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_seconds)


def _claim_params(lookup: str, request_hash: str, now: datetime) -> dict[str, Any]:
    return {
        "key": lookup,
        "request_hash": request_hash,
        "state": "in-flight",
        "headers": {},
        "created_at": now,
    }


def _finish_params(parts: RequestParts, answer: Answer) -> dict[str, Any]:
    kept = [
        (k.decode("latin-1"), v.decode("latin-1"))
        for k, v in (answer.start or {}).get("headers", [])
        if k.lower() in _KEEP_HEADERS
    ]
    return {
        "lookup": parts.lookup,
        "status_code": answer.status,
        "headers": {"list": kept},
        "body": parts.seal(bytes(answer.body)),
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
