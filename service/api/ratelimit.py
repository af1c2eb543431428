"""Rate limits (moving windows, from the `limits` library) that keep one client from
crowding out the rest:

- creations (tournaments, bridge events, TRF imports) per client address;
- writes per bearer token (a runaway app, a leaked token);
- failed authentications (401/403) per client address: once they are used up, requests
  that carry a token (header or `?token=`) from that address are refused until the
  window moves on, which makes guessing tokens pointless. A live feed connection whose
  `?token=` is refused counts as one too, and once they are used up one that carries a
  token is refused as well.

A refusal is 429 problem+json (`rate-limited`) with `Retry-After` in seconds; on the
live feed (WebSocket), an `error` message (status 429) and close code 4429, the HTTP
status in the application's range of close codes (RFC 6455 7.4.2), the reason saying
when to retry. Windows
are kept in the process's memory: with N worker processes a client gets up to N times
the allowance (set the limits accordingly). Client addresses are what the server sees:
behind a proxy, start uvicorn with `--forwarded-allow-ips` so they are the callers'.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.errors import problem_response
from service.errors import RateLimited
from service.live.frames import error_message
from service.live.wire import close_reason

__all__ = [
    "FAILED_AUTHENTICATION",
    "TOO_MANY_REQUESTS",
    "RateLimitMiddleware",
    "RateLimits",
    "parse_limit",
]

_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_CREATION_PATHS = frozenset({"/v1/tournaments", "/v1/tournaments/import", "/v1/bridge/events"})
_AUTH_FAILURES = frozenset({401, 403})

FAILED_AUTHENTICATION = "arbiter.failed_authentication"
"""Scope key a WebSocket route sets before the close that refuses the token it was
given: the refusal counts as a failed authentication when the close is sent."""
TOO_MANY_REQUESTS = 4429
"""Close code of a WebSocket refused by a rate limit (429 on HTTP)."""


def parse_limit(text: str) -> RateLimitItem:
    """`"60/hour"`, `"100/second"`, `"10 per minute"` -> a limit (ValueError otherwise)."""
    return parse(text)


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The three allowances (see the module docstring)."""

    creations: RateLimitItem
    writes: RateLimitItem
    failed_authentications: RateLimitItem


class RateLimitMiddleware:
    """Pure ASGI middleware applying `RateLimits` before the request reaches a route."""

    def __init__(self, app: ASGIApp, *, limits: RateLimits) -> None:
        self.app = app
        self.limits = limits
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    async def _problem(self, item: RateLimitItem, *keys: str) -> tuple[RateLimited, int]:
        """The refusal, and the seconds until the window lets the client in again."""
        stats = await self.limiter.get_window_stats(item, *keys)
        retry_after = max(1, math.ceil(stats.reset_time - time.time()))
        problem = RateLimited(
            f"more than {item} from this client; retry in {retry_after} s",
            retry_after=retry_after,
        )
        return problem, retry_after

    async def _refuse(self, scope: Scope, send: Send, item: RateLimitItem, *keys: str) -> None:
        problem, retry_after = await self._problem(item, *keys)
        response = problem_response(problem, str(scope["path"]))
        response.headers["Retry-After"] = str(retry_after)
        await response(scope, _no_body, send)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket with a token: refused (4429) while its address has no failed
        authentication left; else served, its token's refusal counted as one."""
        failures = self.limits.failed_authentications
        address = _address(scope)
        if not await self.limiter.test(failures, "auth", address):
            problem, _ = await self._problem(failures, "auth", address)
            if (await receive())["type"] != "websocket.connect":
                return  # the client went away first
            await send({"type": "websocket.accept"})
            await send(
                {"type": "websocket.send", "text": error_message(429, problem.detail, "token")}
            )
            await send(
                {
                    "type": "websocket.close",
                    "code": TOO_MANY_REQUESTS,
                    "reason": close_reason(problem.detail),
                }
            )
            return

        async def watch_refusal(message: Message) -> None:
            if message["type"] == "websocket.close" and scope.get(FAILED_AUTHENTICATION):
                await self.limiter.hit(failures, "auth", address)
            await send(message)

        await self.app(scope, receive, watch_refusal)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and _bearer_digest(scope) is not None:
            await self._websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = _address(scope)
        token = _bearer_digest(scope)
        failures = self.limits.failed_authentications
        if token is not None and not await self.limiter.test(failures, "auth", address):
            await self._refuse(scope, send, failures, "auth", address)
            return
        if scope["method"] in _WRITE_METHODS:
            if scope["path"] in _CREATION_PATHS and not await self.limiter.hit(
                self.limits.creations, "create", address
            ):
                await self._refuse(scope, send, self.limits.creations, "create", address)
                return
            if token is not None and not await self.limiter.hit(self.limits.writes, "write", token):
                await self._refuse(scope, send, self.limits.writes, "write", token)
                return

        async def watch_status(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in _AUTH_FAILURES:
                await self.limiter.hit(failures, "auth", address)
            await send(message)

        await self.app(scope, receive, watch_status if token is not None else send)


def _address(scope: Scope) -> str:
    """The client's address as the server sees it."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _bearer_digest(scope: Scope) -> str | None:
    """A digest of the token the request presents (the raw token is never kept): the
    bearer token, else a `token=` query parameter (pages of private tournaments)."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            return hashlib.sha256(value).hexdigest()
    for pair in bytes(scope.get("query_string", b"")).split(b"&"):
        if pair.startswith(b"token=") and len(pair) > len(b"token="):
            return hashlib.sha256(pair).hexdigest()
    return None


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}
