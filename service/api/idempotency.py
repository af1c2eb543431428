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
the response arrives finds the record committed (replay, never 409).

Group commit: result reports queued at a tournament's gate (`app.write_gate`) commit
together. The writer that gets the gate takes the reports right behind it and runs
them in one transaction: one statement claims every key, each report runs in turn, one
statement stores every answer, one commit. Each gets the answer it would get alone: a
refusal that changed nothing keeps its 4xx and the group goes on; a failure after a
write, or a group that cannot commit, rolls back and splits the group (the reports
before it commit as a group, the failed one runs alone as above, the rest follow). The same key with
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
import re
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy import bindparam, delete, event, insert, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.errors import PROBLEM_MEDIA_TYPE, is_lock_timeout, is_outage, outage_problem
from service.app.report_result import preload_reports
from service.app.write_gate import GatePass, GateTimeout, Rider, gate_key
from service.db.repository import discard_loaded
from service.db.session import SessionFactory
from service.db.tables import IdempotencyRow, utcnow
from service.errors import Conflict, InvalidInput, Problem

if TYPE_CHECKING:
    from service.api.state import AppState

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
        write = _Write(scope, parts, hashlib.sha256(body).hexdigest(), body)
        # The answer goes out once the gate is open again: a client slow to read a large
        # answer must not hold up the tournament's next writer.
        try:
            try:
                rider = write if _groupable(scope) else None
                async with state.gates.hold(gate_key(scope["path"]), rider) as passage:
                    if not write.taken:
                        await self._lead(write, passage, state)
            except GateTimeout:
                if not write.taken:
                    raise
            await write.finished.wait()  # at once, unless the wait above ran out
            if write.error is not None:
                raise write.error
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
            await write.answer.deliver(send)

    async def _lead(self, write: _Write, passage: GatePass, state: AppState) -> None:
        """Run this write, and the result reports queued right behind it, as one group."""
        group = [write]
        if _groupable(write.scope):
            lookups = {write.parts.lookup}

            def fresh(rider: Rider) -> bool:  # a retry waits for its first request
                lookup = rider.parts.lookup if isinstance(rider, _Write) else None
                if lookup is None or lookup in lookups:
                    return False
                lookups.add(lookup)
                return True

            riders = passage.take_riders(_GROUP_LIMIT - 1, fresh)
            group += [rider for rider in riders if isinstance(rider, _Write)]
        write.taken = True
        try:
            await self._commit_group(group, state)
        finally:
            for member in group:
                if not member.finished.is_set():  # interrupted (the leader was cancelled)
                    member.error = member.error or GateTimeout()
                    member.finished.set()

    async def _commit_group(self, group: list[_Write], state: AppState) -> None:
        """Commit `group` in one transaction; where one of them fails after writing, or
        the group cannot commit, split it so each write gets the answer it would get
        alone, in arrival order."""
        if len(group) == 1:
            await self._alone(group[0], state)
            return
        try:
            failed = await self._try_group(group, state)
        except Exception:  # the group as a whole could not commit: each on its own
            for write in group:
                await self._alone(write, state)
            return
        if failed is None:
            return
        if failed:
            await self._commit_group(group[:failed], state)
        await self._alone(group[failed], state)
        if failed + 1 < len(group):
            await self._commit_group(group[failed + 1 :], state)

    async def _alone(self, write: _Write, state: AppState) -> None:
        ttl = timedelta(hours=state.settings.idempotency_ttl_hours)
        try:
            await self._handle(write, state.sessions, ttl)
        except Exception as exc:
            write.error = exc
        write.finished.set()

    async def _try_group(self, group: list[_Write], state: AppState) -> int | None:
        """One transaction for the whole group: claim every key, run each write in turn,
        store every answer, commit once. A write that fails before changing anything
        (a 4xx from its checks) keeps its answer, as it would alone. Returns None once
        committed, or the index of the first write that failed after changing something
        (everything is rolled back)."""
        answers: list[tuple[_Write, _Buffered]] = []
        async with state.sessions() as session:
            claimed = await _claim_all(session, group)
            members = [write for write in group if write.parts.lookup in claimed]
            writes = _WriteCounter(await session.connection())
            failed: list[str] = []
            preloaded = False
            for index, write in enumerate(members):
                if index and not preloaded:
                    preloaded = await _preload(session, members[index:])
                before = writes.count
                try:
                    answer = await self._call_app(write, session)
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
                    failed.append(write.parts.lookup)
                answers.append((write, answer))
            stored = [(w, a) for w, a in answers if a.status < 400]
            if stored:
                await session.exec(_FINISH, params=[_finish_params(w.parts, a) for w, a in stored])
            if failed:
                await session.exec(delete(_RECORDS).where(_RECORDS.c.key.in_(failed)))
            await session.commit()
            await _after_commit(session)
        for write, answer in answers:
            write.answer = answer
            write.finished.set()
        for write in group:  # keys a committed request holds: each replays its answer
            if write.parts.lookup not in claimed:
                await self._alone(write, state)
        return None

    async def _handle(self, write: _Write, sessions: SessionFactory, ttl: timedelta) -> None:
        """One write in its own transaction: claim its key (or replay what the key got),
        run it, store its answer with it, commit."""
        send = write.answer.send
        async with sessions() as session:
            for _ in range(3):
                try:
                    claimed = await _claim(session, write.parts.lookup, write.request_hash)
                except _InFlight:
                    await send_problem(send, _in_flight())
                    return
                if claimed:
                    break
                row = await session.get(IdempotencyRow, write.parts.lookup)
                if row is not None and row.state == "done" and utcnow() - _aware(row) <= ttl:
                    await _answer_existing(send, row, write.parts, write.request_hash)
                    return
                if row is not None:  # expired, or left in flight by an older version
                    await session.delete(row)
                await session.commit()
            else:
                await send_problem(send, _in_flight())
                return
            answer = await self._call_app(write, session)
            if answer.status >= 400:
                await session.rollback()
                write.answer = answer
                return
            await session.exec(_FINISH, params=_finish_params(write.parts, answer))
            await session.commit()
            await _after_commit(session)
            write.answer = answer

    async def _call_app(self, write: _Write, session: AsyncSession) -> _Buffered:
        """Run the request through the app in `session`, which the app does not commit;
        on an exception the session is rolled back."""
        sent = False

        async def replay_receive() -> Message:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": write.body, "more_body": False}

        answer = _Buffered()
        scope = write.scope
        scope[SESSION_SCOPE_KEY] = session
        session.info[SESSION_SCOPE_KEY] = True
        try:
            await self.app(scope, replay_receive, answer.send)
        except BaseException:
            await session.rollback()
            raise
        return answer


_GROUP_LIMIT = 32
"""Most writes committed together (`IdempotencyMiddleware._lead`)."""
_GROUPABLE = re.compile(
    r"/v1/tournaments/(?P<tournament>[^/]+)/rounds/(?P<round>\d+)/games/(?P<table>\d+)/result"
)
"""Writes that may join a group: result reports, the bulk of the writes in a running
tournament. Each checks everything before it changes anything and then makes one
change, so one refused report in a group costs the others nothing. Other writes (a
pairing, a registration) commit alone, in their turn."""


def _groupable(scope: Scope) -> bool:
    return scope["method"] == "PUT" and _GROUPABLE.fullmatch(scope["path"]) is not None


async def _preload(session: AsyncSession, writes: list[_Write]) -> bool:
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


class _Write(Rider):
    """A keyed write: the request, and once finished its answer or its error."""

    def __init__(self, scope: Scope, parts: _Parts, request_hash: str, body: bytes) -> None:
        super().__init__()
        self.scope = scope
        self.parts = parts
        self.request_hash = request_hash
        self.body = body
        self.answer = _Buffered()
        self.error: Exception | None = None


class _WriteCounter:
    """Counts the statements a connection sends that may change something (all but
    SELECT): how a group tells a refusal that changed nothing from one that did."""

    def __init__(self, connection: Any) -> None:
        self.count = 0
        event.listen(connection.sync_connection, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip()[:6].upper() != "SELECT":
            self.count += 1


def _finish_params(parts: _Parts, answer: _Buffered) -> dict[str, Any]:
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


async def _after_commit(session: AsyncSession) -> None:
    for action in session.info.pop(_AFTER_COMMIT, []):
        try:
            await action()
        except Exception:  # a lost notification is repaired by the log reread
            _log.exception("after-commit action failed")


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


async def _claim_all(session: AsyncSession, group: list[_Write]) -> set[str]:
    """Claim the keys of a group in one statement; returns the lookups claimed. A key
    left out is held by a committed request (or by one still running elsewhere, waited
    for as `_claim` waits): its write runs alone after the group and replays."""
    now = utcnow()
    rows = [
        {
            "key": write.parts.lookup,
            "request_hash": write.request_hash,
            "state": "in-flight",
            "headers": {},
            "created_at": now,
        }
        for write in group
    ]
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    statement = (
        dialect.insert(_RECORDS)
        .values(rows)
        .on_conflict_do_nothing(index_elements=["key"])
        .returning(_RECORDS.c.key)
    )
    return {row[0] for row in await session.exec(statement)}


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
