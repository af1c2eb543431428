"""The recorded dates of a tournament's rounds (docs/rules/trf.md#rating-report), as
the event log holds them. Nothing here writes."""

from __future__ import annotations

from datetime import date

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.tables import EventRow

__all__ = ["recorded_dates"]

_RESULTS = ("result_reported", "result_confirmed")


async def recorded_dates(session: AsyncSession, tournament_id: str) -> dict[int, date]:
    """Each round's date (UTC): the day its first result was recorded, else the day of
    its latest `round_paired` event. A round-robin pairs every round at its start, so
    the pairing's day says little; rounds an imported file brought have neither."""
    statement = (
        select(col(EventRow.type), col(EventRow.payload), col(EventRow.created_at))
        .where(
            col(EventRow.tournament_id) == tournament_id,
            col(EventRow.type).in_(("round_paired", *_RESULTS)),
        )
        .order_by(col(EventRow.seq))
    )
    paired: dict[int, date] = {}
    played: dict[int, date] = {}
    for kind, payload, created in (await session.exec(statement)).all():
        number = int(payload["round"])
        if kind == "round_paired":
            paired[number] = created.date()
        else:
            played.setdefault(number, created.date())
    return {**paired, **played}
