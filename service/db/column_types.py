"""Column types and defaults every table module shares (`db.tables`, `db.bridge_tables`).

They sit apart from the tables so that a table module imports no other table module
for them: `db.tables` registers the bridge tables by importing `db.bridge_tables`, which
therefore cannot import `db.tables` back.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON
from sqlalchemy.dialects.postgresql import JSONB

__all__ = ["JSONType", "utcnow"]

JSONType = JSON().with_variant(JSONB(), "postgresql")
"""JSON, stored as JSONB on PostgreSQL."""


def utcnow() -> datetime:
    """Now, timezone-aware UTC (SQLModel's UTC type stores it safely on SQLite too)."""
    return datetime.now(UTC)
