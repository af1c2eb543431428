"""The workflows of service/app called directly, on every backend the suite runs
(tests/db_backends.py): a committed tournament to start from, and the events a
workflow wrote."""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.create import create_tournament
from service.app.register import register
from service.app.start import start
from service.db.event_types import Event, decode
from service.db.events import events_since
from service.db.session import SessionFactory
from service.db.tables import TournamentRow
from service.db.tournament_reads import get_tournament

FOUR = [("Ann", 2400), ("Bob", 2300), ("Cid", 2200), ("Dan", 2100)]
"""Four players (name, rating), numbered 1-4 in this order at the start."""


async def new_tournament(
    sessions: SessionFactory,
    players: list[tuple[str, int]],
    *,
    system: str = "round-robin",
    rounds: int | None = None,
    started: bool = False,
    **settings: Any,
) -> str:
    """A committed tournament with `players` registered (and the list closed when
    `started`); returns its id."""
    async with sessions() as session:
        created = await create_tournament(
            session, name="T", system=system, settings=settings, total_rounds=rounds, private=False
        )
        row = created.tournament
        for name, rating in players:
            await register(session, row, {"name": name, "rating": rating})
        if started:
            await start(session, row)
        await session.commit()
        return row.id


async def load(session: AsyncSession, tournament_id: str) -> TournamentRow:
    """The tournament as stored."""
    return await get_tournament(session, tournament_id)


async def events_after(sessions: SessionFactory, tournament_id: str, seq: int) -> list[Event]:
    """The events the tournament has after `seq`, decoded, oldest first."""
    async with sessions() as session:
        return [decode(e.type, e.payload) for e in await events_since(session, tournament_id, seq)]


async def last_seq(sessions: SessionFactory, tournament_id: str) -> int:
    """The tournament's newest event's seq."""
    async with sessions() as session:
        return (await load(session, tournament_id)).last_seq
