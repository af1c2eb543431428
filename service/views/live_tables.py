"""The live feed's tables (the work the live reader of service/live/reader.py runs in
its own process or thread; docs/live.md#how-it-is-served).

Spectators never read the database: for each followed tournament this turns the new
events into encoded frames and a new snapshot, bringing the table forward from the
events (`service.views.snapshots`) and computing it once per batch of events however
many clients follow it. It also serves `GET /standings`: the document as of at least
the event the asking request read, encoded once. The reader keeps its own engine and
its own `ViewCache`, nothing of the API's.

The live layer does not import this module: the app passes `create_tables` to the
reader it starts (a module-level function, so a reader process is given it by name).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel.ext.asyncio.session import AsyncSession

from service.config import Settings
from service.db.bridge_reads import RESULT_EVENTS
from service.db.events import STANDINGS_EVENTS, events_since
from service.db.loading import Schedule
from service.db.session import SessionFactory, create_engine, create_session_factory
from service.db.tables import TournamentKind, TournamentRow
from service.db.tournament_config import config_of
from service.live.frames import Frame, Rows, event_message, snapshot_message, table_delta
from service.live.reader import TableText, Update
from service.views.bridge_ranking import bridge_ranking_document
from service.views.cache import ViewCache
from service.views.events import changes_admission, narrows_view, shown_payload
from service.views.prizes import prizes_document
from service.views.rating_changes import live_standings, without_rating_changes
from service.views.snapshots import bring_engine_view_forward, seed_engine_view
from service.views.standings_table import standings_document

__all__ = ["TableKind", "Tables", "create_tables", "table_kind"]


@dataclass(frozen=True, slots=True)
class TableKind:
    """What a feed's table is: its key in messages, the events that move it, how to
    build it, and which field identifies a row."""

    key: str
    moving: frozenset[str]
    build: Callable[[ViewCache, AsyncSession, TournamentRow], Awaitable[dict[str, Any]]]
    row_id: str
    inner: dict[str, str] = field(default_factory=dict)
    """The tables inside the document diffed like its rows: field -> row id."""


async def _live_standings(
    views: ViewCache, session: AsyncSession, row: TournamentRow
) -> dict[str, Any]:
    """The standings the feed sends: with each rated player's short rating change in a
    rated tournament (docs/live.md#rating-changes)."""
    return await live_standings(views, session, row, await standings_document(views, session, row))


_CHESS = TableKind(
    "standings",
    STANDINGS_EVENTS,
    _live_standings,
    "start_number",
    {"teams": "team"},  # a team event's ranking (docs/teams.md#standings), FLAMPARK's teams
)
_BRIDGE = TableKind("ranking", frozenset(RESULT_EVENTS), bridge_ranking_document, "number")


def table_kind(kind: str) -> TableKind:
    """Bridge events have a ranking, chess tournaments standings."""
    return _BRIDGE if kind == TournamentKind.BRIDGE else _CHESS


@dataclass(slots=True)
class _Known:
    """The reader's memory of one tournament: the table clients hold at `seq`."""

    seq: int
    rows: Rows
    document: dict[str, Any]
    inner: dict[str, Rows]
    """The inner tables' rows (`TableKind.inner`) by field."""
    prizes: dict[str, Any] | None = None
    """The prize list clients hold (None: the tournament has no prizes set)."""


_DOCUMENTS = 256
"""Standings documents the reader keeps for `GET /standings` (most recently used)."""


def _encode(document: dict[str, Any]) -> str:
    """JSON exactly as the API's JSONResponse writes it."""
    return json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


class Tables:
    """The reader's work, on whichever loop it runs: its own engine, caches and the
    table each followed tournament's clients hold."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._db_engine: AsyncEngine | None = None
        self._sessions: SessionFactory | None = None
        self._views = ViewCache()
        self._known: dict[str, _Known] = {}
        self._documents: OrderedDict[str, TableText] = OrderedDict()

    async def open(self) -> None:
        """Create the reader's own engine: a small pool with no overflow, and no
        transaction around a read (`create_engine`'s `autocommit`): every read of a
        refresh is bounded by the seq in the tournament's row, read first, so none needs
        a snapshot shared with the others, and a refresh on PostgreSQL is its two
        statements (the row, the events) without a BEGIN and a ROLLBACK around them."""
        settings = self._settings
        engine = create_engine(
            settings.database_url,
            echo=settings.sql_echo,
            pool_size=settings.reader_pool_size,
            autocommit=True,
            sqlite_one_trip_driver=settings.sqlite_one_trip_driver,
            driver_statements=settings.driver_statements,
        )
        self._db_engine = engine
        self._sessions = create_session_factory(engine)

    async def close(self) -> None:
        """Close the engine."""
        if self._db_engine is not None:
            await self._db_engine.dispose()

    def _session(self) -> AsyncSession:
        """A session on the reader's own engine."""
        assert self._sessions is not None, "reader not started"
        return self._sessions()

    async def forget(self, tournament_id: str) -> None:
        """Drop what the reader keeps for a tournament nobody follows any more."""
        self._known.pop(tournament_id, None)

    async def table(
        self, tournament_id: str, at_least: int, schedule: Schedule | None = None
    ) -> TableText | None:
        """The standings document as of the tournament's latest event, and at least as
        of `at_least` (the seq the asking request read, so a client sees its own write):
        computed here, off the API's GIL, once per event however many ask
        (docs/decisions/live-reader-process.md). None when the tournament does not
        exist. With `schedule` (a start's rounds as stored at `at_least`), the engine's
        view is built from them instead of read back."""
        kept = self._documents.get(tournament_id)
        if kept is not None and kept.seq >= at_least:
            self._documents.move_to_end(tournament_id)
            return kept
        views = self._views
        async with self._session() as session:
            row = await session.get(TournamentRow, tournament_id)
            if row is None:
                return None
            known = self._known.get(tournament_id)
            if known is not None and known.seq == row.last_seq and table_kind(row.kind) is _CHESS:
                document = without_rating_changes(known.document)  # the feed's, not GET's
            else:
                if schedule is not None:
                    await seed_engine_view(views, session, row, at_least, schedule)
                document = await standings_document(views, session, row)
            kept = TableText(row.last_seq, _encode(document))
        self._documents[tournament_id] = kept
        self._documents.move_to_end(tournament_id)
        while len(self._documents) > _DOCUMENTS:
            self._documents.popitem(last=False)
        return kept

    async def refresh(self, tournament_id: str, since: int | None) -> Update:
        """The frames of the events after `since` (all of the state when None)."""
        views = self._views
        async with self._session() as session:
            row = await session.get(TournamentRow, tournament_id)
            if row is None:
                return Update(exists=False)
            known = self._known.get(tournament_id)
            if since is not None and known is not None and row.last_seq <= since:
                return Update(exists=True, system=row.system, seq=since)
            kind = table_kind(row.kind)
            if since is None or known is None or known.seq != since:
                document = await kind.build(views, session, row)
                whole = table_delta(None, document, kind.row_id, kind.inner)
                inner = {name: table.rows for name, table in whole.inner.items()}
                prizes = await _prizes(views, session, row)
                self._known[tournament_id] = _Known(
                    row.last_seq, whole.rows, document, inner, prizes
                )
                return Update(
                    exists=True,
                    system=row.system,
                    seq=row.last_seq,
                    snapshot=snapshot_message(
                        row.last_seq,
                        row.status,
                        row.current_round,
                        kind.key,
                        document,
                        _prize_part(prizes),
                    ),
                )
            events = [
                e
                for e in await events_since(session, tournament_id, since)
                if e.seq <= row.last_seq
            ]
            moving = [e.seq for e in events if e.type in kind.moving]
            delta = None
            prize_change: dict[str, Any] = {}
            if moving:
                # the events just read bring the engine's view forward: not read twice
                bring_engine_view_forward(views, row, since, events)
                document = await kind.build(views, session, row)
                delta = table_delta(known.rows, document, kind.row_id, kind.inner, known.inner)
                known.rows, known.document = delta.rows, document
                known.inner = {name: table.rows for name, table in delta.inner.items()}
                prizes = await _prizes(views, session, row)
                if prizes != known.prizes:
                    prize_change = {"prizes": prizes}
                    known.prizes = prizes
            known.seq = row.last_seq
            admission = [e.seq for e in events if changes_admission(e.type, e.payload)]
            personal = config_of(row).publish_personal_data  # one frame for every reader
            frames = []
            for e in events:
                payload = shown_payload(e.type, e.payload, personal=personal)
                if delta is None or e.seq != moving[-1]:
                    text = event_message(e.seq, e.type, payload)
                    frames.append(Frame(e.seq, text, text))
                    continue
                full = delta.message_parts(kind.key, compact=False) | prize_change
                compact = delta.message_parts(kind.key, compact=True) | prize_change
                frames.append(
                    Frame(
                        e.seq,
                        event_message(e.seq, e.type, payload, full),
                        event_message(e.seq, e.type, payload, compact),
                    )
                )
            snapshot = snapshot_message(
                row.last_seq,
                row.status,
                row.current_round,
                kind.key,
                known.document,
                _prize_part(known.prizes),
            )
            return Update(
                exists=True,
                system=row.system,
                seq=row.last_seq,
                frames=frames,
                snapshot=snapshot,
                admission_seq=admission[-1] if admission else None,
                narrowed=any(narrows_view(e.type, e.payload) for e in events),
            )


async def _prizes(
    views: ViewCache, session: AsyncSession, row: TournamentRow
) -> dict[str, Any] | None:
    """The prize list of an individual chess tournament with prizes set
    (docs/live.md#prizes), as `GET /prizes` answers it; `missing` only when the
    tournament publishes personal data (one frame serves every reader). None otherwise."""
    config = config_of(row)
    if row.kind == TournamentKind.BRIDGE or config.prizes is None or config.team is not None:
        return None
    return await prizes_document(views, session, row, personal=config.publish_personal_data)


def _prize_part(prizes: dict[str, Any] | None) -> dict[str, Any]:
    """The snapshot's `prizes` key: only for a tournament with prizes set."""
    return {} if prizes is None else {"prizes": prizes}


def create_tables(settings: Settings) -> Tables:
    """The live reader's table source (passed to `service.live.reader.create_reader`)."""
    return Tables(settings)
