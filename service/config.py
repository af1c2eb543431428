"""Settings from the environment (prefix ARBITER_), via pydantic-settings."""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "get_settings"]


class Settings(BaseSettings):
    """Service configuration; every field can be set as ARBITER_<NAME>."""

    model_config = SettingsConfigDict(env_prefix="ARBITER_", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./arbiter.db"
    """SQLAlchemy async URL: SQLite (embedded default) or postgresql+asyncpg://..."""
    live_queue_size: int = 256
    """Messages buffered per WebSocket client before it is resynchronised by snapshot."""
    idempotency_ttl_hours: int = 24
    """How long a stored Idempotency-Key response is replayed."""
    sql_echo: bool = False
    """Log SQL statements (debugging)."""
    cors_origins: list[str] = []
    """Browser origins allowed to call the API (CORS), e.g. `["https://club.example"]`;
    `["*"]` allows any origin. Empty (the default): no cross-origin access."""


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings; tests build their own `Settings` instead."""
    return Settings()
