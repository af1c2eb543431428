"""The async database engine and session factory (DESIGN: known pitfalls)."""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry
from sqlmodel.ext.asyncio.session import AsyncSession

__all__ = ["SessionFactory", "create_engine", "create_session_factory"]

SessionFactory = async_sessionmaker[AsyncSession]


def create_engine(url: str, *, echo: bool = False) -> AsyncEngine:
    """An async engine; SQLite gets foreign keys on and a busy timeout for writers."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, echo=echo, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cursor = conn.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    return create_async_engine(url, echo=echo, pool_pre_ping=True)


def create_session_factory(engine: AsyncEngine) -> SessionFactory:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
