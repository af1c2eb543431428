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

This module is the one place that goes around SQLAlchemy's execution. It relies on the
compiled form of a statement (`positiontup`, `binds`), each type's bind processor, the
driver connection under SQLAlchemy's adapter and asyncpg's `fetch`/`fetchrow`
(`missing_internals` checks them); an engine made with the `driver_statements` setting
off (`create_engine(driver_statements=False)`, ARBITER_DRIVER_STATEMENTS=false) runs the
same statements through SQLAlchemy instead, as does a SQLite connection that is not a
`OneTripConnection`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVarTuple

from sqlalchemy import Select, TextClause
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.session import DRIVER_STATEMENTS, transaction_of
from service.db.sqlite_driver import OneTripConnection

__all__ = [
    "DRIVER_STATEMENTS",
    "driver_fetch_one",
    "driver_run_in_one_trip",
    "fetch_columns",
    "may_write",
    "missing_internals",
]

Columns = TypeVarTuple("Columns")


def _on_driver_allowed(connection: AsyncConnection) -> bool:
    """Whether the connection's engine lets this module go around SQLAlchemy."""
    return bool(connection.sync_engine.get_execution_options().get(DRIVER_STATEMENTS, True))


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


def _bound(
    statement: Statement, dialect: Dialect, parameters: Mapping[str, Any]
) -> tuple[str, list[Any]]:
    """The statement's SQL for `dialect`, and its parameters in the order that SQL takes
    them, each converted as SQLAlchemy would for its type (JSON to text, ...)."""
    sql, names, processors = _compiled(statement, dialect)
    values = [
        parameters[name] if process is None else process(parameters[name])
        for name, process in zip(names, processors, strict=True)
    ]
    return sql, values


async def fetch_columns(
    connection: AsyncConnection,
    statement: Select[*Columns],
    parameters: Mapping[str, Any],
) -> Sequence[tuple[*Columns]]:
    """Every row of `statement` (a module-level constant with bound parameters), typed
    as the tuple of its columns: asyncpg's records on PostgreSQL (they index and unpack
    as that tuple does), SQLAlchemy's rows elsewhere."""
    if connection.dialect.driver != "asyncpg" or not _on_driver_allowed(connection):
        return (await connection.execute(statement, dict(parameters))).all()
    sql, names, _ = _compiled(statement, connection.dialect)
    driver: Any = (await connection.get_raw_connection()).driver_connection
    records: Sequence[tuple[*Columns]] = await driver.fetch(sql, *(parameters[n] for n in names))
    return records


async def driver_fetch_one(
    session: AsyncSession, statement: TextClause, parameters: Mapping[str, Any]
) -> tuple[Any, ...]:
    """The one row of `statement` (a module-level constant, PostgreSQL only), run through
    asyncpg on the session's connection, each parameter converted as SQLAlchemy would
    for its type (JSON ones to their text, which SQLAlchemy's codec on every pooled
    connection takes). A write is counted in the transaction's `driver_writes`, where
    SQLAlchemy's execution events do not see it (`api.group_commit` counts a report's
    writes by both)."""
    connection = await session.connection()
    if not _on_driver_allowed(connection):
        return tuple((await connection.execute(statement, dict(parameters))).one())
    sql, values = _bound(statement, connection.dialect, parameters)
    driver: Any = (await connection.get_raw_connection()).driver_connection
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
    type. The writes among them are added to the transaction's `driver_writes`. Through
    SQLAlchemy, one statement after the other, where the driver is not a
    `OneTripConnection` or the engine says not to go around SQLAlchemy."""
    connection = await session.connection()
    driver = (await connection.get_raw_connection()).driver_connection
    if not isinstance(driver, OneTripConnection) or not _on_driver_allowed(connection):
        answers: list[list[Any]] = []
        for statement, parameters in steps:
            result = await connection.execute(statement, dict(parameters))
            answers.append(list(result.all()) if result.returns_rows else [])
        return answers
    statements = [
        _bound(statement, connection.dialect, parameters) for statement, parameters in steps
    ]
    transaction_of(session).driver_writes += sum(may_write(sql) for sql, _ in statements)
    return await driver.run_statements(statements)


def missing_internals() -> list[str]:
    """What this module uses of SQLAlchemy and asyncpg beyond executing statements that
    the installed versions lack (empty: everything is there). A non-empty list means an
    upgrade changed them: set ARBITER_DRIVER_STATEMENTS=false until this module follows."""
    import asyncpg
    from sqlalchemy import JSON, bindparam, text
    from sqlalchemy.engine import AdaptedConnection, make_url

    missing: list[str] = []
    probe = text("SELECT :value").bindparams(bindparam("value", type_=JSON))
    for url in ("postgresql+asyncpg://", "sqlite+aiosqlite://"):
        dialect = make_url(url).get_dialect()()
        compiled: Any = probe.compile(dialect=dialect)
        if list(getattr(compiled, "positiontup", None) or ()) != ["value"]:
            missing.append(f"{dialect.driver}: Compiled.positiontup")
        binds = getattr(compiled, "binds", {})
        if "value" not in binds or not callable(binds["value"].type.dialect_impl):
            missing.append(f"{dialect.driver}: Compiled.binds")
        elif binds["value"].type.dialect_impl(dialect).bind_processor(dialect) is None:
            missing.append(f"{dialect.driver}: JSON's bind processor")
    if not isinstance(getattr(AdaptedConnection, "driver_connection", None), property):
        missing.append("sqlalchemy AdaptedConnection.driver_connection")
    missing.extend(
        f"asyncpg Connection.{name}"
        for name in ("fetch", "fetchrow")
        if not callable(getattr(asyncpg.Connection, name, None))
    )
    return missing
