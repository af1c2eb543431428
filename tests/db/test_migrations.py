"""The migrations create exactly what the models describe (alembic check), on every
backend the suite runs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.db.migrate import check
from tests.db_backends import BACKENDS, prepared_database


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from prepared_database(request.param, tmp_path)


def test_models_match_migrations(database_url: str) -> None:
    check(database_url)  # raises when a model changed without a migration
