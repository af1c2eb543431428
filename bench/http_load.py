"""A light HTTP/1.1 load client for the benchmarks: one keep-alive connection per
simulated client, requests written and responses read with asyncio streams.

Why not httpx: on this 2-core machine the load client shares the cores with the server
and the database. httpx's shared connection pool costs milliseconds of CPU per request
once 50 requests are in flight (a bare FastAPI + asyncpg insert measured 150 req/s through
one httpx client with 50 connections, 650 req/s with one httpx client per simulated client
and about 2,000 req/s through this one), so the benchmarks measured their own client.
This client does only what the benchmarks need: JSON bodies, Content-Length or chunked
responses, and a reconnect when the server closes a kept-alive connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage-collector pass in this (load) process while the block runs: what lives
    now is collected and frozen first, and the collector is turned back on after.

    A load process holds every connection and every latency it records, and CPython's
    full pass walks them all: `bench_writes.py`'s client paused 61-72 ms three times in
    a 15-second run (a probe of its collector, 2026-11-27), and every response that came
    in meanwhile was timed as late as the pause, on the server's account. The timed
    phases run with the collector off, as timing harnesses usually do; they are short
    (seconds) and make few reference cycles."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


class LoadConnection:
    """One keep-alive connection to `host:port`; `request` sends one request and returns
    the status and the body. Not for concurrent use: one per simulated client."""

    def __init__(self, host: str, port: int) -> None:
        self._host = host
        self._port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    @classmethod
    def to(cls, base: str) -> LoadConnection:
        """A connection to a base URL such as `http://127.0.0.1:8000`."""
        host, _, port = base.removeprefix("http://").rstrip("/").rpartition(":")
        return cls(host, int(port))

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        *,
        resend: bool = True,
    ) -> tuple[int, bytes]:
        """Send one request (a JSON body when `body` is not None); raises ConnectionError
        when the connection fails, as httpx raises TransportError. A kept-alive
        connection the server had closed is opened again and the request sent once more,
        unless `resend` is False (a write without an Idempotency-Key)."""
        payload = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"host: {self._host}"]
        if body is not None:
            lines.append("content-type: application/json")
        lines.append(f"content-length: {len(payload)}")
        lines.extend(f"{name}: {value}" for name, value in (headers or {}).items())
        head = ("\r\n".join(lines) + "\r\n\r\n").encode()
        reused = self._writer is not None
        if not reused:
            await self._connect()
        try:
            return await self._exchange(head + payload)
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            self.close()
            if not reused or not resend:
                raise ConnectionError(str(exc)) from exc
        # a kept-alive connection the server had closed while idle: once more, on a new one
        # (a write sent again carries an Idempotency-Key, so a resend is never a double)
        await self._connect()
        try:
            return await self._exchange(head + payload)
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            self.close()
            raise ConnectionError(str(exc)) from exc

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self._host, self._port)

    async def _exchange(self, raw: bytes) -> tuple[int, bytes]:
        assert self._reader is not None and self._writer is not None
        self._writer.write(raw)
        await self._writer.drain()
        head = await self._reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        fields = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in header_lines if line)
        }
        if fields.get("transfer-encoding", "").lower() == "chunked":
            content = await self._read_chunked()
        else:
            content = await self._reader.readexactly(int(fields.get("content-length", "0")))
        if fields.get("connection", "").lower() == "close":
            self.close()
        return status, content

    async def _read_chunked(self) -> bytes:
        assert self._reader is not None
        parts: list[bytes] = []
        while True:
            size = int((await self._reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self._reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self._reader.readexactly(size))
            await self._reader.readexactly(2)

    def close(self) -> None:
        """Close the socket; the next request opens a new one."""
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
