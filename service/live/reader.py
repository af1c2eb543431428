"""The live reader: every database read and table computation of the live feed, on its
own thread, event loop and small connection pool (DESIGN: Live standings).

Spectators never read the database: the process's hub asks this reader, once per
tournament per batch of events, to turn the new events into encoded frames and a new
snapshot. The reader has its own engine (a pool of `reader_pool_size` connections on
PostgreSQL), so no number of spectators can take a connection a writer needs, and its
own thread, so computing the standings of a large event (tens of milliseconds) never
stops the main event loop from serving result PUTs; the GIL is shared, but the main
loop gets it back every few milliseconds instead of after the whole computation.

The tables are brought forward incrementally: the engine view of the tournament is
patched with the games the new result events name (`service.api.snapshots`), and
several events that arrive during one computation are handled by the next one together
(one computation, one delta, every event still gets its own frame).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.bridge_views import bridge_ranking_document
from service.api.state import AppState
from service.api.views import standings_document
from service.config import Settings
from service.db.bridge import RESULT_EVENTS
from service.db.events import STANDINGS_EVENTS, events_since
from service.db.session import create_engine, create_session_factory
from service.db.tables import TournamentRow
from service.live.bus import InProcessBus
from service.live.frames import Rows, event_message, snapshot_message, table_delta

__all__ = ["Reader", "TableKind", "Update", "table_kind"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TableKind:
    """What a feed's table is: its key in messages, the events that move it, how to
    build it, and which field identifies a row."""

    key: str
    moving: frozenset[str]
    build: Callable[[AppState, AsyncSession, TournamentRow], Awaitable[dict[str, Any]]]
    row_id: str


_CHESS = TableKind("standings", STANDINGS_EVENTS, standings_document, "start_number")
_BRIDGE = TableKind("ranking", frozenset(RESULT_EVENTS), bridge_ranking_document, "number")


def table_kind(system: str) -> TableKind:
    """Bridge events have a ranking, every other tournament standings."""
    return _BRIDGE if system.startswith("bridge-") else _CHESS


@dataclass(frozen=True, slots=True)
class Update:
    """What changed since the seq the hub asked from."""

    exists: bool
    system: str = ""
    seq: int = 0
    frames: list[tuple[int, str]] = field(default_factory=list)
    snapshot: str | None = None
    """The encoded snapshot at `seq`, when it changed."""


@dataclass(slots=True)
class _Known:
    """The reader's memory of one tournament: the table clients hold at `seq`."""

    seq: int
    rows: Rows
    document: dict[str, Any]


class Reader:
    """A thread with its own event loop, engine and caches."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="live-reader")
        self._thread.daemon = True
        self._state: AppState | None = None
        self._known: dict[str, _Known] = {}

    def start(self) -> None:
        """Start the thread and open the reader's engine there."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self._loop).result(timeout=30)

    async def _open(self) -> None:
        settings = self._settings
        engine = create_engine(
            settings.database_url, echo=settings.sql_echo, pool_size=settings.reader_pool_size
        )
        self._state = AppState(
            settings=settings,
            engine=engine,
            sessions=create_session_factory(engine),
            bus=InProcessBus(),
        )

    def stop(self) -> None:
        """Close the engine and end the thread."""
        if not self._thread.is_alive():
            return
        if self._state is not None:
            future = asyncio.run_coroutine_threadsafe(self._state.engine.dispose(), self._loop)
            with contextlib.suppress(TimeoutError, concurrent.futures.TimeoutError):
                future.result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    async def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return await asyncio.wrap_future(future)

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        """The frames of the events after `since` (all of the state when None)."""
        return await self._call(self._refresh(tournament_id, since))

    async def forget(self, tournament_id: str) -> None:
        """Drop what the reader keeps for a tournament nobody follows any more."""
        await self._call(self._forget(tournament_id))

    async def _forget(self, tournament_id: str) -> None:
        self._known.pop(tournament_id, None)

    async def _refresh(self, tournament_id: str, since: int | None) -> Update:
        state = self._state
        assert state is not None, "reader not started"
        async with state.sessions() as session:
            row = await session.get(TournamentRow, tournament_id)
            if row is None:
                return Update(exists=False)
            known = self._known.get(tournament_id)
            if since is not None and known is not None and row.last_seq <= since:
                return Update(exists=True, system=row.system, seq=since)
            kind = table_kind(row.system)
            if since is None or known is None or known.seq != since:
                document = await kind.build(state, session, row)
                _, _, _, rows = table_delta(None, document, kind.row_id)
                self._known[tournament_id] = _Known(row.last_seq, rows, document)
                return Update(
                    exists=True,
                    system=row.system,
                    seq=row.last_seq,
                    snapshot=snapshot_message(
                        row.last_seq, row.status, row.current_round, kind.key, document
                    ),
                )
            events = [
                e
                for e in await events_since(session, tournament_id, since)
                if e.seq <= row.last_seq
            ]
            moving = [e.seq for e in events if e.type in kind.moving]
            table: dict[str, Any] | None = None
            if moving:
                document = await kind.build(state, session, row)
                delta, changed, positions, rows = table_delta(known.rows, document, kind.row_id)
                known.rows, known.document = rows, document
                table = {kind.key: delta, "changed": changed, "positions": positions}
            known.seq = row.last_seq
            frames = [
                (
                    e.seq,
                    event_message(
                        e.seq, e.type, e.payload, table if moving and e.seq == moving[-1] else None
                    ),
                )
                for e in events
            ]
            snapshot = snapshot_message(
                row.last_seq, row.status, row.current_round, kind.key, known.document
            )
            return Update(
                exists=True, system=row.system, seq=row.last_seq, frames=frames, snapshot=snapshot
            )
