"""Bridge rankings as documents (shared by the bridge routes and the live feed)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.schemas.bridge import BridgeRanking, number
from service.api.state import AppState
from service.db.bridge import layout_of, list_results, ranking
from service.db.tables import TournamentRow

__all__ = ["bridge_ranking_document"]


def _as_number(value: Any) -> Any:
    if isinstance(value, Fraction | int) and not isinstance(value, bool):
        return number(value)
    if isinstance(value, list):
        return [_as_number(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_number(v) for k, v in value.items()}
    return value


async def bridge_ranking_document(
    state: AppState, session: AsyncSession, row: TournamentRow
) -> dict[str, Any]:
    """The ranking as JSON, cached per (event, last event) like the chess standings."""
    key = (f"bridge:{row.id}", row.last_seq)
    cached = state.standings_cache.get(key)
    if cached is None:
        document = ranking(layout_of(row), await list_results(session, row.id))
        cached = BridgeRanking.model_validate(_as_number(document)).model_dump(mode="json")
        if len(state.standings_cache) > 256:
            state.standings_cache.clear()
        state.standings_cache[key] = cached
    return cached
