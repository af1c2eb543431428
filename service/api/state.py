"""Long-lived resources of one running app, kept on `app.state` by the lifespan."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncEngine

from service.api.connect_reads import SharedRowReads
from service.app.compute_pool import ComputePool
from service.app.write_queue import WriteQueues
from service.config import Settings
from service.db.session import SessionFactory
from service.db.tables import TournamentRow
from service.live.bus import EventBus
from service.views.cache import ViewCache

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from service.live.hub import Hub

__all__ = ["AppState"]


@dataclass
class AppState:
    """The database engine, the session factory, the event bus, the live hub, the
    writers' queues and small caches."""

    settings: Settings
    db_engine: AsyncEngine
    sessions: SessionFactory
    bus: EventBus
    read_sessions: SessionFactory | None = None
    """Sessions on the readers' own pool (`read_pool_size`); None: reads share `sessions`."""
    views: ViewCache = field(default_factory=ViewCache)
    """This replica's views of the event log (standings, engine view, FLAMPARK, ...)."""
    hub: Hub | None = None
    """The live hub (None in the live reader's own state)."""
    read_db_engine: AsyncEngine | None = None
    """The engine of `read_sessions`, disposed of with the app."""
    compute: ComputePool | None = None
    """The processes the stateless `/v1/compute/...` computations run in
    (`api.compute_offload`), stopped with the app."""
    write_queues: WriteQueues = field(init=False)
    """This process's queue of writers per tournament (`app.write_queue`), each wait
    bounded by `settings.lock_wait_seconds`."""
    connect_rows: SharedRowReads = field(init=False)
    """The tournament rows connecting spectators are checked against, one read shared
    by those who arrive together (`api.connect_reads`)."""

    def __post_init__(self) -> None:
        self.write_queues = WriteQueues(self.settings.lock_wait_seconds)
        self.connect_rows = SharedRowReads(self._read_row)

    async def _read_row(self, tournament_id: str) -> TournamentRow | None:
        """One read of a tournament's row, on the readers' pool."""
        async with self.read_session() as session:
            return await session.get(TournamentRow, tournament_id)

    def read_session(self) -> AsyncSession:
        """A session for work that only reads, on the readers' pool when there is one."""
        return (self.read_sessions or self.sessions)()
