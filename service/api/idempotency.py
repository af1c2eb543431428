"""Idempotency-Key for writes from flaky networks (IETF draft "The Idempotency-Key HTTP
Header Field"; docs/api.md#retries-and-idempotency).

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
another body is 422; a retry that waits longer than `lock_wait_seconds` for the first
is 409. Result reports queued at their tournament's gate commit together, each with the
answer it would get alone (`api.group_commit`).

Entitlement (`api.idempotency_records`): only the caller holding the same token finds
a record, and stored bodies are encrypted. A request without a token (creating a
tournament or a bridge event) must send an unguessable key
(`idempotency_min_key_length` characters, 422 otherwise). Records expire after
`idempotency_ttl_hours` and a background task deletes them.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DBAPIError
from sqlmodel.ext.asyncio.session import AsyncSession
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.errors import is_outage, outage_problem
from service.api.group_commit import commit_group, groupable, take_group
from service.api.idempotency_records import (
    Answer,
    InFlight,
    KeyedWrite,
    RequestParts,
    after_commit,
    answer_existing,
    claim,
    in_flight,
    is_fresh,
    purge_expired,
    run_after_commit,
    run_purger,
    send_problem,
    store_answers,
    wait_ready,
)
from service.app.write_gate import GatePass, GateTimeout, gate_key
from service.db.tables import IdempotencyRow
from service.errors import InvalidInput, Problem

if TYPE_CHECKING:
    from service.api.state import AppState

__all__ = [
    "SESSION_SCOPE_KEY",
    "IdempotencyMiddleware",
    "after_commit",
    "purge_expired",
    "run_purger",
    "send_problem",
]

_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SESSION_SCOPE_KEY = "arbiter.write_session"
"""Where the middleware leaves the request's session for `deps.get_session`."""
_log = logging.getLogger("arbiter.idempotency")


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
            await send_problem(send, problem, scope["path"])
            return
        body = await _read_body(receive)
        if body is None:
            return  # the client went away
        parts = RequestParts(scope["method"], scope["path"], authorization, key)
        write = KeyedWrite(scope, parts, body)
        # The answer goes out once the gate is open again: a client slow to read a large
        # answer must not hold up the tournament's next writer.
        try:
            try:
                rider = write if groupable(scope) else None
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
            await send_problem(
                send, exc, scope["path"], retry_after=state.settings.retry_after_seconds
            )
        except (DBAPIError, OSError) as exc:  # a refused connection is a bare OSError
            if not is_outage(exc):
                raise
            _log.warning("database unreachable or busy: %s", exc)
            await send_problem(
                send,
                outage_problem(exc),
                scope["path"],
                retry_after=state.settings.retry_after_seconds,
            )
        else:
            await wait_ready(write.answer.ready, state.settings.warm_wait_seconds)
            await write.answer.deliver(send)

    async def _lead(self, write: KeyedWrite, passage: GatePass, state: AppState) -> None:
        """Run this write, and the result reports queued right behind it, as one group
        (`api.group_commit`); every write of the group is finished on return."""
        group = take_group(write, passage)
        try:
            await commit_group(group, state.sessions, self)
        finally:
            for member in group:
                if not member.finished.is_set():  # interrupted (the leader was cancelled)
                    member.error = member.error or GateTimeout()
                    member.finished.set()

    async def alone(self, write: KeyedWrite) -> None:
        """One write in its own transaction: claim its key (or replay what the key got),
        run it, store its answer with it, commit; then finish it (`GroupRunner`)."""
        try:
            await self._handle(write, write.scope["app"].state.arbiter)
        except Exception as exc:
            write.error = exc
        write.finished.set()

    async def _handle(self, write: KeyedWrite, state: AppState) -> None:
        send, path = write.answer.send, write.scope["path"]
        ttl = timedelta(hours=state.settings.idempotency_ttl_hours)
        async with state.sessions() as session:
            for _ in range(3):
                try:
                    claimed = await claim(session, write.parts.lookup, write.request_hash)
                except InFlight:
                    await send_problem(send, in_flight(), path)
                    return
                if claimed:
                    break
                row = await session.get(IdempotencyRow, write.parts.lookup)
                if row is not None and is_fresh(row, ttl):
                    await answer_existing(send, row, write.parts, write.request_hash, path)
                    return
                if row is not None:  # expired, or left in flight by an older version
                    await session.delete(row)
                await session.commit()
            else:
                await send_problem(send, in_flight(), path)
                return
            answer = await self.call_app(write, session)
            if answer.status >= 400:
                await session.rollback()
                write.answer = answer
                return
            await store_answers(session, [(write.parts, answer)])
            await session.commit()
            answer.ready = await run_after_commit(session)
            write.answer = answer

    async def call_app(self, write: KeyedWrite, session: AsyncSession) -> Answer:
        """Run the request through the app in `session`, which the app does not commit;
        on an exception the session is rolled back (`GroupRunner`)."""
        sent = False

        async def replay_receive() -> Message:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": write.body, "more_body": False}

        answer = Answer()
        scope = write.scope
        scope[SESSION_SCOPE_KEY] = session
        session.info[SESSION_SCOPE_KEY] = True
        try:
            await self.app(scope, replay_receive, answer.send)
        except BaseException:
            await session.rollback()
            raise
        return answer


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


async def _read_body(receive: Receive) -> bytes | None:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)
