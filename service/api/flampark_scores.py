"""FLAMPARK results of stored tournaments (seed 000; SPEC 3), cached per event.

A tournament's scores are computed once per (tournament, last event) in each replica and
reused by the standings, the live feed, the best-games list and the players' ranking.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.snapshots import engine_view, players_view
from service.api.state import AppState
from service.db.repository import confirmed_shortenings
from service.db.tables import PlayerRow, TournamentRow
from service.engine.model import Tournament
from service.engine.scoring.flampark import FlamparkScore, flampark_scores
from service.engine.scoring.progress_premium import progress_premium

__all__ = [
    "FlamparkTable",
    "flampark_table",
    "flampark_tournaments",
    "shortenings",
]


@dataclass(frozen=True, slots=True)
class FlamparkTable:
    """A tournament's FLAMPARK scores and premiums, with the players they belong to."""

    tournament: TournamentRow
    engine: Tournament
    players: dict[int, PlayerRow]
    scores: dict[int, FlamparkScore]
    premiums: dict[int, Decimal]


def base_minutes(row: TournamentRow) -> int:
    """The base thinking time (1 when the tournament has no time control: nobody can
    shorten then, so the value never matters)."""
    control = row.settings.get("time_control") or {}
    return int(control.get("base_minutes") or 1)


async def shortenings(session: AsyncSession, row: TournamentRow) -> dict[tuple[int, int], Fraction]:
    """Minutes shortened per confirmed game, keyed by (round, white)."""
    return {
        (number, white): Fraction(str(minutes))
        for number, white, minutes in await confirmed_shortenings(session, row.id)
    }


async def flampark_table(
    state: AppState, session: AsyncSession, row: TournamentRow
) -> FlamparkTable:
    """Scores and premiums after the tournament's latest event."""
    key = (row.id, row.last_seq)
    cache: dict[tuple[str, int], FlamparkTable] = state.caches.setdefault("flampark", {})
    cached = cache.get(key)
    if cached is not None:
        return cached
    engine = await engine_view(state, session, row)
    players = await players_view(state, session, row)
    scores = flampark_scores(
        engine, base_minutes=base_minutes(row), shortened=await shortenings(session, row)
    )
    premium: dict[str, Any] = (row.settings.get("flampark") or {}).get("progress_premium") or {}
    premiums: dict[int, Decimal] = {}
    if premium:
        ratings = {number: p.rating for number, p in players.items()}
        premiums = progress_premium(
            scores, ratings, pool=Decimal(str(premium["pool"])), wb=int(premium["wb"])
        )
    table = FlamparkTable(row, engine, players, scores, premiums)
    if len(cache) > 512:
        cache.clear()
    cache[key] = table
    return table


async def flampark_tournaments(session: AsyncSession) -> list[TournamentRow]:
    """Every FLAMPARK tournament that has started."""
    statement = select(TournamentRow).where(
        TournamentRow.system == "flampark", col(TournamentRow.status) != "registration"
    )
    return list((await session.exec(statement)).all())
