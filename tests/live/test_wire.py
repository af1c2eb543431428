"""Frames built once for every socket (RFC 6455 5.2), read back by the websockets
library's own parser, and the server's direct path found only where it is sound."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from websockets.frames import Close, Frame, Opcode
from websockets.streams import StreamReader

from service.live.wire import CLOSE_REASON_BYTES, close_reason, direct_socket, text_frame


def _parse(data: bytes) -> tuple[Frame, int]:
    """One unmasked frame as a client parses it, and the bytes left after it."""
    reader = StreamReader()
    reader.feed_data(data)
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frame: Frame = done.value
        return frame, len(reader.buffer)
    raise AssertionError("the frame is incomplete")


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65_535, 65_536, 200_000])
def test_every_length_encoding_reads_back(size: int) -> None:
    text = ("é" + "x" * size)[:size] if size else ""
    frame, left = _parse(text_frame(text))
    assert (frame.opcode, frame.fin, left) == (Opcode.TEXT, True, 0)
    assert bytes(frame.data).decode() == text


def test_length_field_widths() -> None:
    # 7 bits up to 125, then 126 + 16 bits, then 127 + 64 bits (RFC 6455 5.2)
    assert text_frame("x" * 125)[:2] == bytes([0x81, 125])
    assert text_frame("x" * 126)[:4] == bytes([0x81, 126, 0, 126])
    assert text_frame("x" * 65_536)[:10] == bytes([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])


class WebSocketsSansIOProtocol:
    """Shaped like uvicorn's protocol, by name and by the attributes the path reads."""

    def __init__(self, extensions: list[object]) -> None:
        self.conn = SimpleNamespace(extensions=extensions)
        self.handshake_complete = True
        self.close_sent = False
        self.disconnected = False
        self.paused = False
        self.closing = False
        self.written: list[bytes] = []
        self.writable = SimpleNamespace(is_set=lambda: not self.paused)
        self.transport = SimpleNamespace(is_closing=lambda: self.closing, write=self.written.append)

    async def asgi_send(self, _message: object) -> None:
        return None


def test_direct_path_only_without_extensions() -> None:
    plain = WebSocketsSansIOProtocol([])
    assert direct_socket(plain.asgi_send) is not None
    compressed = WebSocketsSansIOProtocol([object()])  # per-message deflate rewrites payloads
    assert direct_socket(compressed.asgi_send) is None

    async def wrapped(_message: object) -> None:  # a middleware's send: not the protocol
        return None

    assert direct_socket(wrapped) is None


@pytest.mark.parametrize(
    "state",
    ["open", "handshaking", "close sent", "disconnected", "paused", "transport closing"],
)
def test_a_frame_is_put_only_on_a_connection_that_takes_it_now(state: str) -> None:
    protocol = WebSocketsSansIOProtocol([])
    direct = direct_socket(protocol.asgi_send)
    assert direct is not None
    protocol.handshake_complete = state != "handshaking"
    protocol.close_sent = state == "close sent"  # nothing may follow a close (RFC 6455 5.5.1)
    protocol.disconnected = state == "disconnected"
    protocol.paused = state == "paused"  # above the high-water mark: the waiting send
    protocol.closing = state == "transport closing"
    frame = text_frame("x")
    assert direct.put(frame) is (state == "open")
    assert protocol.written == ([frame] if state == "open" else [])


@pytest.mark.parametrize(
    "text",
    ["", "no tournament 'x'", "x" * 123, "x" * 124, "é" * 62, "é" * 80, "x" + "🏆" * 40],
)
def test_a_close_reason_fits_a_close_frame(text: str) -> None:
    """Cut to 123 bytes of UTF-8 between two characters (RFC 6455 5.5), and taken by the
    websockets library's own close frame; a reason that fits is kept whole."""
    reason = close_reason(text)
    assert len(reason.encode()) <= CLOSE_REASON_BYTES
    assert text.startswith(reason)
    assert reason == text or len(reason.encode()) > CLOSE_REASON_BYTES - 4
    Frame(Opcode.CLOSE, Close(4404, reason).serialize()).check()
