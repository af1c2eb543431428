"""Messages framed once and written straight to each spectator's socket: one encoded
frame per event, fanned out from memory (docs/decisions/one-frame-per-event.md).

RFC 6455 5.2: a server never masks its frames, so the bytes of one message are the same
on every connection: a first byte of FIN and opcode 1 (text), the payload length (7
bits; or 126 and 16 bits; or 127 and 64 bits), then the UTF-8 payload. The hub frames a
message once and hands the same bytes to every caught-up spectator's transport, which
skips, per socket and per message, the ASGI send path (Starlette, uvicorn's protocol,
the websockets library's framing) that would otherwise cost more than the write itself.

That is only sound when nothing rewrites the payload on the way out, so it is taken for
connections served by uvicorn's sans-I/O websockets protocol with no extension
negotiated (`arbiter serve` turns per-message compression off). Any other server,
protocol or extension gets `None` from `direct_socket` and the ordinary send.
"""

from __future__ import annotations

import struct
from typing import Any

__all__ = [
    "CLOSE_REASON_BYTES",
    "SERVER_SEND",
    "DirectSocket",
    "ServerSendMiddleware",
    "close_reason",
    "direct_socket",
    "text_frame",
]

SERVER_SEND = "arbiter.server_send"
"""Scope key of a WebSocket's ASGI send as the server gave it (`ServerSendMiddleware`)."""

_FIN_TEXT = 0x81
"""FIN set, opcode 1: a whole text message in one frame (RFC 6455 5.2, 5.6)."""


CLOSE_REASON_BYTES = 123
"""The longest close reason, in bytes of UTF-8: a control frame carries at most 125
bytes (RFC 6455 5.5), two of them the close code (5.5.1)."""


def close_reason(text: str) -> str:
    """`text` cut to `CLOSE_REASON_BYTES` of UTF-8 between two characters, so that any
    reason, an id of the client's in it included, fits a close frame."""
    data = text.encode()
    if len(data) <= CLOSE_REASON_BYTES:
        return text
    return data[:CLOSE_REASON_BYTES].decode(errors="ignore")


def text_frame(text: str) -> bytes:
    """The unmasked server frame carrying `text` as one message (RFC 6455 5.2)."""
    payload = text.encode()
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", _FIN_TEXT, size)
    elif size < 1 << 16:
        head = struct.pack("!BBH", _FIN_TEXT, 126, size)
    else:
        head = struct.pack("!BBQ", _FIN_TEXT, 127, size)
    return head + payload


class DirectSocket:
    """The transport under one accepted WebSocket, for frames built by `text_frame`."""

    __slots__ = ("_protocol", "_transport")

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol
        self._transport = protocol.transport

    def put(self, frame: bytes) -> bool:
        """Write a whole frame if it goes out now, in order and without waiting: the
        handshake is done, no close was sent or received, and the transport is neither
        closing nor paused by its high-water mark. False, and nothing written, otherwise
        (a slow reader takes the ordinary, waiting send). One call per spectator and
        update in a fan-out, so the checks and the write are made in one step."""
        protocol = self._protocol
        if (
            protocol.close_sent
            or protocol.disconnected
            or not protocol.handshake_complete
            or not protocol.writable.is_set()
        ):
            return False
        transport = self._transport
        if transport.is_closing():
            return False
        transport.write(frame)
        return True

    @property
    def transport(self) -> Any:
        """The connection's asyncio transport."""
        return self._transport


def direct_socket(send: Any) -> DirectSocket | None:
    """The direct path for an accepted WebSocket whose ASGI `send` is uvicorn's sans-I/O
    protocol with no extension (compression) negotiated, else None."""
    protocol = getattr(send, "__self__", None)
    if type(protocol).__name__ != "WebSocketsSansIOProtocol":
        return None
    conn = getattr(protocol, "conn", None)
    required = ("handshake_complete", "close_sent", "disconnected", "writable", "transport")
    if (
        conn is None
        or getattr(conn, "extensions", None)
        or not all(hasattr(protocol, name) for name in required)
    ):
        return None
    return DirectSocket(protocol)


class ServerSendMiddleware:
    """The outermost middleware: keeps a WebSocket's ASGI send as the server gave it in
    the scope (`SERVER_SEND`), before the middleware and Starlette's exception handling
    wrap it, so the live route can find the protocol under it (`direct_socket`). The
    entry goes when the connection ends: the protocol holds the scope, and a bound
    method of it left there would keep the whole connection in a reference cycle that
    only a full collection frees (`service.heap`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        scope[SERVER_SEND] = send
        try:
            await self.app(scope, receive, send)
        finally:
            scope.pop(SERVER_SEND, None)
