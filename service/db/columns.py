"""Bulk reads of plain columns, for the few reads whose row count is the tournament's
size (a cold engine view reads every game: 79,800 of them in a 400-player round-robin).

SQLAlchemy wraps each driver row in a `Row` of its own, which for such a read costs as
much as the query itself. On PostgreSQL the statement is therefore compiled once for
the dialect and run through asyncpg's own `fetch` on the session's connection (inside
the same transaction), whose records unpack like tuples; any other driver goes the
ordinary way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVarTuple

from sqlalchemy import Select
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

__all__ = ["fetch_columns"]

Columns = TypeVarTuple("Columns")

_COMPILED: dict[tuple[Select[*tuple[Any, ...]], str], tuple[str, tuple[str, ...]]] = {}
"""(statement, dialect name) -> SQL text and its parameters' names in order (the
statements are module constants: a few entries)."""


def _compiled(statement: Select[*tuple[Any, ...]], dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    key = (statement, dialect.name)
    found = _COMPILED.get(key)
    if found is None:
        compiled = statement.compile(dialect=dialect)
        found = (compiled.string, tuple(compiled.positiontup or ()))
        _COMPILED[key] = found
    return found


async def fetch_columns(
    connection: AsyncConnection,
    statement: Select[*Columns],
    parameters: Mapping[str, Any],
) -> Sequence[tuple[*Columns]]:
    """Every row of `statement` (a module-level constant with bound parameters), typed
    as the tuple of its columns: asyncpg's records on PostgreSQL (they index and unpack
    as that tuple does), SQLAlchemy's rows elsewhere."""
    if connection.dialect.driver != "asyncpg":
        return (await connection.execute(statement, dict(parameters))).all()
    sql, names = _compiled(statement, connection.dialect)
    raw = await connection.get_raw_connection()
    driver: Any = raw.driver_connection
    records: Sequence[tuple[*Columns]] = await driver.fetch(sql, *(parameters[n] for n in names))
    return records
