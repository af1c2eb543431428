"""Reading bridge events: an event, its layout, its results and their history.

A bridge event is stored as a tournament (system "bridge-pairs" or "bridge-teams"),
its entrants, boards and movement in the tournament's settings (laid out and checked
by `service.engine.bridge.movement`); results are rows of `bridge_results`, one per
(round, table, board). Nothing here adds or changes rows (`service.db.bridge` creates
events, and the bridge entry workflow, `service.app.bridge_entry`, stores results), so
the routes read through it. `table_results` hands the ranking
(`service.engine.bridge.ranking`) the stored rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from sqlalchemy import select as sa_select
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.bridge_tables import BridgeResultRow
from service.db.event_types import BRIDGE_RESULT_EVENTS, BridgeResultEvent, decode
from service.db.tables import EventRow, TournamentRow
from service.engine.bridge import ArtificialScore, BridgeInputError
from service.engine.bridge.movement import Layout, layout_from_settings
from service.engine.bridge.ranking import TableResult
from service.errors import InvalidInput, NotFound

__all__ = [
    "BRIDGE_SYSTEMS",
    "RESULT_EVENTS",
    "RESULT_KEYS",
    "count_results",
    "entered_places",
    "find_result",
    "get_bridge_event",
    "list_results",
    "result_document",
    "result_history",
    "table_results",
    "validate_layout",
]


BRIDGE_SYSTEMS = {"pairs": "bridge-pairs", "teams": "bridge-teams"}
"""Tournament `system` per bridge event kind."""


RESULT_EVENTS = BRIDGE_RESULT_EVENTS
"""Event types that change a result (and so the ranking; db/event_types.py)."""


def validate_layout(settings: Mapping[str, Any]) -> Layout:
    """Check a new event's settings against the movement rules (errors name the
    field) and build its layout."""
    try:
        return layout_from_settings(settings)
    except BridgeInputError as exc:
        raise InvalidInput(exc.reason, field=exc.field) from None


async def get_bridge_event(session: AsyncSession, event_id: str) -> TournamentRow:
    """The bridge event, or NotFound (also for a tournament of another kind)."""
    row = await session.get(TournamentRow, event_id)
    if row is None or row.system not in BRIDGE_SYSTEMS.values():
        raise NotFound(f"no bridge event {event_id!r}", field="event_id")
    return row


RESULT_KEYS = ("contract", "declarer", "tricks", "ns_score", "adjusted")
"""The stored fields of a result (besides its place and who entered it)."""


def result_document(row: BridgeResultRow) -> dict[str, Any]:
    """A stored result as JSON."""
    return {
        "round": row.round,
        "table": row.table_no,
        "board": row.board,
        "ns": row.ns,
        "ew": row.ew,
        **{key: getattr(row, key) for key in RESULT_KEYS},
        "entered_by": row.entered_by,
        "version": row.version,
    }


async def find_result(
    session: AsyncSession, event_id: str, round_number: int, table: int, board: int
) -> BridgeResultRow | None:
    """The stored result of `board` at `table` in `round_number`, if any."""
    statement = select(BridgeResultRow).where(
        BridgeResultRow.tournament_id == event_id,
        BridgeResultRow.round == round_number,
        BridgeResultRow.table_no == table,
        BridgeResultRow.board == board,
    )
    return (await session.exec(statement)).first()


async def entered_places(session: AsyncSession, event_id: str) -> set[tuple[int, int]]:
    """The (table, board) of every stored result."""
    statement = select(BridgeResultRow.table_no, BridgeResultRow.board).where(
        BridgeResultRow.tournament_id == event_id
    )
    return set((await session.exec(statement)).all())


async def list_results(
    session: AsyncSession, event_id: str, board: int | None = None
) -> list[BridgeResultRow]:
    """Results in (board, round, table) order, optionally of one board."""
    statement = select(BridgeResultRow).where(BridgeResultRow.tournament_id == event_id)
    if board is not None:
        statement = statement.where(BridgeResultRow.board == board)
    statement = statement.order_by(
        col(BridgeResultRow.board), col(BridgeResultRow.round), col(BridgeResultRow.table_no)
    )
    return list((await session.exec(statement)).all())


async def count_results(session: AsyncSession, event_id: str) -> int:
    """How many results are entered."""
    statement = select(func.count()).where(BridgeResultRow.tournament_id == event_id)
    return int((await session.exec(statement)).one())


async def result_history(
    session: AsyncSession, event_id: str, table: int, board: int
) -> list[dict[str, Any]]:
    """Every change of one result, oldest first, from the event log."""
    statement = (
        select(EventRow)
        .where(EventRow.tournament_id == event_id, col(EventRow.type).in_(RESULT_EVENTS))
        .order_by(col(EventRow.seq))
    )
    history = []
    for stored in (await session.exec(statement)).all():
        event = decode(stored.type, stored.payload)
        assert isinstance(event, BridgeResultEvent)
        if event.table == table and event.board == board:
            history.append(
                {
                    "seq": stored.seq,
                    "event": stored.type,
                    "by": event.by,
                    "result": event.result,
                    "previous": event.previous,
                }
            )
    return history


def _entry(ns_score: int | None, adjusted: Mapping[str, Any] | None) -> int | ArtificialScore:
    if adjusted is not None:
        return ArtificialScore.of(
            Fraction(str(adjusted["ns_percent"])), Fraction(str(adjusted["ew_percent"]))
        )
    assert ns_score is not None
    return ns_score


async def table_results(session: AsyncSession, event_id: str) -> list[TableResult]:
    """Every stored result as the ranking takes it (columns, not ORM rows: a live
    ranking reads them all on each recomputation)."""
    statement = sa_select(
        col(BridgeResultRow.round),
        col(BridgeResultRow.table_no),
        col(BridgeResultRow.board),
        col(BridgeResultRow.ns),
        col(BridgeResultRow.ew),
        col(BridgeResultRow.ns_score),
        col(BridgeResultRow.adjusted),
    ).where(col(BridgeResultRow.tournament_id) == event_id)
    rows = (await session.exec(statement)).all()  # type: ignore[call-overload]
    return [
        TableResult(rnd, table, board, ns, ew, _entry(score, adjusted))
        for rnd, table, board, ns, ew, score, adjusted in rows
    ]
