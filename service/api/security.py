"""Response headers a browser needs to protect the service's pages and documents
(OWASP Secure Headers Project): a content security policy on every HTML page, no
framing, no MIME sniffing, no referrer leaks, and no cache keeping a token."""

from __future__ import annotations

import re
import types
from collections.abc import Hashable
from functools import cache
from typing import Union, get_args, get_origin
from urllib.parse import parse_qsl

from pydantic import BaseModel
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["PAGE_POLICY", "SecurityHeadersMiddleware", "carries_token"]

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""Pages load only the service's own scripts and styles, and open only its own sockets."""

DOCS_POLICY = PAGE_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'unsafe-inline'; worker-src 'self' blob:"
)
"""Swagger UI and ReDoc start from an inline script FastAPI writes, and ReDoc searches in a
worker it builds from a blob (every asset stays local)."""

_DOCS_PATHS = ("/docs", "/redoc")
_TOKEN_FIELD = re.compile(r"(?:.+_)?tokens?")
"""Response fields that hold tokens: `token`, `organizer_token`, `player_tokens`, ..."""
NO_STORE = "no-store"
"""RFC 9111 section 5.2.2.5: no cache, shared or private, keeps the response."""
_ALWAYS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def carries_token(model: object) -> bool:
    """True when a response model (a model class, or a list, dict or union of them)
    has a field named like a token at any depth (worked out once per model)."""
    return isinstance(model, Hashable) and _carries_token(model)


@cache
def _carries_token(model: Hashable) -> bool:
    if get_origin(model) in (list, dict, tuple, set, Union, types.UnionType):
        return any(carries_token(arg) for arg in get_args(model))
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return False
    return any(
        _TOKEN_FIELD.fullmatch(name) or carries_token(field.annotation)
        for name, field in model.model_fields.items()
    )


def _shows_a_token(scope: Scope, names: set[bytes]) -> bool:
    """Whether a response may hold a token: its route's response model carries one
    (tokens issued at creation, start, registration, rotation, ...), it replays a keyed
    write (`Idempotent-Replayed`: whatever that write answered, which the route of the
    replay is not asked about), or the request sent `?token=` (pages of private events,
    whose links and redirects pass the token on)."""
    route = scope.get("route")
    if route is not None and carries_token(getattr(route, "response_model", None)):
        return True
    if b"idempotent-replayed" in names:
        return True
    query = bytes(scope.get("query_string", b""))
    if b"token" not in query and b"%" not in query:  # most requests: no query to parse
        return False
    pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    return any(name == "token" for name, _ in pairs)


class SecurityHeadersMiddleware:
    """Pure ASGI middleware: `nosniff` and `Referrer-Policy` on every response; the
    content security policy and `X-Frame-Options: DENY` on HTML; `Cache-Control:
    no-store` on every response that may hold a token (`_shows_a_token`), so neither a
    browser's cache nor a proxy's keeps one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if str(scope["path"]).startswith(_DOCS_PATHS) else PAGE_POLICY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                _add_headers(scope, message, policy)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _add_headers(scope: Scope, message: Message, policy: str) -> None:
    """The response's own headers first, each of ours only where it sent none (the
    cache rule replaces any): one pass over the raw header list, every response."""
    headers = list(message.get("headers", ()))
    message["headers"] = headers
    names = {name for name, _ in headers}
    for name, value in _ALWAYS:
        if name not in names:
            headers.append((name, value))
    content_type = next((value for name, value in headers if name == b"content-type"), b"")
    if content_type.startswith(b"text/html"):
        if b"content-security-policy" not in names:
            headers.append((b"content-security-policy", policy.encode("latin-1")))
        if b"x-frame-options" not in names:
            headers.append((b"x-frame-options", b"DENY"))
    if _shows_a_token(scope, names):
        MutableHeaders(scope=message)["cache-control"] = NO_STORE
