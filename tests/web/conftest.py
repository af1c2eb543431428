"""Browser tests of the wall screens: a real uvicorn process on a loopback port (so a test
can kill and restart it on the same port and database file) and a headless Chromium
driven by Playwright.

The browser is the distribution's Chromium (`make browser` installs the Debian packages
chromium and chromium-driver when they are missing); Playwright never downloads one.
`ARBITER_CHROMIUM` names another executable.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import BrowserContext, ConsoleMessage, Error, Page, async_playwright

from service.db.migrate import upgrade

REPO_ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30.0
"""How long a server process may take to answer /healthz."""

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    """The Chromium executable; a missing browser fails the tests (never a skip)."""
    configured = os.environ.get("ARBITER_CHROMIUM")
    found = configured or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found or not Path(found).exists():
        raise RuntimeError(
            "Chromium not found: run `make browser` (Debian packages chromium and "
            "chromium-driver) or set ARBITER_CHROMIUM"
        )
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ServerProcess:
    """`uvicorn service.api.app:create_app` in its own process, on a fixed port."""

    database_url: str
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "ARBITER_DATABASE_URL": self.database_url}
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            "service.api.app:create_app",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--log-level",
            "warning",
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base_url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """Stop the process at once (SIGKILL): no graceful close of any socket."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty migrated SQLite file, made once and copied by every server."""
    path = tmp_path_factory.mktemp("web-template") / "arbiter.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return path


def _server(migrated: Path, folder: Path) -> Iterator[ServerProcess]:
    """A server process on its own copy of the migrated database (the page's behaviour
    does not depend on the database; the live feed on PostgreSQL is covered by tests/live)."""
    database = folder / "arbiter.db"
    shutil.copy(migrated, database)
    process = ServerProcess(f"sqlite+aiosqlite:///{database}", folder / "server.log")
    process.start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def server(migrated: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for a module's tests (each test makes its own tournaments)."""
    yield from _server(migrated, tmp_path_factory.mktemp("web-server"))


@pytest.fixture
def own_server(migrated: Path, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test alone, for tests that kill and restart it."""
    yield from _server(migrated, tmp_path)


@pytest.fixture
async def api(server: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
        yield client


@dataclass
class Browser:
    """A page plus what went wrong in it: uncaught errors and policy violations."""

    page: Page
    errors: list[str]

    def check(self) -> None:
        assert self.errors == [], self.errors


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Browser]:
    """A fresh headless Chromium (own user-data-dir) with a 1280x720 page."""
    async with async_playwright() as playwright:
        context: BrowserContext = await playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=chromium_path(),
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 720},
        )
        context.set_default_timeout(20_000)
        page = context.pages[0] if context.pages else await context.new_page()
        errors: list[str] = []

        def on_console(message: ConsoleMessage) -> None:
            if "Content Security Policy" in message.text or "Uncaught" in message.text:
                errors.append(message.text)

        def on_error(error: Error) -> None:
            errors.append(f"page error: {error}")

        page.on("console", on_console)
        page.on("pageerror", on_error)
        try:
            yield Browser(page, errors)
        finally:
            await context.close()


@dataclass
class Tournament:
    """A created chess tournament and its organizer token."""

    id: str
    organizer: str

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.organizer}"}


async def create_tournament(
    api: httpx.AsyncClient,
    players: list[tuple[str, int]],
    *,
    start: bool,
    name: str = "Club championship",
    **settings: Any,
) -> Tournament:
    """Create a round-robin (unless `settings` say otherwise) and register `players`."""
    created = await api.post(
        "/v1/tournaments", json={"name": name, "system": "round-robin", **settings}
    )
    assert created.status_code == 201, created.text
    tournament = Tournament(created.json()["id"], created.json()["organizer_token"])
    for player, rating in players:
        await register(api, tournament, player, rating)
    if start:
        started = await api.post(
            f"/v1/tournaments/{tournament.id}/start", headers=tournament.auth()
        )
        assert started.status_code == 200, started.text
    return tournament


async def register(api: httpx.AsyncClient, tournament: Tournament, name: str, rating: int) -> None:
    response = await api.post(
        f"/v1/tournaments/{tournament.id}/players",
        json={"name": name, "rating": rating},
        headers=tournament.auth(),
    )
    assert response.status_code == 201, response.text


async def report(
    api: httpx.AsyncClient, tournament: Tournament, round_number: int, table: int, result: str
) -> dict[str, Any]:
    response = await api.put(
        f"/v1/tournaments/{tournament.id}/rounds/{round_number}/games/{table}/result",
        json={"result": result},
        headers=tournament.auth(),
    )
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()
    return game


async def round_games(
    api: httpx.AsyncClient, tournament: Tournament, round_number: int
) -> list[dict[str, Any]]:
    response = await api.get(f"/v1/tournaments/{tournament.id}/rounds/{round_number}")
    assert response.status_code == 200, response.text
    games: list[dict[str, Any]] = response.json()["games"]
    return games
