"""Read-only lists: tournament and bridge-event pages (keyset pagination on
`(created_at, id)`, newest first), the FLAMPARK tournaments the cross-tournament lists
read, round summaries, one player's games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, or_
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.tables import (
    ByeRow,
    GameRow,
    PlayerRow,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
)

__all__ = [
    "PageKey",
    "RoundCounts",
    "flampark_tournaments",
    "page_events",
    "player_by_number",
    "player_rounds",
    "round_counts",
]


@dataclass(frozen=True, slots=True)
class PageKey:
    """Where a page ends: the last row's creation time and id."""

    created_at: datetime
    id: str


async def page_events(
    session: AsyncSession,
    *,
    bridge: bool,
    limit: int,
    after: PageKey | None = None,
    status: str | None = None,
    systems: Sequence[str] | None = None,
) -> tuple[list[tuple[TournamentRow, int]], PageKey | None]:
    """One page of public chess tournaments (or bridge events) with their player counts,
    and the key of the next page (None on the last); private and archived ones are not
    listed."""
    kind = TournamentKind.BRIDGE if bridge else TournamentKind.CHESS
    statement = select(TournamentRow).where(
        TournamentRow.kind == kind,
        TournamentRow.visibility == "public",  # private and archived ones are never listed
        col(TournamentRow.archived_at).is_(None),
    )
    if status is not None:
        statement = statement.where(TournamentRow.status == status)
    if systems:
        statement = statement.where(col(TournamentRow.system).in_(list(systems)))
    if after is not None:
        statement = statement.where(
            or_(
                col(TournamentRow.created_at) < after.created_at,
                and_(
                    col(TournamentRow.created_at) == after.created_at,
                    col(TournamentRow.id) < after.id,
                ),
            )
        )
    statement = statement.order_by(
        col(TournamentRow.created_at).desc(), col(TournamentRow.id).desc()
    ).limit(limit + 1)
    rows = list((await session.exec(statement)).all())
    more = len(rows) > limit
    rows = rows[:limit]
    counts: dict[str, int] = {}
    if rows and not bridge:
        counted = (
            select(PlayerRow.tournament_id, func.count())
            .where(col(PlayerRow.tournament_id).in_([r.id for r in rows]))
            .group_by(col(PlayerRow.tournament_id))
        )
        counts = {tid: int(n) for tid, n in (await session.exec(counted)).all()}
    next_key = PageKey(rows[-1].created_at, rows[-1].id) if more else None
    return [(row, counts.get(row.id, 0)) for row in rows], next_key


async def flampark_tournaments(session: AsyncSession) -> list[TournamentRow]:
    """Every public FLAMPARK tournament that has started (private and archived ones
    stay out of the cross-tournament lists: docs/api.md#access-and-privacy)."""
    statement = select(TournamentRow).where(
        TournamentRow.system == "flampark",
        col(TournamentRow.status) != TournamentStatus.REGISTRATION,
        TournamentRow.visibility == "public",
        col(TournamentRow.archived_at).is_(None),
    )
    return list((await session.exec(statement)).all())


@dataclass(frozen=True, slots=True)
class RoundCounts:
    """A round's games by status, and its byes."""

    round: int
    statuses: Counter[str]
    byes: int


async def round_counts(session: AsyncSession, tournament_id: str) -> list[RoundCounts]:
    """Every round that has games or byes, in order."""
    games = (
        select(GameRow.round, GameRow.status, func.count())
        .where(GameRow.tournament_id == tournament_id)
        .group_by(col(GameRow.round), col(GameRow.status))
    )
    byes = (
        select(ByeRow.round, func.count())
        .where(ByeRow.tournament_id == tournament_id)
        .group_by(col(ByeRow.round))
    )
    statuses: dict[int, Counter[str]] = {}
    for number, game_status, n in (await session.exec(games)).all():
        statuses.setdefault(number, Counter())[game_status] = int(n)
    bye_counts = {number: int(n) for number, n in (await session.exec(byes)).all()}
    numbers = sorted(set(statuses) | set(bye_counts))
    return [RoundCounts(n, statuses.get(n, Counter()), bye_counts.get(n, 0)) for n in numbers]


async def player_rounds(
    session: AsyncSession, tournament_id: str, start_number: int
) -> tuple[list[GameRow], list[ByeRow]]:
    """One player's games and byes, by round."""
    games = (
        select(GameRow)
        .where(
            GameRow.tournament_id == tournament_id,
            or_(col(GameRow.white) == start_number, col(GameRow.black) == start_number),
        )
        .order_by(col(GameRow.round))
    )
    byes = (
        select(ByeRow)
        .where(ByeRow.tournament_id == tournament_id, ByeRow.player == start_number)
        .order_by(col(ByeRow.round))
    )
    return list((await session.exec(games)).all()), list((await session.exec(byes)).all())


async def player_by_number(
    session: AsyncSession, tournament_id: str, start_number: int
) -> PlayerRow | None:
    """The player holding a start number (numbers are given when the list closes)."""
    statement = select(PlayerRow).where(
        PlayerRow.tournament_id == tournament_id, PlayerRow.start_number == start_number
    )
    return (await session.exec(statement)).first()
