"""Idempotency-Key for writes from flaky networks (IETF draft "The Idempotency-Key HTTP
Header Field"; DESIGN: API conventions and known pitfalls).

The stored response commits in the same transaction as the write it answers:

1. The middleware opens the request's session and, as its first statement, inserts the
   key's record (uncommitted). A concurrent request with the same key waits on that
   row (PostgreSQL unique index, SQLite's write lock) until the first one ends.
2. The route runs in that session (`deps.get_session` hands it over) and does not
   commit; `publish.commit_and_publish` only flushes and queues the notification.
3. A success (status < 400) is stored in the record and committed with the write; only
   then is the response sent. A 4xx/5xx or a crash rolls everything back: nothing is
   left, and a retry runs the request again.

So a crash leaves either nothing or the finished record, and a retry sent the moment
the response arrives finds the record committed (replay, never 409). The same key with
another body is 422; a retry that waits longer than `lock_wait_seconds` for the first is 409.

Entitlement: the record is found by a digest of method, path, the whole
`Authorization` header and the key, so only the caller holding the same token finds
it. A request without a token (creating a tournament or a bridge event) must send an
unguessable key (`idempotency_min_key_length` characters, 422 otherwise). Stored
bodies hold tokens, so they are encrypted (AES-256-GCM) with a key derived (HKDF) from
the same parts: whoever reads the table learns nothing without the original request.
Records expire after `idempotency_ttl_hours` and a background task deletes them.
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
from datetime import timedelta
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy import bindparam, delete, insert, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.errors import PROBLEM_MEDIA_TYPE, is_lock_timeout, is_outage, outage_problem
from service.app.write_gate import GateTimeout, gate_key
from service.db.session import SessionFactory
from service.db.tables import IdempotencyRow, utcnow
from service.errors import Conflict, InvalidInput, Problem

__all__ = [
    "SESSION_SCOPE_KEY",
    "IdempotencyMiddleware",
    "after_commit",
    "purge_expired",
    "run_purger",
]

_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_KEEP_HEADERS = frozenset({b"content-type", b"location"})
SESSION_SCOPE_KEY = "arbiter.write_session"
"""Where the middleware leaves the request's session for `deps.get_session`."""
_AFTER_COMMIT = "arbiter.after_commit"
_log = logging.getLogger("arbiter.idempotency")


def after_commit(session: AsyncSession, action: Callable[[], Awaitable[None]]) -> None:
    """Run `action` once the middleware has committed this session's transaction."""
    session.info.setdefault(_AFTER_COMMIT, []).append(action)


class _Parts:
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


class _Buffered:
    """The app's response, held back until the transaction has committed."""

    def __init__(self) -> None:
        self.start: Message | None = None
        self.body = bytearray()

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.start = message
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")

    @property
    def status(self) -> int:
        return int(self.start["status"]) if self.start else 500

    async def deliver(self, send: Send) -> None:
        assert self.start is not None
        await send(self.start)
        await send({"type": "http.response.body", "body": bytes(self.body)})


class IdempotencyMiddleware:
    """Pure ASGI middleware; it keeps records in the app's database."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _WRITE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        raw_key = headers.get(b"idempotency-key")
        if raw_key is None:
            await self.app(scope, receive, send)
            return
        state = scope["app"].state.arbiter
        key = raw_key.decode("latin-1").strip().strip('"')
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        problem = _check_key(key, authorized=bool(authorization.strip()), settings=state.settings)
        if problem is not None:
            await send_problem(send, problem)
            return
        body = await _read_body(receive)
        if body is None:
            return  # the client went away
        parts = _Parts(scope["method"], scope["path"], authorization, key)
        request_hash = hashlib.sha256(body).hexdigest()
        ttl = timedelta(hours=state.settings.idempotency_ttl_hours)
        # The answer goes out once the gate is open again: a client slow to read a large
        # answer must not hold up the tournament's next writer.
        outbox = _Buffered()
        try:
            async with state.gates.hold(gate_key(scope["path"])):
                await self._handle(
                    scope, outbox.send, state.sessions, parts, request_hash, body, ttl
                )
        except GateTimeout as exc:
            await send_problem(send, exc, retry_after=state.settings.retry_after_seconds)
        except (DBAPIError, OSError) as exc:  # a refused connection is a bare OSError
            if not is_outage(exc):
                raise
            _log.warning("database unreachable or busy: %s", exc)
            await send_problem(
                send, outage_problem(exc), retry_after=state.settings.retry_after_seconds
            )
        else:
            await outbox.deliver(send)

    async def _handle(
        self,
        scope: Scope,
        send: Send,
        sessions: SessionFactory,
        parts: _Parts,
        request_hash: str,
        body: bytes,
        ttl: timedelta,
    ) -> None:
        async with sessions() as session:
            for _ in range(3):
                try:
                    claimed = await _claim(session, parts.lookup, request_hash)
                except _InFlight:
                    await send_problem(send, _in_flight())
                    return
                if claimed:
                    break
                row = await session.get(IdempotencyRow, parts.lookup)
                if row is not None and row.state == "done" and utcnow() - _aware(row) <= ttl:
                    await _answer_existing(send, row, parts, request_hash)
                    return
                if row is not None:  # expired, or left in flight by an older version
                    await session.delete(row)
                await session.commit()
            else:
                await send_problem(send, _in_flight())
                return
            await self._run(scope, send, session, parts, body)

    async def _run(
        self, scope: Scope, send: Send, session: AsyncSession, parts: _Parts, body: bytes
    ) -> None:
        sent = False

        async def replay_receive() -> Message:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        buffered = _Buffered()
        scope[SESSION_SCOPE_KEY] = session
        session.info[SESSION_SCOPE_KEY] = True
        try:
            await self.app(scope, replay_receive, buffered.send)
        except BaseException:
            await session.rollback()
            raise
        if buffered.status >= 400:
            await session.rollback()
            await buffered.deliver(send)
            return
        kept = [
            (k.decode("latin-1"), v.decode("latin-1"))
            for k, v in (buffered.start or {}).get("headers", [])
            if k.lower() in _KEEP_HEADERS
        ]
        await session.exec(
            _FINISH,
            params={
                "lookup": parts.lookup,
                "status_code": buffered.status,
                "headers": {"list": kept},
                "body": parts.seal(bytes(buffered.body)),
            },
        )
        await session.commit()
        for action in session.info.pop(_AFTER_COMMIT, []):
            try:
                await action()
            except Exception:  # a lost notification is repaired by the log reread
                _log.exception("after-commit action failed")
        await buffered.deliver(send)


def _check_key(key: str, *, authorized: bool, settings: Any) -> Problem | None:
    """The key's shape: 1..255 printable characters, and unguessable without a token."""
    field = "Idempotency-Key"
    if not 1 <= len(key) <= 255 or not key.isprintable():
        return InvalidInput("must be 1 to 255 printable characters", field=field)
    minimum = int(settings.idempotency_min_key_length)
    if not authorized and len(key) < minimum:
        return InvalidInput(
            f"a request without a bearer token needs an unguessable key of at least "
            f"{minimum} characters (e.g. a random UUID)",
            field=field,
        )
    return None


async def _claim(session: AsyncSession, lookup: str, request_hash: str) -> bool:
    """Insert the record (uncommitted) as the transaction's first write; False when a
    committed record with this key exists (after waiting for its transaction, at most
    `lock_wait_seconds` on PostgreSQL: the engine's `lock_timeout`)."""
    try:
        await session.exec(
            _CLAIM,
            params={
                "key": lookup,
                "request_hash": request_hash,
                "state": "in-flight",
                "headers": {},
                "created_at": utcnow(),
            },
        )
    except IntegrityError:
        await session.rollback()
        return False
    except DBAPIError as exc:
        if is_lock_timeout(exc):
            await session.rollback()
            raise _InFlight from exc
        raise
    return True


_RECORDS = IdempotencyRow.__table__  # type: ignore[attr-defined]
_CLAIM = insert(_RECORDS)
"""The claim, as a plain statement: the write path runs it for every keyed request, and
an ORM object and its flush would cost more than the statement itself."""
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


class _InFlight(Exception):
    """The first request with this key held it longer than `lock_wait_seconds`."""


def _aware(row: IdempotencyRow) -> Any:
    created = row.created_at
    if created.tzinfo is None:  # SQLite drops the zone; stored values are UTC
        from datetime import UTC

        created = created.replace(tzinfo=UTC)
    return created


def _in_flight() -> Conflict:
    return Conflict(
        "a request with this Idempotency-Key is still being processed; retry later",
        field="Idempotency-Key",
    )


async def _read_body(receive: Receive) -> bytes | None:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _answer_existing(
    send: Send, row: IdempotencyRow, parts: _Parts, request_hash: str
) -> None:
    if row.request_hash != request_hash:
        await send_problem(
            send,
            InvalidInput(
                "this Idempotency-Key was used with a different request body",
                field="Idempotency-Key",
            ),
        )
        return
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in row.headers.get("list", [])]
    headers.append((b"idempotent-replayed", b"true"))
    body = parts.open(row.body or "")
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": row.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def send_problem(send: Send, problem: Problem, *, retry_after: int | None = None) -> None:
    """Answer with a problem document straight from ASGI middleware."""
    body = json.dumps(problem.body()).encode()
    headers = [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
        (b"content-length", str(len(body)).encode()),
    ]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
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
