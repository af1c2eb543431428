"""Long-lived resources of one running app, kept on `app.state` by the lifespan."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncEngine

from service.config import Settings
from service.db.session import SessionFactory
from service.live.bus import InProcessBus, PostgresBus

if TYPE_CHECKING:
    from service.live.hub import Hub

__all__ = ["AppState"]


@dataclass
class AppState:
    """The database engine, the session factory, the event bus, the live hub and small
    caches."""

    settings: Settings
    engine: AsyncEngine
    sessions: SessionFactory
    bus: InProcessBus | PostgresBus
    standings_cache: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    """Standings documents by (tournament, seq): computed once per event per replica."""
    caches: dict[str, Any] = field(default_factory=dict)
    """Other per-replica caches keyed by (tournament, seq), by name."""
    hub: Hub | None = None
    """The live hub (None in the live reader's own state)."""
