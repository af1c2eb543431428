"""SQLite statements in one trip to the driver's thread (db/sqlite_driver.py), through
the engine the service builds (db/session.py): what each statement returns is what
sqlite3 gives, and a statement, a commit or a result PUT costs the trips counted. The
same statements behave alike on aiosqlite's own connection, the engine's fallback
(`sqlite_one_trip_driver=False`), and the aiosqlite internals the driver builds on are
checked to be there."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiosqlite
import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from service.api.app import create_app
from service.config import Settings
from service.db.session import create_engine
from service.db.sqlite_driver import OneTripConnection, missing_internals
from tests.api.conftest import create_round_robin
from tests.db_backends import prepared_database


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every call queued on an aiosqlite connection's thread by this test's event loop
    (not the live reader's, on a thread of its own), by the function's name."""
    trips: list[str] = []
    original = aiosqlite.Connection._execute
    here = threading.current_thread()

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is here:
            trips.append(str(getattr(fn, "__name__", None) or fn.func.__name__))
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    yield trips


async def _engine_with_a_table(path: Path, *, one_trip: bool) -> AsyncEngine:
    built = create_engine(f"sqlite+aiosqlite:///{path}", sqlite_one_trip_driver=one_trip)
    async with built.begin() as conn:
        await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)"))
    return built


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    built = await _engine_with_a_table(tmp_path / "driver.db", one_trip=True)
    yield built
    await built.dispose()


@pytest.fixture(params=["one-trip", "stock"])
async def either_engine(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[AsyncEngine]:
    """The engine on the one-trip driver, and on aiosqlite's own connection."""
    built = await _engine_with_a_table(tmp_path / "driver.db", one_trip=request.param == "one-trip")
    yield built
    await built.dispose()


def test_the_aiosqlite_internals_the_driver_builds_on_are_there() -> None:
    """An aiosqlite release that changed them fails here, before any engine uses it."""
    missing = missing_internals()
    assert missing == [], (
        f"aiosqlite {aiosqlite.__version__} lacks what service/db/sqlite_driver.py builds "
        f"on: {'; '.join(missing)}. Set ARBITER_SQLITE_ONE_TRIP_DRIVER=false (aiosqlite's "
        "own connection), or hold aiosqlite back, until the module follows."
    )


def test_a_missing_internal_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail."""
    monkeypatch.delattr(aiosqlite.Connection, "_execute")
    assert missing_internals() == ["aiosqlite.Connection._execute (a coroutine function)"]


async def test_the_fallback_connects_through_aiosqlites_own_connection(tmp_path: Path) -> None:
    built = await _engine_with_a_table(tmp_path / "stock.db", one_trip=False)
    try:
        async with built.connect() as conn:
            raw = await conn.get_raw_connection()
            assert type(raw.driver_connection) is aiosqlite.Connection
            timeout = (await conn.execute(text("PRAGMA busy_timeout"))).scalar_one()
            keys = (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one()
    finally:
        await built.dispose()
    assert (timeout, keys) == (30_000, 1)  # the same busy wait and pragmas


async def test_the_engine_connects_through_one_trip_connections(engine: AsyncEngine) -> None:
    async with engine.connect() as conn:
        raw = await conn.get_raw_connection()
        assert isinstance(raw.driver_connection, OneTripConnection)
        timeout = (await conn.execute(text("PRAGMA busy_timeout"))).scalar_one()
        keys = (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one()
    assert (timeout, keys) == (30_000, 1)  # the writers' busy wait and the pragmas kept


async def test_a_statement_costs_one_trip_and_a_commit_one(
    engine: AsyncEngine, trips: list[str]
) -> None:
    async with engine.connect() as conn:
        await conn.execute(text("SELECT 1"))  # the pool's first connect, not counted
        trips.clear()
        inserted = await conn.execute(text("INSERT INTO t (name) VALUES ('a'), ('b'), ('c')"))
        rows = (await conn.execute(text("SELECT id, name FROM t ORDER BY id"))).all()
        await conn.commit()
    assert trips == ["_with_cursor", "_with_cursor", "commit"]  # no rollback on release
    assert inserted.rowcount == 3
    assert [tuple(r) for r in rows] == [(1, "a"), (2, "b"), (3, "c")]


async def test_what_a_statement_returns_is_kept_for_the_caller(either_engine: AsyncEngine) -> None:
    async with either_engine.begin() as conn:
        one = await conn.execute(text("INSERT INTO t (name) VALUES ('x')"))
        assert one.lastrowid == 1
        many = await conn.execute(
            text("INSERT INTO t (name) VALUES (:name)"), [{"name": n} for n in "pqrst"]
        )
        assert many.rowcount == 5  # executemany, one trip
        changed = await conn.execute(text("UPDATE t SET name = name || '!' WHERE id > 2"))
        assert changed.rowcount == 4
        returned = await conn.execute(text("DELETE FROM t WHERE id <= 2 RETURNING id, name"))
        assert sorted(tuple(r) for r in returned) == [(1, "x"), (2, "p")]
        empty = await conn.execute(text("SELECT name FROM t WHERE id > 99"))
        assert list(empty.keys()) == ["name"] and empty.all() == []
        partial = await conn.execute(text("SELECT id FROM t ORDER BY id"))
        assert partial.fetchmany(2) == [(3,), (4,)]
        assert partial.fetchone() == (5,)
        assert partial.fetchall() == [(6,)]


async def test_errors_keep_their_kind_and_the_transaction_rolls_back(
    either_engine: AsyncEngine,
) -> None:
    engine = either_engine
    async with engine.begin() as conn:
        await conn.execute(text("INSERT INTO t (name) VALUES ('only')"))
    with pytest.raises(IntegrityError):
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO t (name) VALUES ('second')"))
            await conn.execute(text("INSERT INTO t (name) VALUES ('only')"))
    async with engine.connect() as conn:
        names = (await conn.execute(text("SELECT name FROM t"))).scalars().all()
    assert names == ["only"]


async def test_driver_threads_are_daemons(either_engine: AsyncEngine) -> None:
    async with either_engine.connect() as conn:
        raw = await conn.get_raw_connection()
        assert raw.driver_connection is not None
        thread = raw.driver_connection._thread
        assert isinstance(thread, threading.Thread) and thread.daemon


@pytest.mark.parametrize("one_trip", [True, False])
async def test_the_urls_own_arguments_reach_sqlite(tmp_path: Path, one_trip: bool) -> None:
    """`uri=true` makes sqlite3 read the name as a URI, as aiosqlite's connect would."""
    built = create_engine(
        f"sqlite+aiosqlite:///file:{tmp_path / 'named.db'}?mode=rwc&uri=true",
        sqlite_one_trip_driver=one_trip,
    )
    try:
        async with built.begin() as conn:
            await conn.execute(text("CREATE TABLE m (v INTEGER)"))
    finally:
        await built.dispose()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["named.db"]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    yield from prepared_database("sqlite", tmp_path)


async def test_a_result_put_costs_six_trips(sqlite_url: str, trips: list[str]) -> None:
    """A keyed result PUT on SQLite: its statements one trip each, except the four that
    store the result, which make one together; its commit; and no rollback as the pool
    takes the committed connection back (with aiosqlite's own cursor: 37 trips, up to
    four a statement). The tournament is locked as it is loaded (`events.load_locked`)."""
    url = sqlite_url
    app = create_app(Settings(database_url=url))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client,
    ):
        event = await create_round_robin(
            client, [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
        )
        trips.clear()
        answer = await client.put(
            f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
            json={"result": "1-0"},
            headers={**event.auth(), "Idempotency-Key": "trips-1"},
        )
        assert answer.status_code == 200, answer.text
        # claim, tournament locked as it loads, game; then the game's state, seq, event
        # and round probe together (db/result_store.py); the answer sealed; the commit
        assert trips == ["_with_cursor"] * 5 + ["commit"]


async def test_a_result_put_on_aiosqlites_own_connection(sqlite_url: str, trips: list[str]) -> None:
    """The fallback: the same keyed result PUT is answered and stored alike, each
    statement going to the thread as aiosqlite's own cursor takes it (none in one trip),
    and the result's statements one after the other (`db.columns`)."""
    app = create_app(Settings(database_url=sqlite_url, sqlite_one_trip_driver=False))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client,
    ):
        event = await create_round_robin(
            client, [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
        )
        trips.clear()
        answer = await client.put(
            f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
            json={"result": "1-0"},
            headers={**event.auth(), "Idempotency-Key": "trips-1"},
        )
        assert answer.status_code == 200, answer.text
        assert (answer.json()["result"], answer.json()["status"]) == ("1-0", "confirmed")
        assert "_with_cursor" not in trips and "commit" in trips
        assert len(trips) > 6
        standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
        assert sorted(row["points"] for row in standings["rows"]) == [0, 0, 0, 1]


async def test_a_failed_statement_leaves_nothing_of_the_one_before(tmp_path: Path) -> None:
    """On the driver's own cursor: a statement that fails clears what the cursor held."""
    built = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'cursor.db'}")
    try:
        async with built.connect() as conn:
            raw = await conn.get_raw_connection()
            driver = raw.driver_connection
            assert isinstance(driver, OneTripConnection)
            cursor = driver.cursor()
            await cursor.execute("SELECT 1, 2")
            assert cursor.description is not None
            with pytest.raises(sqlite3.OperationalError):
                await cursor.execute("SELECT * FROM missing")
            assert (cursor.description, cursor.rowcount) == (None, -1)
            assert await cursor.fetchall() == []
    finally:
        await built.dispose()


async def test_statements_taken_together_make_one_trip(
    engine: AsyncEngine, trips: list[str]
) -> None:
    """`run_statements`: in order, in the caller's transaction, each one's rows; the
    first that fails stops the rest, and rolling back undoes those before it."""
    async with engine.connect() as conn:
        await conn.execute(text("SELECT 1"))  # SQLAlchemy's transaction begins
        raw = await conn.get_raw_connection()
        driver = raw.driver_connection
        assert isinstance(driver, OneTripConnection)
        trips.clear()
        answers = await driver.run_statements(
            [
                ("INSERT INTO t (name) VALUES (?)", ["a"]),
                ("UPDATE t SET name = name || ? WHERE name = ?", ["!", "a"]),
                ("SELECT id, name FROM t", []),
            ]
        )
        assert trips == ["_with_cursor"]
        assert answers == [[], [], [(1, "a!")]]
        with pytest.raises(sqlite3.IntegrityError):
            await driver.run_statements(
                [
                    ("INSERT INTO t (name) VALUES (?)", ["b"]),
                    ("INSERT INTO t (name) VALUES (?)", ["a!"]),
                    ("INSERT INTO t (name) VALUES (?)", ["c"]),
                ]
            )
        await conn.rollback()
        names = (await conn.execute(text("SELECT name FROM t"))).scalars().all()
    assert names == []
