"""Databases the suite runs against: SQLite always, PostgreSQL when
ARBITER_TEST_DATABASE_URL is set (CI sets it). The suite's `database_url` fixture
(tests/conftest.py) gives one of each; `on_backends` narrows it for a module or a test.
Nothing here loads a database library until a database is prepared, so the root
conftest may import it for every run."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["BACKENDS", "Backend", "on_backends", "postgres_url", "prepared_database"]

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("ARBITER_TEST_DATABASE_URL") else [])
Backend = str


def on_backends(*backends: Backend) -> pytest.MarkDecorator:
    """Run a test (or, as `pytestmark`, a module) on these of the suite's backends only:
    the `database_url` fixture parametrized with them (a backend the suite does not run
    leaves the test uncollected, "got empty parameter set")."""
    chosen = [backend for backend in BACKENDS if backend in backends]
    return pytest.mark.parametrize("database_url", chosen, indirect=True)


def _migrate(url: str) -> None:
    from service.db.migrate import upgrade

    upgrade(url)


def postgres_url() -> str:
    """The PostgreSQL server the tests may create databases on."""
    return os.environ["ARBITER_TEST_DATABASE_URL"]


def _with_database(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


async def _admin(url: str, statement: str) -> None:
    import asyncpg

    dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


class _Template:
    """A migrated SQLite file copied per test (migrating once keeps the suite fast)."""

    path: Path | None = None


def prepared_database(backend: Backend, tmp_path: Path) -> Iterator[str]:
    """Yield the URL of a migrated, empty database for one test, and clean it up."""
    if backend == "sqlite":
        if _Template.path is None or not _Template.path.exists():
            template = (
                Path(os.environ.get("TMPDIR", "/tmp")) / f"arbiter-template-{uuid.uuid4().hex}.db"
            )
            _migrate(f"sqlite+aiosqlite:///{template}")
            _Template.path = template
        target = tmp_path / "arbiter.db"
        shutil.copy(_Template.path, target)
        yield f"sqlite+aiosqlite:///{target}"
        return
    yield _Postgres.database()


class _Postgres:
    """One migrated database per test session; tests create their own tournaments, so
    they never see each other's rows. Dropped when the session ends."""

    url: str | None = None

    @classmethod
    def database(cls) -> str:
        if cls.url is None:
            server = postgres_url()
            name = f"arbiter_test_{uuid.uuid4().hex[:12]}"
            asyncio.run(_admin(server, f'CREATE DATABASE "{name}"'))
            cls.url = _with_database(server, name)
            _migrate(cls.url)
            atexit.register(cls._drop, server, name)
        return cls.url

    @staticmethod
    def _drop(server: str, name: str) -> None:
        asyncio.run(_admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
