"""Response headers a browser needs to protect the service's pages and documents
(OWASP Secure Headers Project): a content security policy on every HTML page, no
framing, no MIME sniffing, no referrer leaks."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["PAGE_POLICY", "SecurityHeadersMiddleware"]

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
_ALWAYS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


class SecurityHeadersMiddleware:
    """Pure ASGI middleware: `nosniff` and `Referrer-Policy` on every response; the
    content security policy and `X-Frame-Options: DENY` on HTML."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if str(scope["path"]).startswith(_DOCS_PATHS) else PAGE_POLICY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _ALWAYS:
                    headers.setdefault(name.decode(), value.decode())
                if headers.get("content-type", "").startswith("text/html"):
                    headers.setdefault("content-security-policy", policy)
                    headers.setdefault("x-frame-options", "DENY")
            await send(message)

        await self.app(scope, receive, send_with_headers)
