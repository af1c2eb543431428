"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

from tests.db_backends import BACKENDS, prepared_database

if TYPE_CHECKING:
    from service.db.session import SessionFactory

# Property tests: no per-example deadline (a shared CI machine is noisy) and, in CI,
# a fixed example sequence so a run is reproducible.
settings.register_profile("arbiter", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "arbiter")

# The live reader runs in a process of its own in production (service.live.reader); an
# app started per test would spawn one each, so the suite runs it on a thread, and the
# live tests with real servers (tests/live) run the process reader.
os.environ.setdefault("ARBITER_LIVE_READER", "thread")

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated empty database on each backend the suite runs (`db_backends.BACKENDS`:
    PostgreSQL when ARBITER_TEST_DATABASE_URL is set); a module or a test narrows the
    backends with `db_backends.on_backends`."""
    yield from prepared_database(request.param, tmp_path)


@pytest.fixture
async def sessions(database_url: str) -> AsyncIterator[SessionFactory]:
    """Sessions on `database_url`, as the app makes them (imported here: a run of the
    engine's tests loads no database library)."""
    from service.db.session import create_engine, create_session_factory

    engine = create_engine(database_url)
    try:
        yield create_session_factory(engine)
    finally:
        await engine.dispose()
