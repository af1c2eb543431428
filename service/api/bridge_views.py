"""Bridge rankings as documents (shared by the bridge routes and the live feed)."""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.schemas.bridge import BridgeRanking, number
from service.api.state import AppState
from service.db.bridge import table_results
from service.db.tables import TournamentRow
from service.engine.bridge.ranking import EventRanking, RankingLine, event_ranking

__all__ = ["bridge_ranking_document", "ranking_document"]


def _line(line: RankingLine) -> dict[str, Any]:
    document: dict[str, Any] = {
        "rank": line.rank,
        "number": line.number,
        "name": line.name,
        "boards": line.boards,
    }
    for name in ("score", "top", "percent", "imps_for", "imps_against"):
        value = getattr(line, name)
        document[name] = None if value is None else number(value)
    document["matches"] = line.matches
    return document


def ranking_document(ranking: EventRanking) -> dict[str, Any]:
    """The engine's ranking as the API shows it (figures rounded to 2 decimals)."""
    document: dict[str, Any] = {
        "kind": ranking.kind,
        "scoring": ranking.scoring,
        "results": ranking.results,
        "rows": [_line(line) for line in ranking.rows],
    }
    if ranking.matches is not None:
        document["matches"] = [
            {
                "round": match.round,
                "home": match.home,
                "away": match.away,
                "boards": match.boards,
                "imps": [number(value) for value in match.imps],
                "vp": [number(value) for value in match.vp],
            }
            for match in ranking.matches
        ]
    return document


async def bridge_ranking_document(
    state: AppState, session: AsyncSession, row: TournamentRow
) -> dict[str, Any]:
    """The ranking as JSON, cached per (event, last event) like the chess standings."""
    key = (f"bridge:{row.id}", row.last_seq)
    cached = state.views.standings.get(key)
    if cached is None:
        results = await table_results(session, row.id)
        document = ranking_document(event_ranking(state.views.layout(row), results))
        cached = BridgeRanking.model_validate(document).model_dump(mode="json")
        if len(state.views.standings) > 256:
            state.views.standings.clear()
        state.views.standings[key] = cached
    return cached
