"""Enter, correct or remove a bridge result, one at a time or from a PBN file
(docs/architecture.md#the-layers: one workflow per write).

Each entry authorizes (the caller's `BridgeActor` comes from the API's token check and
is checked against the rules here), locks the event, scores the board (the engine:
Law 77 with the board's vulnerability), stores the row and one event carrying the
previous value (nothing is silently overwritten) and moves the event's round on. The
router commits once (`api.publish.commit_and_publish`).

Readings (documented in docs/rules/bridge.md, "Readings"):

- A table's token enters the results of its own table only. A table may correct its
  own entry; once the organizer has entered or corrected a result, only the organizer
  may change it. Artificial adjusted scores are the organizer's (Law 12C2), and so is
  removing a result or importing a PBN file.
- A board outside the session, or not played at the table, is a 422; a table the
  movement does not have is a 404.
- A PBN import is all or nothing: one bad game stores none, and the error names it. A
  file holds at most one game with a contract for each play of the session (a table's
  board): a longer one is refused before anything is entered.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.lifecycle import settle_status
from service.app.offload import run_cpu
from service.db.bridge_reads import RESULT_KEYS, entered_places, find_result
from service.db.bridge_tables import BridgeResultRow
from service.db.event_types import (
    BridgeResultCorrected,
    BridgeResultEntered,
    BridgeResultEvent,
    BridgeResultRemoved,
)
from service.db.events import append_event, lock_tournament
from service.db.tables import TournamentRow, utcnow
from service.engine.bridge import (
    BridgeInputError,
    PbnResult,
    board_conditions,
    ns_score,
    parse_contract,
    read_pbn,
)
from service.engine.bridge.movement import Layout, Play
from service.engine.numerals import whole_number
from service.errors import Conflict, Forbidden, InvalidInput, NotFound, Problem

__all__ = [
    "BridgeActor",
    "EntryOutcome",
    "ImportOutcome",
    "ResultInput",
    "enter_result",
    "find_play",
    "import_pbn",
    "remove_result",
    "stored_result",
]


@dataclass(frozen=True, slots=True)
class BridgeActor:
    """Who is writing: the organizer, or the scoring app of one table."""

    kind: Literal["organizer", "table"]
    table: int | None = None

    @property
    def label(self) -> str:
        """ "organizer" or "table:<n>", as recorded in results and events."""
        return "organizer" if self.kind == "organizer" else f"table:{self.table}"


@dataclass(frozen=True, slots=True)
class ResultInput:
    """A result as entered: a contract (or "pass"), or an artificial adjustment."""

    contract: str | None = None
    declarer: str | None = None
    tricks: int | None = None
    adjusted: tuple[Fraction, Fraction] | None = None
    """(NS %, EW %) of an artificial adjusted score."""


@dataclass(frozen=True, slots=True)
class EntryOutcome:
    """What a result entry did."""

    result: BridgeResultRow
    seq: int | None
    """The event's sequence number; None when the entry repeated the stored result."""


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What a PBN import did."""

    games: int
    changed: int


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


async def stored_result(
    session: AsyncSession, row: TournamentRow, layout: Layout, table: int, board: int
) -> BridgeResultRow:
    """One stored result, or NotFound (422/404 for a place the movement lacks)."""
    play = find_play(layout, table, board)
    stored = await find_result(session, row.id, play.round, table, board)
    if stored is None:
        raise NotFound(f"no result yet for board {board} at table {table}", field="board")
    return stored


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


def _authorize_entry(actor: BridgeActor, table: int, entry: ResultInput) -> None:
    if actor.kind == "table" and actor.table != table:
        raise Forbidden(
            f"this token belongs to table {actor.table}, not table {table}", field="table"
        )
    if actor.kind == "table" and entry.adjusted is not None:
        raise Forbidden("only the organizer may award an adjusted score", field="adjusted")


def _require_organizer(actor: BridgeActor, what: str) -> None:
    if actor.kind != "organizer":
        raise Forbidden(f"only the organizer may {what}", field="Authorization")


async def enter_result(
    session: AsyncSession,
    row: TournamentRow,
    layout: Layout,
    table: int,
    board: int,
    entry: ResultInput,
    actor: BridgeActor,
) -> EntryOutcome:
    """The workflow: authorize, lock, score, store the result and its event, advance."""
    _authorize_entry(actor, table, entry)
    await lock_tournament(session, row.id)
    await session.refresh(row)
    outcome = await _enter(session, row, layout, table, board, entry, actor)
    if outcome.seq is not None:
        await _advance(session, row, layout)
    return outcome


async def _enter(
    session: AsyncSession,
    row: TournamentRow,
    layout: Layout,
    table: int,
    board: int,
    entry: ResultInput,
    actor: BridgeActor,
) -> EntryOutcome:
    """Store one entry and its event (the caller holds the event's lock)."""
    play = find_play(layout, table, board)
    fields = _result_fields(play, entry)
    stored = await find_result(session, row.id, play.round, table, board)
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
        event: type[BridgeResultEvent] = BridgeResultEntered
    else:
        current = {key: getattr(stored, key) for key in RESULT_KEYS}
        if current == fields:
            return EntryOutcome(stored, None)
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
        event = BridgeResultCorrected
    session.add(stored)
    await session.flush()
    entered = event(
        round=play.round,
        table=table,
        board=board,
        ns=play.ns,
        ew=play.ew,
        result={key: fields[key] for key in RESULT_KEYS},
        by=actor.label,
        version=stored.version,
        previous=previous,
    )
    seq = await append_event(session, row.id, entered)
    return EntryOutcome(stored, seq)


async def remove_result(
    session: AsyncSession,
    row: TournamentRow,
    layout: Layout,
    table: int,
    board: int,
    actor: BridgeActor,
) -> int:
    """Remove a result entered by mistake (the organizer's call); the event keeps it as
    the previous value. Returns the event's sequence number."""
    _require_organizer(actor, "remove a result")
    await lock_tournament(session, row.id)
    await session.refresh(row)
    stored = await stored_result(session, row, layout, table, board)
    previous = {
        **{key: getattr(stored, key) for key in RESULT_KEYS},
        "entered_by": stored.entered_by,
        "version": stored.version,
    }
    removed = BridgeResultRemoved(
        round=stored.round,
        table=table,
        board=board,
        ns=stored.ns,
        ew=stored.ew,
        result=None,
        by=actor.label,
        version=stored.version + 1,
        previous=previous,
    )
    await session.delete(stored)
    await session.flush()
    seq = await append_event(session, row.id, removed)
    await _advance(session, row, layout)
    return seq


async def import_pbn(
    session: AsyncSession, row: TournamentRow, layout: Layout, text: str, actor: BridgeActor
) -> ImportOutcome:
    """Enter every game of a PBN file (organizer only), all or nothing: a bad game
    raises a problem naming it (`games.<i>.<PBN tag>`, 0-based among the games with a
    contract) and the caller's transaction stores none."""
    _require_organizer(actor, "import results")
    try:
        # off the event loop; linear in the text; no more games than the session has
        # plays (a table's board), so the entries below stay bounded too
        games = await run_cpu(read_pbn, text, len(layout.plays))
    except BridgeInputError as exc:
        raise InvalidInput(str(exc), field="body") from None
    if not games:
        raise InvalidInput("the file holds no game with a [Contract]", field="body")
    await lock_tournament(session, row.id)
    await session.refresh(row)
    changed = 0
    for index, game in enumerate(games):
        try:
            outcome = await _import_game(session, row, layout, game, actor)
        except Problem as exc:
            raise type(exc)(
                f"game {index + 1} (board {game.board}): {exc.detail}",
                field=f"games.{index}.{_PBN_TAGS.get(exc.field or '', exc.field)}",
            ) from None
        changed += outcome.seq is not None
    if changed:
        await _advance(session, row, layout)
    return ImportOutcome(len(games), changed)


async def _import_game(
    session: AsyncSession, row: TournamentRow, layout: Layout, game: PbnResult, actor: BridgeActor
) -> EntryOutcome:
    """Enter one PBN game where [Table] (and [Round], if given) place it."""
    table_text = game.tags.get("Table", "").strip()
    table = whole_number(table_text)
    if table is None or not 1 <= table <= 10_000:
        raise InvalidInput(f"[Table] must be a table number, got {table_text!r}", field="table")
    play = find_play(layout, table, game.board)
    round_text = game.tags.get("Round", "").strip()
    if round_text not in ("", "?", "-") and round_text != str(play.round):
        raise InvalidInput(
            f"table {table} plays board {game.board} in round {play.round}, not {round_text!r}",
            field="Round",
        )
    if game.vulnerability is not board_conditions(game.board).vulnerability:
        raise InvalidInput(
            f"[Vulnerable] {game.vulnerability} differs from board {game.board}'s "
            f"{board_conditions(game.board).vulnerability}",
            field="Vulnerable",
        )
    if game.contract is None:
        entry = ResultInput("pass")
    else:
        declarer = None if game.declarer is None else game.declarer.value
        entry = ResultInput(str(game.contract), declarer, game.tricks)
    return await _enter(session, row, layout, table, game.board, entry, actor)


_PBN_TAGS = {
    "board": "Board",
    "table": "Table",
    "Round": "Round",
    "Vulnerable": "Vulnerable",
    "contract": "Contract",
    "declarer": "Declarer",
    "tricks": "Result",
}


async def _advance(session: AsyncSession, row: TournamentRow, layout: Layout) -> None:
    """`current_round`: the first round with a result missing; finished when none is."""
    entered = await entered_places(session, row.id)
    missing = [play.round for key, play in layout.plays.items() if key not in entered]
    if missing:
        row.current_round = min(missing)
    else:
        row.current_round = max(p.round for p in layout.plays.values())
    settle_status(row, finished=not missing)
    session.add(row)
