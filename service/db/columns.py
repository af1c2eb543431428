"""Statements run on the driver itself: on PostgreSQL, bulk reads of plain columns, for
the few reads whose row count is the tournament's size (a cold engine view reads every
game: 79,800 of them in a 400-player round-robin), and the one statement of every
reported result; on SQLite, the statements of every reported result in one trip to the
driver's thread (`driver_run_in_one_trip`).

SQLAlchemy wraps each driver row in a `Row` of its own, which for such a read costs as
much as the query itself; and the one statement of every reported result pays its
execution path (ORM context, bind processing, result metadata) on the busiest path of
all. On PostgreSQL the statement is therefore compiled once for the dialect and run through
asyncpg's own `fetch` on the session's connection (inside the same transaction), whose
records unpack like tuples; any other driver goes the ordinary way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVarTuple

from sqlalchemy import Select, TextClause
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.session import transaction_of

__all__ = [
    "driver_fetch_one",
    "driver_run_in_one_trip",
    "fetch_columns",
    "may_write",
]

Columns = TypeVarTuple("Columns")


def may_write(sql: str) -> bool:
    """Whether a statement may change something (all but SELECT)."""
    return sql.lstrip()[:6].upper() != "SELECT"


Statement = Select[*tuple[Any, ...]] | TextClause

Processor = Callable[[Any], Any]
_Compiled = tuple[str, tuple[str, ...], tuple[Processor | None, ...]]
_COMPILED: dict[tuple[Statement, str], _Compiled] = {}
"""(statement, dialect name) -> SQL text, its parameters' names in order, and each one's
bind processor for the dialect or None (SQLite's take them: JSON to text, datetimes to
SQLite's text form; asyncpg takes the values as they are). The statements are module
constants: a few entries."""


def _compiled(statement: Statement, dialect: Dialect) -> _Compiled:
    key = (statement, dialect.name)
    found = _COMPILED.get(key)
    if found is None:
        compiled = statement.compile(dialect=dialect)
        names = tuple(compiled.positiontup or ())
        processors = tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in names
        )
        found = _COMPILED[key] = (compiled.string, names, processors)
    return found


async def _on_driver(
    connection: AsyncConnection, statement: Statement, parameters: Mapping[str, Any]
) -> tuple[Any, str, list[Any]]:
    """asyncpg's connection under the session's, the statement's SQL for it, and the
    parameters in the order that SQL takes them."""
    sql, names, _ = _compiled(statement, connection.dialect)
    raw = await connection.get_raw_connection()
    return raw.driver_connection, sql, [parameters[n] for n in names]


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
    driver, sql, values = await _on_driver(connection, statement, parameters)
    records: Sequence[tuple[*Columns]] = await driver.fetch(sql, *values)
    return records


async def driver_fetch_one(
    session: AsyncSession, statement: TextClause, parameters: Mapping[str, Any]
) -> tuple[Any, ...]:
    """The one row of `statement` (a module-level constant, PostgreSQL only), run through
    asyncpg on the session's connection. The parameters go to the driver as they are:
    JSON ones as their text (SQLAlchemy's codec on every pooled connection takes it so).
    A write is counted in the transaction's `driver_writes`, where SQLAlchemy's
    execution events do not see it (`api.group_commit` counts a report's writes by
    both)."""
    driver, sql, values = await _on_driver(await session.connection(), statement, parameters)
    if may_write(sql):
        transaction_of(session).driver_writes += 1
    record: tuple[Any, ...] = await driver.fetchrow(sql, *values)
    return record


async def driver_run_in_one_trip(
    session: AsyncSession, steps: Sequence[tuple[TextClause, Mapping[str, Any]]]
) -> list[list[Any]]:
    """Every row of each statement of `steps` (module-level constants, SQLite only), run
    in order in one trip to the driver's thread (`OneTripConnection.run_statements`), in
    the session's transaction; each parameter converted as SQLAlchemy would for its
    type. The writes among them are added to the transaction's `driver_writes`."""
    connection = await session.connection()
    statements: list[tuple[str, list[Any]]] = []
    for statement, parameters in steps:
        sql, names, processors = _compiled(statement, connection.dialect)
        values = [
            parameters[name] if process is None else process(parameters[name])
            for name, process in zip(names, processors, strict=True)
        ]
        statements.append((sql, values))
    transaction_of(session).driver_writes += sum(may_write(sql) for sql, _ in statements)
    driver: Any = (await connection.get_raw_connection()).driver_connection
    answers: list[list[Any]] = await driver.run_statements(statements)
    return answers
