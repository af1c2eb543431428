"""Idempotency-Key for writes from flaky networks (IETF draft "The Idempotency-Key HTTP
Header Field"; docs/api.md#retries-and-idempotency).

The stored response commits in the same transaction as the write it answers:

1. The middleware opens the request's session and, as its first statement, inserts the
   key's record (uncommitted). A concurrent request with the same key waits on that
   row (PostgreSQL unique index, SQLite's write lock) until the first one ends.
2. The route runs in that session, its unit of work (`app.unit_of_work.WriteContext`,
   left in the request's scope for `deps.write_context`), and does not commit;
   `publish.commit_and_publish` only flushes and leaves the notification for after the
   commit.
3. A success (status < 400) is stored in the record and committed with the write; only
   then is the response sent. A 4xx/5xx or a crash rolls everything back: nothing is
   left, and a retry runs the request again.

So a crash leaves either nothing or the finished record, and a retry sent the moment
the response arrives finds the record committed (replay, never 409). The same key with
another request (method, path, query string, content type or body) is 422; a retry that
waits longer than `lock_wait_seconds` for the first is 409. Result reports queued at
their tournament's write queue, with a key or without one, commit together, each with the
answer it would get alone (`api.group_commit`): a report without a key runs here too,
in the same way, and only stores no answer. Which tournament's queue a write waits in and
whether it may join a group are the route's declarations (`api.write_access`), found
once per request by the app's own path templates.

Entitlement (`api.idempotency_records`; the records' statements: `db.idempotency`):
only the caller holding the same token finds a record, and stored bodies are encrypted.
A replay is sent only to a caller the route would admit now (`api.write_access`): the
token must still be a current one of that tournament, of a role the route takes, and
the tournament not archived; otherwise the route's own problem is the answer (401, 403,
410), and the stored body stays unsent. A
request to a route that needs no token (creating a tournament or a bridge event, the
stateless `/v1/compute` routes) must send an unguessable key
(`idempotency_min_key_length` characters, 422 otherwise), whatever `Authorization`
header comes with it. Every record replays for `idempotency_ttl_hours` after its write
(on every route alike) and a background task deletes it after that.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DBAPIError
from sqlmodel.ext.asyncio.session import AsyncSession
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.credential_precheck import bearer_token
from service.api.errors import is_outage, outage_problem
from service.api.group_commit import commit_group, take_group
from service.api.idempotency_records import (
    Answer,
    QueuedWrite,
    RequestParts,
    answer_existing,
    in_flight,
    run_purger,
    sealed,
    send_problem,
    wait_ready,
)
from service.api.write_access import WriteRoute, write_routes
from service.app.unit_of_work import WriteContext
from service.app.write_queue import QueueHold, WriteQueueTimeout
from service.db.idempotency import (
    InFlight,
    claim,
    drop_record,
    find_record,
    is_fresh,
    purge_expired,
    store_answers,
)
from service.errors import InvalidInput, Problem

if TYPE_CHECKING:
    from service.api.state import AppState

__all__ = [
    "WRITE_CONTEXT_KEY",
    "IdempotencyMiddleware",
    "purge_expired",
    "run_purger",
    "send_problem",
    "write_context_of",
]

_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WRITE_CONTEXT_KEY = "arbiter.write_context"
"""Where a write request's unit of work is left in its ASGI scope: by this middleware,
which commits it, or by the first dependency that opens it (`deps.write_context`), for
the request's other dependencies."""
_log = logging.getLogger("arbiter.idempotency")


def write_context_of(scope: Scope) -> WriteContext | None:
    """The unit of work of the request, once opened (`WRITE_CONTEXT_KEY`)."""
    context: WriteContext | None = scope.get(WRITE_CONTEXT_KEY)
    return context


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
        found = write_routes(scope["app"]).find(scope)
        route, params = found if found is not None else (None, {})
        report = route is not None and route.joins_group
        if raw_key is None and not report:
            await self.app(scope, receive, send)
            return
        state = scope["app"].state.arbiter
        parts = None
        if raw_key is not None:
            key = raw_key.decode("latin-1").strip().strip('"')
            problem = _check_key(key, route, settings=state.settings)
            if problem is not None:
                await send_problem(send, problem, scope["path"])
                return
            authorization = headers.get(b"authorization", b"").decode("latin-1")
            parts = RequestParts(scope["method"], scope["path"], authorization, key)
        body = await _read_body(receive)
        if body is None:
            return  # the client went away
        write = QueuedWrite(scope, parts, body, route, params)
        # The answer goes out once the next writer is let in: a client slow to read a large
        # answer must not hold up the tournament's next writer.
        try:
            try:
                rider = write if report else None
                async with state.write_queues.hold(write.queue_key, rider) as hold:
                    if not write.taken:
                        await self._lead(write, hold, state)
            except WriteQueueTimeout:
                if not write.taken:
                    raise
            await write.finished.wait()  # at once, unless the wait above ran out
            if write.error is not None:
                raise write.error
        except WriteQueueTimeout as exc:
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

    async def _lead(self, write: QueuedWrite, hold: QueueHold, state: AppState) -> None:
        """Run this write, and the result reports queued right behind it, as one group
        (`api.group_commit`); every write of the group is finished on return."""
        group = take_group(write, hold)
        try:
            await commit_group(group, state.sessions, self)
        finally:
            for member in group:
                if not member.finished.is_set():  # interrupted (the leader was cancelled)
                    member.error = member.error or WriteQueueTimeout()
                    member.finished.set()

    async def alone(self, write: QueuedWrite) -> None:
        """One write in its own transaction: claim its key (or replay what the key got),
        run it, store its answer with it, commit; then finish it (`GroupRunner`)."""
        try:
            await self._handle(write, write.scope["app"].state.arbiter)
        except Exception as exc:
            write.error = exc
        write.finished.set()

    async def _handle(self, write: QueuedWrite, state: AppState) -> None:
        async with state.sessions() as session:
            if write.parts is not None and not await self._claim(write, write.parts, session):
                return
            answer, context = await self.call_app(write, session)
            if answer.status >= 400:
                await session.rollback()
                write.answer = answer
                return
            if write.parts is not None:
                await store_answers(session, [sealed(write.parts, answer)])
            await session.commit()
            answer.ready = await context.committed()
            write.answer = answer

    async def _claim(self, write: QueuedWrite, parts: RequestParts, session: AsyncSession) -> bool:
        """Claim the write's key in `session`: True once claimed (the write is to run),
        False once the write is answered (its record replayed, or a refusal)."""
        send, path = write.answer.send, write.scope["path"]
        ttl = timedelta(hours=write.scope["app"].state.arbiter.settings.idempotency_ttl_hours)
        for _ in range(3):
            try:
                claimed = await claim(session, parts.lookup, write.request_hash)
            except InFlight:
                await send_problem(send, in_flight(), path)
                return False
            if claimed:
                return True
            row = await find_record(session, parts.lookup)
            if row is not None and is_fresh(row, ttl):
                refusal = await _refusal(write, session)
                if refusal is not None:
                    await send_problem(send, refusal, path)
                else:
                    await answer_existing(send, row, parts, write.request_hash, path)
                return False
            if row is not None:  # expired, or left in flight by an older version
                await drop_record(session, row)
            await session.commit()
        await send_problem(send, in_flight(), path)
        return False

    async def call_app(
        self, write: QueuedWrite, session: AsyncSession
    ) -> tuple[Answer, WriteContext]:
        """Run the request through the app in `session`, which the app does not commit,
        as the unit of work it returns with the answer; on an exception the session is
        rolled back (`GroupRunner`)."""
        sent = False

        async def replay_receive() -> Message:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": write.body, "more_body": False}

        answer = Answer()
        context = WriteContext(
            session, write.queue_key, may_join_group=write.joins_group, commits_later=True
        )
        scope = write.scope
        scope[WRITE_CONTEXT_KEY] = context
        try:
            await self.app(scope, replay_receive, answer.send)
        except BaseException:
            await session.rollback()
            raise
        return answer, context


def _check_key(key: str, route: WriteRoute | None, *, settings: Any) -> Problem | None:
    """The key's shape: 1..255 printable characters, and unguessable where the route
    needs no token (there the key is all that entitles a caller to the stored answer,
    whatever `Authorization` header comes with it)."""
    field = "Idempotency-Key"
    if not 1 <= len(key) <= 255 or not key.isprintable():
        return InvalidInput("must be 1 to 255 printable characters", field=field)
    minimum = int(settings.idempotency_min_key_length)
    if len(key) < minimum and (route is None or route.check is None):
        return InvalidInput(
            f"a request to a route that needs no token needs an unguessable key of at "
            f"least {minimum} characters (e.g. a random UUID)",
            field=field,
        )
    return None


async def _refusal(write: QueuedWrite, session: AsyncSession) -> Problem | None:
    """What the request's route would answer its caller now, before it runs (401 for a
    token rotated, revoked or expired since, 403 for a withdrawn player, 410 once the
    tournament is archived), or None when the route would admit them: a replay is sent
    only then (`api.write_access`)."""
    route = write.route
    if route is None or route.check is None:
        return None
    authorization = dict(write.scope["headers"]).get(b"authorization", b"")
    try:
        await route.check(session, write.params, bearer_token(authorization))
    except Problem as exc:
        return exc
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
