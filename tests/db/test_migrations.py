"""The migrations create exactly what the models describe (alembic check), on every
backend the suite runs."""

from __future__ import annotations

from service.db.migrate import check


def test_models_match_migrations(database_url: str) -> None:
    check(database_url)  # raises when a model changed without a migration
