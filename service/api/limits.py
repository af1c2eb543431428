"""Request body limits, applied before anything parses a body (docs/api.md#limits).

A pure ASGI middleware, outermost of the app's own middleware:

- a write to a tournament's or bridge event's resources (`/v1/tournaments/{id}/...`,
  `/v1/bridge/events/{id}/...`, and `PATCH`/`DELETE /v1/tournaments/{id}`) without a
  bearer token, or with one that is not a token of that tournament (checked against its
  stored hashes by `credential_precheck`), is refused with 401 before its body is read, so a
  stranger cannot make the service read or parse a large body (the route still
  authorizes the request in full);
- a `Content-Length` above the limit is 413 at once; a body sent without a length is
  read only up to the limit (413 past it), then handed on whole;
- a text body (TRF, PBN) with a NUL character is 422 (PostgreSQL cannot store NUL);
  whatever the content type, the TRF and PBN readers refuse NUL and every other control
  character, naming the line.

Limits: `max_upload_bytes` for uploads, `max_body_bytes` otherwise. Uploads are the
bodies of the file imports (`POST /v1/tournaments/import`, `POST
/v1/bridge/events/{id}/import`) and of the compute endpoints that take whole
tournaments (`POST /v1/compute/standings`, `/pairings`, `/ratings`), whatever their
content type (a file may come as `text/plain`, `application/octet-stream` or with
none): their routes read them in the CPU pool. Every other body, JSON the framework
parses on the event loop (the other `/v1/compute/...` endpoints included), is at most
`max_body_bytes`.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.credential_precheck import CredentialPrecheck, bearer_token, owner_of
from service.api.idempotency_records import send_problem
from service.errors import InvalidInput, TooLarge, Unauthenticated, Unavailable

__all__ = ["BodyLimitMiddleware"]

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_UPLOADS = re.compile(
    r"^/v1/(?:compute/standings|compute/pairings|compute/ratings|tournaments/import|bridge/events/[^/]+/import)$"
)
"""Routes whose body is a file or a whole tournament, read off the event loop."""


class BodyLimitMiddleware:
    """Cap request bodies and require a token before reading a protected one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.precheck = CredentialPrecheck()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        path = scope["path"]
        state = scope["app"].state.arbiter
        owner = owner_of(scope)
        if owner is not None:
            token = bearer_token(headers.get(b"authorization", b""))
            if token is None:
                await send_problem(
                    send,
                    Unauthenticated("send 'Authorization: Bearer <token>'", field="Authorization"),
                    path,
                )
                return
            refused = await self.precheck.refusal(state, owner, token)
            if refused is not None:
                retry = isinstance(refused, Unavailable)
                await send_problem(
                    send,
                    refused,
                    path,
                    retry_after=state.settings.retry_after_seconds if retry else None,
                )
                return
        settings = state.settings
        content_type = headers.get(b"content-type", b"").decode("latin-1").lower()
        upload = _UPLOADS.match(path) is not None
        limit = int(settings.max_upload_bytes if upload else settings.max_body_bytes)
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await send_problem(send, _too_large(limit), path)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await send_problem(send, _too_large(limit), path)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if upload and content_type.startswith("text/") and b"\x00" in body:
            await send_problem(
                send,
                InvalidInput("text bodies may not contain NUL characters", field="body"),
                path,
            )
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()  # later messages: disconnect
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _too_large(limit: int) -> TooLarge:
    return TooLarge(f"the request body exceeds {limit} bytes", field="body", limit=limit)
