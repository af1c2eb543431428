"""Real `uvicorn` server processes for crash tests (a SIGKILL needs its own process)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from dataclasses import dataclass

import httpx

from service.db.events import events_since
from service.db.session import create_engine, create_session_factory
from service.db.tables import EventRow
from tests.live.conftest import free_port

__all__ = ["ServerProcess", "logged_events", "start_process"]


@dataclass
class ServerProcess:
    """A running server; `address` is host:port."""

    process: subprocess.Popen[bytes]
    address: str

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup, open transactions die with the process."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop gracefully (SIGTERM), or kill after 10 s."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


async def start_process(database_url: str, **settings: str) -> ServerProcess:
    """Start `uvicorn --factory service.api.app:create_app` on a free loopback port and
    wait until /healthz answers."""
    port = free_port()
    env = {**os.environ, "ARBITER_DATABASE_URL": database_url}
    env.update({f"ARBITER_{k.upper()}": v for k, v in settings.items()})
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "service.api.app:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=env,
    )
    server = ServerProcess(process, f"127.0.0.1:{port}")
    async with httpx.AsyncClient(base_url=f"http://{server.address}") as client:
        for _ in range(300):
            if process.poll() is not None:
                raise RuntimeError(f"server exited with {process.returncode}")
            try:
                if (await client.get("/healthz")).status_code == 200:
                    return server
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)
    server.kill()
    raise RuntimeError("server did not start")


async def logged_events(database_url: str, tournament_id: str) -> list[EventRow]:
    """A tournament's event log, read with an engine of the test's own once the servers
    are gone."""
    engine = create_engine(database_url)
    try:
        async with create_session_factory(engine)() as session:
            return list(await events_since(session, tournament_id, 0))
    finally:
        await engine.dispose()
