"""FLAMPARK results of stored tournaments (docs/rules/flampark.md), cached per event.

A tournament's scores are computed once per (tournament, last event) in each replica and
reused by the standings, the live feed, the best-games list and the players' ranking.
"""

from __future__ import annotations

import asyncio
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.game_reads import confirmed_shortenings
from service.db.tables import TournamentRow
from service.db.tournament_config import config_of
from service.engine.scoring.flampark import FlamparkAccumulator
from service.engine.scoring.progress_premium import progress_premium_from_ru
from service.views.cache import FlamparkTable, ViewCache
from service.views.snapshots import (
    confirmed_result,
    engine_view,
    players_view,
    result_event_of,
    result_events,
)

__all__ = [
    "FlamparkTable",
    "flampark_table",
    "shortenings",
]


def base_minutes(row: TournamentRow) -> int:
    """The base thinking time (1 when the tournament has no time control: nobody can
    shorten then, so the value never matters)."""
    control = config_of(row).time_control
    return control.base_minutes if control is not None else 1


async def shortenings(session: AsyncSession, row: TournamentRow) -> dict[tuple[int, int], Fraction]:
    """Minutes shortened per confirmed game, keyed by (round, white)."""
    return {
        (number, white): Fraction(str(minutes))
        for number, white, minutes in await confirmed_shortenings(session, row.id)
    }


async def flampark_table(
    views: ViewCache, session: AsyncSession, row: TournamentRow
) -> FlamparkTable:
    """Scores and premiums after the tournament's latest event."""
    key = (row.id, row.last_seq)
    cache = views.flampark
    cached = cache.get(key)
    if cached is not None:
        return cached
    locks = views.flampark_locks
    async with locks.setdefault(row.id, asyncio.Lock()):
        players = await players_view(views, session, row)
        accumulator = await _accumulator(views, session, row)
        scores = accumulator.scores()
        options = config_of(row).flampark
        premium = options.progress_premium if options is not None else None
        premiums: dict[int, Decimal] = {}
        if premium is not None:
            ratings = {number: p.rating for number, p in players.items()}
            premiums = progress_premium_from_ru(
                accumulator.ru_map(),
                ratings,
                pool=premium.pool,
                wb=premium.wb,
            )
        table = FlamparkTable(row, players, scores, premiums)
        if len(cache) > 512:
            cache.clear()
        cache[key] = table
        return table


async def _accumulator(
    views: ViewCache, session: AsyncSession, row: TournamentRow
) -> FlamparkAccumulator:
    """The tournament's running FLAMPARK sums at its latest event (results "live").

    Brought forward result by result when only results happened since the cached sums
    (each result touches its two players, O(1)); rebuilt from the games otherwise."""
    cache = views.flampark_sums
    cached = cache.get(row.id)
    if cached is not None and cached[0] == row.last_seq:
        return cached[1]
    if cached is not None and cached[0] < row.last_seq:
        events = await result_events(session, row, cached[0])
        if events is not None and all(_has_minutes(e.payload) for e in events):
            accumulator = cached[1]
            for stored in events:
                event = result_event_of(stored)
                result = confirmed_result(event)
                minutes = event.time_shortened_minutes if result is not None else None
                accumulator.record(
                    event.round,
                    event.white,
                    event.black,
                    result,
                    shortened=Fraction(str(minutes)) if minutes else 0,
                )
            cache[row.id] = (row.last_seq, accumulator)
            return accumulator
    engine = await engine_view(views, session, row)
    accumulator = FlamparkAccumulator.from_tournament(
        engine, base_minutes=base_minutes(row), shortened=await shortenings(session, row)
    )
    if len(cache) > 64:
        cache.clear()
    cache[row.id] = (row.last_seq, accumulator)
    return accumulator


_MINUTES_KEYS = ("time_shortened_minutes", "shortened_minutes")
"""The result events' time shortening: the request's name, and the name events carried
before it was aligned with the request."""


def _has_minutes(payload: dict[str, Any]) -> bool:
    return any(key in payload for key in _MINUTES_KEYS)
