"""The cache of one replica's views (the app's, or the live reader's own), and the
FLAMPARK table it keeps."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from service.db.bridge_reads import validate_layout
from service.db.tables import PlayerRow, TournamentRow

if TYPE_CHECKING:
    from service.engine.bridge.movement import Layout
    from service.engine.model import Tournament
    from service.engine.scoring.flampark import FlamparkAccumulator, FlamparkScore
    from service.engine.scoring.tiebreaks.context import TieBreakContext

__all__ = ["FlamparkTable", "ViewCache"]

_LAYOUTS_KEPT = 256


@dataclass(frozen=True, slots=True)
class FlamparkTable:
    """A tournament's FLAMPARK scores and premiums, with the players they belong to."""

    tournament: TournamentRow
    players: dict[int, PlayerRow]
    scores: dict[int, FlamparkScore]
    premiums: dict[int, Decimal]


@dataclass
class ViewCache:
    """What one replica computes from the event log, each entry valid for one
    (tournament, seq): a tournament changes only through events (docs/architecture.md#reads).
    """

    standings: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    """Standings documents (chess) and rankings (bridge) by (tournament, seq)."""
    tournaments: dict[str, tuple[int, Tournament]] = field(default_factory=dict)
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
            self.tournaments,
            self.players,
            self.flampark,
            self.flampark_locks,
            self.flampark_sums,
            self.layouts,
            self.tiebreak_contexts,
        ):
            cache.clear()
