"""Bridge rankings as documents (shared by the bridge routes and the live feed).

Built as plain dicts in the field order of the API's `BridgeRanking`, and kept per
(event, seq) like the chess standings.
"""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.bridge_reads import table_results
from service.db.tables import TournamentRow
from service.engine.bridge.ranking import EventRanking, RankingLine, event_ranking
from service.engine.bridge.rounding import figure
from service.views.cache import ViewCache

__all__ = ["bridge_ranking_document", "ranking_document"]


def _line(line: RankingLine) -> dict[str, Any]:
    document: dict[str, Any] = {
        "rank": line.rank,
        "number": line.number,
        "name": line.name,
        "boards": line.boards,
    }
    for name in ("score", "top", "percent"):
        value = getattr(line, name)
        document[name] = None if value is None else figure(value)
    document["matches"] = line.matches
    for name in ("imps_for", "imps_against"):
        value = getattr(line, name)
        document[name] = None if value is None else figure(value)
    return document


def ranking_document(ranking: EventRanking) -> dict[str, Any]:
    """The engine's ranking as the API shows it (figures rounded to 2 decimals)."""
    return {
        "kind": ranking.kind,
        "scoring": ranking.scoring,
        "results": ranking.results,
        "rows": [_line(line) for line in ranking.rows],
        "matches": None
        if ranking.matches is None
        else [
            {
                "round": match.round,
                "home": match.home,
                "away": match.away,
                "boards": match.boards,
                "imps": [figure(value) for value in match.imps],
                "vp": [figure(value) for value in match.vp],
            }
            for match in ranking.matches
        ],
    }


async def bridge_ranking_document(
    views: ViewCache, session: AsyncSession, row: TournamentRow
) -> dict[str, Any]:
    """The ranking as JSON, cached per (event, last event) like the chess standings."""
    key = (f"bridge:{row.id}", row.last_seq)
    cached = views.standings.get(key)
    if cached is None:
        results = await table_results(session, row.id)
        cached = ranking_document(event_ranking(views.layout(row), results))
        if len(views.standings) > 256:
            views.standings.clear()
        views.standings[key] = cached
    return cached
