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
    idempotency_purge_minutes: float = 10.0
    """How often expired Idempotency-Key records are deleted in the background."""
    idempotency_min_key_length: int = 32
    """Shortest Idempotency-Key accepted on a request with no bearer token (an unguessable
    key is then the only thing that entitles a caller to the stored response)."""
    max_body_bytes: int = 1_000_000
    """Largest request body read (413 above); TRF and PBN uploads get `max_upload_bytes`."""
    max_upload_bytes: int = 5_000_000
    """Largest TRF or PBN text body."""
    retry_after_seconds: int = 5
    """`Retry-After` sent with 503 while the database is unreachable."""
    sql_echo: bool = False
    """Log SQL statements (debugging)."""


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings; tests build their own `Settings` instead."""
    return Settings()
