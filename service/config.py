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
    """Frames buffered per WebSocket client before it is resynchronised by snapshot."""
    live_history: int = 1024
    """Frames each process keeps per tournament for clients resuming with `?since=`."""
    live_heartbeat_seconds: float = 15.0
    """A `ping` message after this long without traffic on a live socket."""
    live_poll_seconds: float = 5.0
    """Each followed tournament's log is reread this often in case a notification was lost."""
    live_linger_seconds: float = 120.0
    """How long a process keeps following a tournament after its last spectator left."""
    live_reader: str = "process"
    """Where the live reader runs: "process" (its own process: standings computations
    never take the API's GIL) or "thread" (lighter; shares the GIL)."""
    reader_pool_size: int = 2
    """Connections of the live reader's own pool (spectators never use the writers' pool)."""
    idempotency_ttl_hours: int = 24
    """How long a stored Idempotency-Key response is replayed."""
    sql_echo: bool = False
    """Log SQL statements (debugging)."""


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings; tests build their own `Settings` instead."""
    return Settings()
