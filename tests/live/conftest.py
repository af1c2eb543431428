"""A real uvicorn server on a loopback port, for WebSocket tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
import uvicorn

from service.api.app import create_app
from service.config import Settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def start_server(
    database_url: str, *, deflate: bool = False, **settings: object
) -> tuple[uvicorn.Server, asyncio.Task[None], str]:
    """Start uvicorn in this event loop; returns (server, task, base URL). Sockets as
    `arbiter serve` sets them up (no per-message compression) unless `deflate`."""
    port = free_port()
    settings.setdefault("live_reader", "process")  # as `arbiter serve` runs it
    app = create_app(Settings(database_url=database_url, **settings))  # type: ignore[arg-type]
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        ws_per_message_deflate=deflate,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(200):
        if server.started:
            break
        await asyncio.sleep(0.02)
    assert server.started, "uvicorn did not start"
    return server, task, f"127.0.0.1:{port}"


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until `condition()` holds, looking every 20 ms; AssertionError after
    `timeout` seconds."""
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition never met")


async def stop_server(server: uvicorn.Server, task: asyncio.Task[None]) -> None:
    server.should_exit = True
    await asyncio.wait_for(task, timeout=10)


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[str]:
    """A running server; yields `host:port`."""
    srv, task, address = await start_server(database_url)
    try:
        yield address
    finally:
        await stop_server(srv, task)


@pytest.fixture
async def http(server: str) -> AsyncIterator[httpx.AsyncClient]:
    # a guard, not a measurement: a loaded 2-core CI machine can stall a request for
    # longer than httpx's default 5 s
    async with httpx.AsyncClient(base_url=f"http://{server}", timeout=30) as client:
        yield client


ARBITER = "import sys; from service.cli import main; sys.exit(main(sys.argv[1:]))"

REDIS_URL = os.environ.get("ARBITER_TEST_REDIS_URL", "")
"""The Redis server the Redis bus is tested on (CI sets it; unset, those tests skip)."""
needs_redis = pytest.mark.skipif(
    not REDIS_URL, reason="ARBITER_TEST_REDIS_URL is not set (no Redis to test the Redis bus on)"
)


@contextlib.asynccontextmanager
async def serve_process(
    database_url: str, *args: str, env: dict[str, str] | None = None
) -> AsyncIterator[str]:
    """`arbiter serve` as its own process (a replica), with `env` added to this one's
    environment; yields `host:port`."""
    port = free_port()
    env = {**os.environ, **(env or {}), "ARBITER_DATABASE_URL": database_url}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        ARBITER,
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
        *args,
        env=env,
    )
    address = f"127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}") as client:
            for _ in range(300):
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/healthz")).status_code == 200:
                        break
                assert process.returncode is None, "the replica exited"
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the replica did not start")
        yield address
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()
