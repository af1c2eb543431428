"""Idempotency-Key for writes from flaky networks (IETF draft "The Idempotency-Key HTTP
Header Field"; DESIGN: API conventions).

A write sent with `Idempotency-Key` is remembered with a digest of its body and the
response it got. The same key with the same body replays that response (marked
`Idempotent-Replayed: true`) and changes nothing; the same key with another body is 422;
a retry while the first request is still running is 409. Keys are scoped by method,
path and bearer token, so two clients never collide, and expire after
`idempotency_ttl_hours`. Responses of 500 and above are not kept, so a retry runs again.
"""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.errors import PROBLEM_MEDIA_TYPE
from service.db.tables import IdempotencyRow, utcnow
from service.errors import Conflict, InvalidInput, Problem

__all__ = ["IdempotencyMiddleware"]

_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_KEEP_HEADERS = frozenset({b"content-type", b"location"})


class IdempotencyMiddleware:
    """Pure ASGI middleware; it stores keys in the app's database."""

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
        key = raw_key.decode("latin-1").strip().strip('"')
        if not 1 <= len(key) <= 255:
            await _send_problem(
                send, InvalidInput("must be 1 to 255 characters", field="Idempotency-Key")
            )
            return
        body = await _read_body(receive)
        scope_key = _digest(
            scope["method"], scope["path"], headers.get(b"authorization", b"").decode(), key
        )
        request_hash = hashlib.sha256(body).hexdigest()
        sessions = scope["app"].state.arbiter.sessions
        ttl = timedelta(hours=scope["app"].state.arbiter.settings.idempotency_ttl_hours)

        async with sessions() as session:
            row = await session.get(IdempotencyRow, scope_key)
            if row is not None and utcnow() - row.created_at > ttl:
                await session.delete(row)
                await session.commit()
                row = None
            if row is not None:
                await _answer_existing(send, row, request_hash)
                return
            session.add(IdempotencyRow(key=scope_key, request_hash=request_hash))
            try:
                await session.commit()
            except IntegrityError:
                await _send_problem(send, _in_flight())
                return

        captured: dict[str, Any] = {"status": 500, "headers": [], "body": b""}

        async def replay_receive() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        async def capture_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                captured["status"] = message["status"]
                captured["headers"] = [
                    (k.decode("latin-1"), v.decode("latin-1"))
                    for k, v in message.get("headers", [])
                    if k.lower() in _KEEP_HEADERS
                ]
            elif message["type"] == "http.response.body":
                captured["body"] += message.get("body", b"")
            await send(message)

        try:
            await self.app(scope, replay_receive, capture_send)
        finally:
            async with sessions() as session:
                row = await session.get(IdempotencyRow, scope_key)
                if row is not None:
                    if captured["status"] >= 500:
                        await session.delete(row)
                    else:
                        row.state = "done"
                        row.status_code = captured["status"]
                        row.headers = {"list": captured["headers"]}
                        row.body = captured["body"].decode("utf-8", "replace")
                        session.add(row)
                    await session.commit()


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _in_flight() -> Conflict:
    return Conflict(
        "a request with this Idempotency-Key is still being processed; retry later",
        field="Idempotency-Key",
    )


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def _answer_existing(send: Send, row: IdempotencyRow, request_hash: str) -> None:
    if row.request_hash != request_hash:
        await _send_problem(
            send,
            InvalidInput(
                "this Idempotency-Key was used with a different request body",
                field="Idempotency-Key",
            ),
        )
        return
    if row.state != "done" or row.status_code is None:
        await _send_problem(send, _in_flight())
        return
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in row.headers.get("list", [])]
    headers.append((b"idempotent-replayed", b"true"))
    body = (row.body or "").encode()
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": row.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _send_problem(send: Send, problem: Problem) -> None:
    body = json.dumps(problem.body()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": problem.status,
            "headers": [
                (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
