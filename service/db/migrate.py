"""Apply and check the alembic migrations shipped inside the package."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

__all__ = ["alembic_config", "check", "upgrade"]

_MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"


def alembic_config(database_url: str) -> Config:
    """An alembic Config for `database_url`, without an alembic.ini on disk."""
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database schema up to `revision` (a release step, not per replica)."""
    command.upgrade(alembic_config(database_url), revision)


def check(database_url: str) -> None:
    """Raise if the models differ from what the migrations create (alembic check)."""
    command.check(alembic_config(database_url))
