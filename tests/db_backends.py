"""Databases the suite runs against: SQLite always, PostgreSQL when
ARBITER_TEST_DATABASE_URL is set (CI sets it)."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

from service.db.migrate import upgrade

__all__ = ["BACKENDS", "Backend", "postgres_url", "prepared_database"]

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("ARBITER_TEST_DATABASE_URL") else [])
Backend = str


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
            upgrade(f"sqlite+aiosqlite:///{template}")
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
            upgrade(cls.url)
            atexit.register(cls._drop, server, name)
        return cls.url

    @staticmethod
    def _drop(server: str, name: str) -> None:
        asyncio.run(_admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
