"""Apply and check the Alembic migrations (`migrations/`, shipped in the package as
`service.migrations`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config

__all__ = ["alembic_config", "check", "upgrade"]


def _migrations() -> Path:
    """The Alembic folder: the package `service.migrations` as installed (pyproject maps
    it to the top-level `migrations/`), else `migrations/` beside the package in a
    source checkout that is imported without being installed."""
    try:
        return Path(str(resources.files("service.migrations")))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(database_url: str) -> Config:
    """An alembic Config for `database_url`, without an alembic.ini on disk."""
    config = Config()
    config.set_main_option("script_location", str(_migrations()))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database schema up to `revision` (a release step, not per replica)."""
    command.upgrade(alembic_config(database_url), revision)


def check(database_url: str) -> None:
    """Raise if the models differ from what the migrations create (alembic check)."""
    command.check(alembic_config(database_url))
