"""The async database engine and session factory (DESIGN: known pitfalls)."""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry
from sqlmodel.ext.asyncio.session import AsyncSession

__all__ = ["SessionFactory", "create_engine", "create_session_factory"]

SessionFactory = async_sessionmaker[AsyncSession]


def create_engine(url: str, *, echo: bool = False, pool_size: int | None = None) -> AsyncEngine:
    """An async engine; SQLite gets foreign keys on and a busy timeout for writers.

    `pool_size` sizes a dedicated pool with no overflow (the live reader's: DESIGN, Live
    standings); without it the default pool serves the API's requests.
    """
    sizing: dict[str, int] = {}
    if pool_size is not None and ":memory:" not in url:
        sizing = {"pool_size": pool_size, "max_overflow": 0}
    if url.startswith("sqlite"):
        engine = create_async_engine(url, echo=echo, connect_args={"timeout": 30}, **sizing)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cursor = conn.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    return create_async_engine(url, echo=echo, pool_pre_ping=True, **sizing)


def create_session_factory(engine: AsyncEngine) -> SessionFactory:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
