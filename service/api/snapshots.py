"""Per-event caches of what every table is built from (DESIGN: live standings).

A tournament changes only through events, so whatever is read for sequence number `seq`
stays valid until the next event: the engine view and the start list are loaded once per
event per replica and shared by the standings, the FLAMPARK scores and the live feed.
"""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.state import AppState
from service.db.repository import list_players, load_engine_tournament
from service.db.tables import PlayerRow, TournamentRow
from service.engine.model import Tournament

__all__ = ["engine_view", "players_view"]

_LIMIT = 64


def _cache(state: AppState, name: str) -> dict[tuple[str, int], Any]:
    cache: dict[tuple[str, int], Any] = state.caches.setdefault(name, {})
    if len(cache) > _LIMIT:
        cache.clear()
    return cache


async def engine_view(state: AppState, session: AsyncSession, row: TournamentRow) -> Tournament:
    """The engine's view of a tournament's confirmed results after its latest event."""
    cache = _cache(state, "engine")
    key = (row.id, row.last_seq)
    if key not in cache:
        cache[key] = await load_engine_tournament(session, row)
    found: Tournament = cache[key]
    return found


async def players_view(
    state: AppState, session: AsyncSession, row: TournamentRow
) -> dict[int, PlayerRow]:
    """Numbered players by start number after the tournament's latest event."""
    cache = _cache(state, "players")
    key = (row.id, row.last_seq)
    if key not in cache:
        players = await list_players(session, row.id)
        cache[key] = {p.start_number: p for p in players if p.start_number is not None}
    found: dict[int, PlayerRow] = cache[key]
    return found
