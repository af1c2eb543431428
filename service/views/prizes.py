"""The prize list of a stored tournament from its current standings
(docs/rules/prizes.md): the `prizes` setting applied by the prize engine."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.tables import TournamentRow
from service.db.tournament_config import TournamentConfig, config_of
from service.engine.prizes import PrizeRules, Standing, award_prizes, cents, exact
from service.views.cache import ViewCache
from service.views.snapshots import engine_view
from service.views.standings_table import standings_table

__all__ = ["event_year", "prizes_document"]


def event_year(row: TournamentRow, config: TournamentConfig) -> int:
    """The year ages are reached in: the organizer's `prizes.year`, else the first
    scheduled round's, else an imported TRF file's start date (042), else the year the
    tournament was created."""
    if config.prizes is not None and config.prizes.year is not None:
        return config.prizes.year
    scheduled = [start for start in config.schedule or () if start]
    if scheduled:
        return int(scheduled[0][:4])
    for code, rest in config.kept_headers:
        found = re.search(r"\b(\d{4})\b", rest)
        if code == "042" and found:
            return int(found.group(1))
    return row.created_at.year


async def prizes_document(
    views: ViewCache, session: AsyncSession, row: TournamentRow, *, personal: bool
) -> dict[str, Any]:
    """Awards from the standings now; `missing` only for a reader who may see personal
    data (it tells whose sex or birth year is not recorded)."""
    config = config_of(row)
    rules = config.prizes or PrizeRules()
    table = await standings_table(views, session, row)
    tournament = await engine_view(views, session, row)
    players = {p.start_number: p for p in tournament.players}
    standings = [
        Standing(line["start_number"], line["rank"], Fraction(str(line["points"])))
        for line in table["rows"]
    ]
    year = event_year(row, config)
    outcome = award_prizes(rules, standings, players, year)
    return {
        "round": table["round"],
        "year": year,
        "ties": rules.ties,
        "one_prize": rules.one_prize,
        "awards": [
            {
                "prize": award.prize,
                "places": list(award.places),
                "place": award.place,
                "start_number": award.player,
                "name": players[award.player].name,
                "amount": str(cents(award.amount)),
                "exact": exact(award.amount),
                "shared_with": list(award.shared_with),
            }
            for award in outcome.awards
        ],
        "missing": [
            {"start_number": m.player, "category": m.category, "field": m.field}
            for m in outcome.missing
        ]
        if personal
        else None,
    }
