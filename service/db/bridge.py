"""Bridge events in storage: settings, table tokens, results with history.

A bridge event is stored as a tournament (system "bridge-pairs" or "bridge-teams") so
it shares the event log, the sequence numbers and the live bus; its entrants, boards
and movement live in the tournament's settings (laid out and checked by
`service.engine.bridge.movement`). Results are rows of `bridge_results`, one per
(round, table, board); every change appends an event in the same transaction with the
previous value, so nothing is silently overwritten. The ranking itself is the
engine's (`service.engine.bridge.ranking`); `table_results` hands it the stored rows.

Readings (documented in the README section for bridge events):

- A table's token enters the results of its own table only. A table may correct its
  own entry; once the organizer has entered or corrected a result, only the organizer
  may change it. Artificial adjusted scores are the organizer's (Law 12C2).
- A board outside the session, or not played at the table, is a 422; a table the
  movement does not have is a 404.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from sqlalchemy import select as sa_select
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.bridge_tables import BridgeResultRow, BridgeTableTokenRow
from service.db.events import append_event, lock_tournament
from service.db.tables import EventRow, TournamentKind, TournamentRow, utcnow
from service.db.tokens import hash_token, new_token, token_matches
from service.engine.bridge import (
    ArtificialScore,
    BridgeInputError,
    board_conditions,
    ns_score,
    parse_contract,
)
from service.engine.bridge.movement import Layout, Play, layout_from_settings
from service.engine.bridge.ranking import TableResult
from service.errors import Conflict, Forbidden, InvalidInput, NotFound, Unauthenticated

__all__ = [
    "BRIDGE_SYSTEMS",
    "RESULT_EVENTS",
    "BridgeActor",
    "ResultInput",
    "SubmitOutcome",
    "bridge_actor",
    "count_results",
    "create_bridge_event",
    "find_play",
    "get_bridge_event",
    "get_result",
    "layout_of",
    "list_results",
    "remove_bridge_result",
    "result_document",
    "result_history",
    "submit_bridge_result",
    "table_results",
    "validate_layout",
]

BRIDGE_SYSTEMS = {"pairs": "bridge-pairs", "teams": "bridge-teams"}
"""Tournament `system` per bridge event kind."""

RESULT_EVENTS = ("bridge_result_entered", "bridge_result_corrected", "bridge_result_removed")
"""Event types that change a result (and so the ranking)."""


# --- layout ---------------------------------------------------------------------------


def validate_layout(settings: Mapping[str, Any]) -> Layout:
    """Check a new event's settings against the movement rules (errors name the
    field) and build its layout."""
    try:
        return layout_from_settings(settings)
    except BridgeInputError as exc:
        raise InvalidInput(exc.reason, field=exc.field) from None


_LAYOUTS: dict[str, Layout] = {}
_LAYOUT_CACHE_SIZE = 256


def layout_of(row: TournamentRow) -> Layout:
    """The layout of a stored event (its settings were validated when it was created).

    An event's settings never change after creation, so layouts are kept per event id
    (a few hundred at most) instead of being rebuilt on every request.
    """
    layout = _LAYOUTS.get(row.id)
    if layout is None:
        layout = validate_layout(row.settings)
        if len(_LAYOUTS) >= _LAYOUT_CACHE_SIZE:
            _LAYOUTS.clear()
        _LAYOUTS[row.id] = layout
    return layout


# --- events and tokens ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BridgeActor:
    """Who is writing: the organizer, or the scoring app of one table."""

    kind: Literal["organizer", "table"]
    table: int | None = None

    @property
    def label(self) -> str:
        """ "organizer" or "table:<n>", as recorded in results and events."""
        return "organizer" if self.kind == "organizer" else f"table:{self.table}"


async def create_bridge_event(
    session: AsyncSession, settings: dict[str, Any]
) -> tuple[TournamentRow, Layout, str, list[tuple[int, str]]]:
    """Store a new event; returns it with the organizer token and the table tokens
    (all shown once)."""
    layout = validate_layout(settings)
    token = new_token("org")
    row = TournamentRow(
        id=uuid.uuid4().hex,
        name=str(settings["name"]),
        system=BRIDGE_SYSTEMS[layout.kind],
        kind=TournamentKind.BRIDGE,
        status="running",
        settings={key: value for key, value in settings.items() if key != "name"},
        total_rounds=layout.rounds,
        current_round=min(play.round for play in layout.plays.values()),
        organizer_token_hash=hash_token(token),
    )
    session.add(row)
    await session.flush()
    tables: list[tuple[int, str]] = []
    for table in layout.tables:
        table_token = new_token("tbl")
        session.add(
            BridgeTableTokenRow(
                tournament_id=row.id, table_no=table, token_hash=hash_token(table_token)
            )
        )
        tables.append((table, table_token))
    await session.flush()
    await append_event(
        session,
        row.id,
        "bridge_event_created",
        {
            "name": row.name,
            "system": row.system,
            "tables": len(tables),
            "boards": len(layout.boards),
        },
    )
    return row, layout, token, tables


async def get_bridge_event(session: AsyncSession, event_id: str) -> TournamentRow:
    """The bridge event, or NotFound (also for a tournament of another kind)."""
    row = await session.get(TournamentRow, event_id)
    if row is None or row.system not in BRIDGE_SYSTEMS.values():
        raise NotFound(f"no bridge event {event_id!r}", field="event_id")
    return row


async def bridge_actor(session: AsyncSession, row: TournamentRow, token: str) -> BridgeActor:
    """The organizer or a table of this event, from a bearer token (401 otherwise)."""
    if token_matches(token, row.organizer_token_hash):
        return BridgeActor("organizer")
    statement = select(BridgeTableTokenRow).where(
        BridgeTableTokenRow.tournament_id == row.id,
        BridgeTableTokenRow.token_hash == hash_token(token),
    )
    found = (await session.exec(statement)).first()
    if found is None:
        raise Unauthenticated("this token does not belong to the event", field="Authorization")
    return BridgeActor("table", found.table_no)


# --- results --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResultInput:
    """A result as entered: a contract (or "pass"), or an artificial adjustment."""

    contract: str | None = None
    declarer: str | None = None
    tricks: int | None = None
    adjusted: tuple[Fraction, Fraction] | None = None
    """(NS %, EW %) of an artificial adjusted score."""


def _result_fields(play: Play, entry: ResultInput) -> dict[str, Any]:
    """The stored fields of a result, with the NS score computed by Law 77."""
    if (entry.contract is None) == (entry.adjusted is None):
        raise InvalidInput("give either a contract or an adjusted score", field="contract")
    if entry.adjusted is not None:
        ns_pct, ew_pct = entry.adjusted
        return {
            "contract": None,
            "declarer": None,
            "tricks": None,
            "ns_score": None,
            "adjusted": {"ns_percent": _json_number(ns_pct), "ew_percent": _json_number(ew_pct)},
        }
    try:
        contract = parse_contract(entry.contract)
    except BridgeInputError as exc:
        raise InvalidInput(str(exc), field="contract") from None
    if contract is None:
        fields: dict[str, Any] = {"contract": "pass", "declarer": None, "tricks": None}
        return {**fields, "ns_score": 0, "adjusted": None}
    if entry.declarer is None:
        raise InvalidInput("a contract needs a declarer (N, E, S or W)", field="declarer")
    if entry.tricks is None:
        raise InvalidInput("a contract needs the tricks taken (0-13)", field="tricks")
    try:
        score = ns_score(
            contract, entry.declarer, board_conditions(play.board).vulnerability, entry.tricks
        )
    except BridgeInputError as exc:
        raise InvalidInput(str(exc), field=exc.field) from None
    return {
        "contract": str(contract),
        "declarer": entry.declarer,
        "tricks": entry.tricks,
        "ns_score": score,
        "adjusted": None,
    }


def _json_number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


_RESULT_KEYS = ("contract", "declarer", "tricks", "ns_score", "adjusted")


def result_document(row: BridgeResultRow) -> dict[str, Any]:
    """A stored result as JSON."""
    return {
        "round": row.round,
        "table": row.table_no,
        "board": row.board,
        "ns": row.ns,
        "ew": row.ew,
        **{key: getattr(row, key) for key in _RESULT_KEYS},
        "entered_by": row.entered_by,
        "version": row.version,
    }


@dataclass(frozen=True, slots=True)
class SubmitOutcome:
    """What a result entry did."""

    result: BridgeResultRow
    seq: int | None
    """The event's sequence number; None when the entry repeated the stored result."""


def find_play(layout: Layout, table: int, board: int) -> Play:
    """The play of `board` at `table`; 422 for a board outside the session or not
    played at this table, 404 for a table the movement does not have."""
    if board not in layout.boards:
        raise InvalidInput(f"board {board} is not in this session", field="board")
    play = layout.plays.get((table, board))
    if play is None:
        if table not in layout.tables:
            raise NotFound(f"the movement has no table {table}", field="table")
        raise InvalidInput(f"table {table} does not play board {board}", field="board")
    return play


async def submit_bridge_result(
    session: AsyncSession,
    row: TournamentRow,
    table: int,
    board: int,
    entry: ResultInput,
    actor: BridgeActor,
) -> SubmitOutcome:
    """Enter or correct one table's result on one board (the event's writers are
    serialised by the tournament lock); the event carries the previous value."""
    if actor.kind == "table" and actor.table != table:
        raise Forbidden(
            f"this token belongs to table {actor.table}, not table {table}", field="table"
        )
    if actor.kind == "table" and entry.adjusted is not None:
        raise Forbidden("only the organizer may award an adjusted score", field="adjusted")
    await lock_tournament(session, row.id)
    await session.refresh(row)
    layout = layout_of(row)
    play = find_play(layout, table, board)
    fields = _result_fields(play, entry)
    statement = select(BridgeResultRow).where(
        BridgeResultRow.tournament_id == row.id,
        BridgeResultRow.round == play.round,
        BridgeResultRow.table_no == table,
        BridgeResultRow.board == board,
    )
    stored = (await session.exec(statement)).first()
    previous: dict[str, Any] | None = None
    if stored is None:
        stored = BridgeResultRow(
            tournament_id=row.id,
            round=play.round,
            table_no=table,
            board=board,
            ns=play.ns,
            ew=play.ew,
            entered_by=actor.label,
            **fields,
        )
        event = "bridge_result_entered"
    else:
        current = {key: getattr(stored, key) for key in _RESULT_KEYS}
        if current == fields:
            return SubmitOutcome(stored, None)
        if actor.kind == "table" and stored.entered_by == "organizer":
            raise Conflict(
                "the organizer has set this result; ask the director to change it", field="board"
            )
        previous = {**current, "entered_by": stored.entered_by, "version": stored.version}
        for key, value in fields.items():
            setattr(stored, key, value)
        stored.entered_by = actor.label
        stored.version += 1
        stored.updated_at = utcnow()
        event = "bridge_result_corrected"
    session.add(stored)
    await session.flush()
    payload = {
        "round": play.round,
        "table": table,
        "board": board,
        "ns": play.ns,
        "ew": play.ew,
        "result": {key: fields[key] for key in _RESULT_KEYS},
        "by": actor.label,
        "version": stored.version,
        "previous": previous,
    }
    seq = await append_event(session, row.id, event, payload)
    await _advance(session, row, layout)
    return SubmitOutcome(stored, seq)


async def remove_bridge_result(
    session: AsyncSession, row: TournamentRow, table: int, board: int, actor: BridgeActor
) -> int:
    """Remove a result entered by mistake (the organizer's call); the event keeps it as
    the previous value. Returns the event's sequence number."""
    if actor.kind != "organizer":
        raise Forbidden("only the organizer may remove a result", field="Authorization")
    await lock_tournament(session, row.id)
    await session.refresh(row)
    layout = layout_of(row)
    stored = await get_result(session, row, table, board)
    previous = {
        **{key: getattr(stored, key) for key in _RESULT_KEYS},
        "entered_by": stored.entered_by,
        "version": stored.version,
    }
    payload = {
        "round": stored.round,
        "table": table,
        "board": board,
        "ns": stored.ns,
        "ew": stored.ew,
        "result": None,
        "by": actor.label,
        "version": stored.version + 1,
        "previous": previous,
    }
    await session.delete(stored)
    await session.flush()
    seq = await append_event(session, row.id, "bridge_result_removed", payload)
    await _advance(session, row, layout)
    return seq


async def _advance(session: AsyncSession, row: TournamentRow, layout: Layout) -> None:
    """`current_round`: the first round with a result missing; finished when none is."""
    statement = select(BridgeResultRow.table_no, BridgeResultRow.board).where(
        BridgeResultRow.tournament_id == row.id
    )
    entered = set((await session.exec(statement)).all())
    missing = [play.round for key, play in layout.plays.items() if key not in entered]
    if missing:
        row.current_round, row.status = min(missing), "running"
    else:
        row.current_round, row.status = max(p.round for p in layout.plays.values()), "finished"
    session.add(row)


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


async def get_result(
    session: AsyncSession, row: TournamentRow, table: int, board: int
) -> BridgeResultRow:
    """One stored result, or NotFound."""
    play = find_play(layout_of(row), table, board)
    statement = select(BridgeResultRow).where(
        BridgeResultRow.tournament_id == row.id,
        BridgeResultRow.round == play.round,
        BridgeResultRow.table_no == table,
        BridgeResultRow.board == board,
    )
    stored = (await session.exec(statement)).first()
    if stored is None:
        raise NotFound(f"no result yet for board {board} at table {table}", field="board")
    return stored


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
    for event in (await session.exec(statement)).all():
        payload = event.payload
        if payload.get("table") == table and payload.get("board") == board:
            history.append(
                {
                    "seq": event.seq,
                    "event": event.type,
                    "by": payload.get("by", ""),
                    "result": payload.get("result"),
                    "previous": payload.get("previous"),
                }
            )
    return history


# --- ranking --------------------------------------------------------------------------


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
