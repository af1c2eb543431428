"""Tokens checked before bodies are read, against a real server (docs/api.md#limits): a
50 MB body with a bad token is refused before it is parsed.

The client announces a 50 MB body (or streams one without a length), sends the headers
and a first 64 KB, and then waits: the server must answer 401 from the headers alone,
without waiting for (or reading) the rest. The same request with the right token is
served once its body arrives.
"""

from __future__ import annotations

import asyncio
import json

import httpx

from tests.api.conftest import create_round_robin
from tests.api.processes import start_process

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
HUGE = 50_000_000
FIRST = 64 * 1024
ANSWER_WITHIN = 30.0
"""Seconds to wait for an answer before failing (a hang, not a speed bound)."""


async def _send(
    address: str, path: str, token: str, *, chunked: bool, body: bytes | None = None
) -> tuple[int, dict[str, object]]:
    """Send headers and the first part of a request; return the status and problem
    document the server answered with, never sending more than `FIRST` bytes of body
    (or `body` whole when given)."""
    host, _, port = address.partition(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        length = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % HUGE
        if body is not None:
            length = b"Content-Length: %d" % len(body)
        writer.write(
            b"PUT %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"
            b"Content-Type: application/json\r\n%s\r\n\r\n"
            % (path.encode(), address.encode(), token.encode(), length)
        )
        if body is not None:
            writer.write(body)
        elif chunked:
            writer.write(b"%x\r\n%s\r\n" % (FIRST, b"x" * FIRST))
        else:
            writer.write(b"x" * FIRST)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), ANSWER_WITHIN)
        headers: dict[str, str] = {}
        while (line := await asyncio.wait_for(reader.readline(), ANSWER_WITHIN)) not in (
            b"\r\n",
            b"",
        ):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        content = await asyncio.wait_for(
            reader.readexactly(int(headers["content-length"])), ANSWER_WITHIN
        )
        return int(status_line.split()[1]), json.loads(content)
    finally:
        writer.close()


async def test_a_bad_token_with_a_huge_body_is_refused_from_the_headers(
    database_url: str,
) -> None:
    server = await start_process(database_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.address}") as http:
            event = await create_round_robin(http, PLAYERS)
            other = await create_round_robin(http, PLAYERS, start=False)
        path = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
        for token in ("org_wrong", other.organizer):
            for chunked in (False, True):
                status, problem = await _send(server.address, path, token, chunked=chunked)
                assert status == 401, problem
                assert problem["field"] == "Authorization"
        # a token of this tournament passes the gate; the announced 50 MB is then
        # refused by the size limit, still before it is read
        status, problem = await _send(server.address, path, event.players[3], chunked=False)
        assert status == 413, problem
        status, _ = await _send(
            server.address, path, event.organizer, chunked=False, body=b'{"result": "1-0"}'
        )
        assert status == 200
    finally:
        server.stop()
