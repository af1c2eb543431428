"""What a database error says, read through its wrappers (SQLAlchemy's error, the
adapter's, the driver's): the layers above decide what to answer."""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["LOCK_NOT_AVAILABLE", "error_chain", "is_lock_timeout", "is_not_migrated", "sqlstate"]

LOCK_NOT_AVAILABLE = "55P03"
"""PostgreSQL: a lock held past `lock_timeout` (another write holds what this one needs)."""

_NOT_MIGRATED_SQLSTATES = ("42P01", "42703")
"""PostgreSQL: undefined table, undefined column."""
_NOT_MIGRATED_MESSAGES = ("no such table", "no such column", "has no column named")
"""SQLite's words for the same."""


def error_chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and what it wraps (the driver's error, its cause or context), eight deep."""
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return
        yield seen
        seen = getattr(seen, "orig", None) or seen.__cause__ or seen.__context__


def sqlstate(exc: BaseException) -> str:
    """PostgreSQL's SQLSTATE of one error of the chain, or ""."""
    return str(getattr(exc, "sqlstate", "") or "")


def is_not_migrated(exc: BaseException) -> bool:
    """True when `exc` says a table or column of this release's schema is missing: the
    database was never migrated, or only for an older release (`db.schema`)."""
    return any(
        sqlstate(seen) in _NOT_MIGRATED_SQLSTATES
        or any(text in str(seen).lower() for text in _NOT_MIGRATED_MESSAGES)
        for seen in error_chain(exc)
    )


def is_lock_timeout(exc: BaseException) -> bool:
    """True when a PostgreSQL statement gave up waiting for a lock (`lock_timeout`)."""
    return any(sqlstate(seen) == LOCK_NOT_AVAILABLE for seen in error_chain(exc))
