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
from fastapi import FastAPI
from starlette.types import Message

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
        # a token of this tournament passes the precheck; the announced 50 MB is then
        # refused by the size limit, still before it is read
        status, problem = await _send(server.address, path, event.players[3], chunked=False)
        assert status == 413, problem
        status, _ = await _send(
            server.address, path, event.organizer, chunked=False, body=b'{"result": "1-0"}'
        )
        assert status == 200
    finally:
        server.stop()


async def _answer_without_a_body(app: FastAPI, method: str, path: str) -> list[Message]:
    """What the app answers a request whose headers came and whose body never does."""
    answer: list[Message] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"arbiter.test"),
            (b"authorization", b"Bearer org_wrong"),
            (b"content-type", b"application/json"),
            (b"content-length", b"1000"),
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("arbiter.test", 80),
    }

    async def body_never_comes() -> Message:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        answer.append(message)

    async with asyncio.timeout(ANSWER_WITHIN):
        await app(scope, body_never_comes, send)
    return answer


async def test_a_bad_token_on_the_tournament_itself_is_refused_before_its_body(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """`PATCH` and `DELETE /v1/tournaments/{id}` need the organizer token as much as the
    writes below it: a bad one is 401 while the body has not even arrived."""
    event = await create_round_robin(client, PLAYERS, start=False)
    for method in ("PATCH", "DELETE"):
        answer = await _answer_without_a_body(app, method, f"/v1/tournaments/{event.id}")
        assert answer[0]["status"] == 401, answer
        assert json.loads(answer[1]["body"])["field"] == "Authorization"
