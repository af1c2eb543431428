"""The records behind `Idempotency-Key` (`api.idempotency`): whose a record is, the
answer it keeps (sealed), the writes the middleware queues, replaying, and the purge
of expired records in the background. Their statements (claiming keys and storing
answers in the write's own transaction, finding, dropping, purging) are
`db.idempotency`'s.

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
from datetime import timedelta
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from starlette.types import Message, Scope, Send

from service.api.errors import PROBLEM_MEDIA_TYPE, problem_headers
from service.api.write_access import WriteRoute
from service.app.write_queue import Rider
from service.db.idempotency import SealedAnswer, purge_expired
from service.db.session import SessionFactory
from service.db.tables import IdempotencyRow
from service.errors import Conflict, InvalidInput, Problem

__all__ = [
    "Answer",
    "QueuedWrite",
    "RequestParts",
    "answer_existing",
    "fingerprint",
    "in_flight",
    "run_purger",
    "sealed",
    "send_problem",
    "wait_ready",
]

_KEEP_HEADERS = frozenset({b"content-type", b"location"})
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
        """What the answer waits for once committed (`WriteContext.hold_answer`)."""

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
    finished, its answer or the error it failed with. Its route (`api.write_access`;
    None when no route takes it: the app answers 404 or 405) and path parameters say
    which write queue it waits in (`queue_key`) and whether it may join a group (`joins_group`:
    the holder of its tournament's queue may then take it into one, `api.group_commit`)."""

    def __init__(
        self,
        scope: Scope,
        parts: RequestParts | None,
        body: bytes,
        route: WriteRoute | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.scope = scope
        self.parts = parts
        self.request_hash = "" if parts is None else fingerprint(scope, body)
        self.body = body
        self.route = route
        self.params = params or {}
        self.queue_key = None if route is None else route.queue_key(self.params)
        self.joins_group = route is not None and route.joins_group
        self.answer = Answer()
        self.error: Exception | None = None


async def wait_ready(ready: list[asyncio.Future[Any]], seconds: float) -> None:
    """Wait for `ready` to be done, at most `seconds`; nothing is cancelled, and how
    each ends is its own affair (the write has committed whatever happens here)."""
    if ready and seconds > 0:
        await asyncio.wait(ready, timeout=seconds)


def in_flight() -> Conflict:
    """The answer to a retry whose first request still holds the key."""
    return Conflict(
        "a request with this Idempotency-Key is still being processed; retry later",
        field="Idempotency-Key",
    )


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


def sealed(parts: RequestParts, answer: Answer) -> SealedAnswer:
    """A claimed record's answer as it is stored: the status, the headers a replay
    needs (content type, location), the body sealed for this record."""
    kept = [
        (k.decode("latin-1"), v.decode("latin-1"))
        for k, v in (answer.start or {}).get("headers", [])
        if k.lower() in _KEEP_HEADERS
    ]
    return SealedAnswer(parts.lookup, answer.status, kept, parts.seal(bytes(answer.body)))
