"""Long-lived resources of one running app, kept on `app.state` by the lifespan."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncEngine

from service.api.connect_reads import SharedRowReads
from service.app.compute_pool import ComputePool
from service.app.write_gate import WriteGates
from service.config import Settings
from service.db.bridge import validate_layout
from service.db.session import SessionFactory
from service.db.tables import TournamentRow
from service.live.bus import EventBus

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from service.api.flampark_scores import FlamparkTable
    from service.db.tables import PlayerRow
    from service.engine.bridge.movement import Layout
    from service.engine.model import Tournament
    from service.engine.scoring.flampark import FlamparkAccumulator
    from service.engine.scoring.tiebreaks.context import TieBreakContext
    from service.live.hub import Hub

__all__ = ["AppState", "ViewCache"]

_LAYOUTS_KEPT = 256


@dataclass
class ViewCache:
    """What one replica computes from the event log, each entry valid for one
    (tournament, seq): a tournament changes only through events (DESIGN: live standings).
    """

    standings: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    """Standings documents (chess) and rankings (bridge) by (tournament, seq)."""
    engine: dict[str, tuple[int, Tournament]] = field(default_factory=dict)
    """The engine view of each tournament and the seq it is as of (brought forward)."""
    players: dict[tuple[str, int], dict[int, PlayerRow]] = field(default_factory=dict)
    """Numbered players by start number, by (tournament, seq)."""
    flampark: dict[tuple[str, int], FlamparkTable] = field(default_factory=dict)
    """FLAMPARK score tables by (tournament, seq)."""
    flampark_locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    """One computation of a tournament's FLAMPARK table at a time."""
    flampark_sums: dict[str, tuple[int, FlamparkAccumulator]] = field(default_factory=dict)
    """The incremental FLAMPARK accumulator of each tournament and its seq."""
    layouts: dict[str, Layout] = field(default_factory=dict)
    """Bridge events' layouts by event id (settings never change after creation)."""
    tiebreak_contexts: dict[str, TieBreakContext] = field(default_factory=dict)
    """The last tie-break digest of each tournament's standings, brought forward by the
    next computation instead of rebuilt (engine: `build_context(previous=)`)."""

    def layout(self, row: TournamentRow) -> Layout:
        """The layout of a stored bridge event, built once per replica."""
        layout = self.layouts.get(row.id)
        if layout is None:
            if len(self.layouts) >= _LAYOUTS_KEPT:
                self.layouts.clear()
            layout = self.layouts[row.id] = validate_layout(row.settings)
        return layout

    def keep_context(self, tournament_id: str, context: TieBreakContext | None) -> None:
        """Keep a tournament's latest tie-break digest (a bounded number of them)."""
        if context is None:
            return
        if tournament_id not in self.tiebreak_contexts and len(self.tiebreak_contexts) >= 64:
            self.tiebreak_contexts.clear()
        self.tiebreak_contexts[tournament_id] = context

    def clear(self) -> None:
        """Forget every view (each is rebuilt from the log on next use)."""
        for cache in (
            self.standings,
            self.engine,
            self.players,
            self.flampark,
            self.flampark_locks,
            self.flampark_sums,
            self.layouts,
            self.tiebreak_contexts,
        ):
            cache.clear()


@dataclass
class AppState:
    """The database engine, the session factory, the event bus, the live hub, the
    writers' gates and small caches."""

    settings: Settings
    engine: AsyncEngine
    sessions: SessionFactory
    bus: EventBus
    read_sessions: SessionFactory | None = None
    """Sessions on the readers' own pool (`read_pool_size`); None: reads share `sessions`."""
    views: ViewCache = field(default_factory=ViewCache)
    """This replica's views of the event log (standings, engine view, FLAMPARK, ...)."""
    hub: Hub | None = None
    """The live hub (None in the live reader's own state)."""
    read_engine: AsyncEngine | None = None
    """The engine of `read_sessions`, disposed of with the app."""
    compute: ComputePool | None = None
    """The processes the stateless `/v1/compute/...` computations run in
    (`api.compute_offload`), stopped with the app."""
    gates: WriteGates = field(init=False)
    """This process's queue of writers per tournament (`app.write_gate`), each wait
    bounded by `settings.lock_wait_seconds`."""
    connect_rows: SharedRowReads = field(init=False)
    """The tournament rows connecting spectators are checked against, one read shared
    by those who arrive together (`api.connect_reads`)."""

    def __post_init__(self) -> None:
        self.gates = WriteGates(self.settings.lock_wait_seconds)
        self.connect_rows = SharedRowReads(self._read_row)

    async def _read_row(self, tournament_id: str) -> TournamentRow | None:
        """One read of a tournament's row, on the readers' pool."""
        async with self.read_session() as session:
            return await session.get(TournamentRow, tournament_id)

    def read_session(self) -> AsyncSession:
        """A session for work that only reads, on the readers' pool when there is one."""
        return (self.read_sessions or self.sessions)()
