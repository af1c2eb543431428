"""Bridge events: layout, results with history, and the live ranking.

A bridge event is stored as a tournament (system "bridge-pairs" or "bridge-teams") so
it shares the event log, the sequence numbers and the live bus; its entrants, boards
and movement live in the tournament's settings. Results are rows of
`bridge_results`, one per (round, table, board); every change appends an event in the
same transaction with the previous value, so nothing is silently overwritten.

Readings (documented in the README section for bridge events):

- A board may be played at most once at a table and at most once by a pair or team,
  so a (table, board) pair names one round of the movement.
- A table's token enters the results of its own table only. A table may correct its
  own entry; once the organizer has entered or corrected a result, only the organizer
  may change it. Artificial adjusted scores are the organizer's (Law 12C2).
- The ranking is live: each board is scored among the results entered so far. At
  matchpoints a board is factored with Neuberg's formula up to the number of times the
  movement has it played (the EBU/WBF treatment of boards with fewer results), so a
  board weighs the same whether or not every table has reported; a lone result is
  50 %. Matchpoint sessions rank by total matchpoints / total top (the EBU/WBF session
  percentage), Butler and Cavendish sessions by total IMPs (with `round_cap`, seed
  003's Polish cap of 10 + k IMPs won per round of k boards), teams by VP, then by IMP
  difference. Places are shared (1, 2, 2, 4) only on exactly equal figures.
- Team matches are scored over the boards with both rooms in, on the VP table of the
  full match length. A room holding an artificial score turns the board into an IMP
  adjustment (60 % -> +3, 40 % -> -3 IMPs for the side concerned); if both rooms are
  adjusted, their IMPs are averaged.
"""

from __future__ import annotations

import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.bridge_tables import BridgeResultRow, BridgeTableTokenRow
from service.db.events import append_event, lock_tournament
from service.db.tables import EventRow, TournamentRow, utcnow
from service.db.tokens import hash_token, new_token, token_matches
from service.engine.bridge import (
    ArtificialScore,
    BoardEntry,
    BridgeInputError,
    ImpAdjustment,
    TeamBoard,
    artificial_imps,
    board_conditions,
    butler,
    capped_round_total,
    cavendish,
    matchpoints,
    ns_score,
    parse_contract,
    session_percentage,
    team_match,
    vp,
)
from service.engine.bridge.vp import BandScale
from service.errors import Conflict, Forbidden, InvalidInput, NotFound, Unauthenticated

__all__ = [
    "BRIDGE_SYSTEMS",
    "RESULT_EVENTS",
    "BridgeActor",
    "Layout",
    "Play",
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
    "ranking",
    "remove_bridge_result",
    "result_document",
    "result_history",
    "submit_bridge_result",
    "validate_layout",
]

BRIDGE_SYSTEMS = {"pairs": "bridge-pairs", "teams": "bridge-teams"}
"""Tournament `system` per bridge event kind."""

RESULT_EVENTS = ("bridge_result_entered", "bridge_result_corrected", "bridge_result_removed")
"""Event types that change a result (and so the ranking)."""


# --- layout ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """One board at one table in one round, with the entrants sitting NS and EW."""

    round: int
    table: int
    board: int
    ns: int
    ew: int


@dataclass(frozen=True, slots=True)
class Match:
    """A team match: home NS at `open_table`, EW at `closed_table`."""

    round: int
    home: int
    away: int
    open_table: int
    closed_table: int
    boards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """Who plays which board where: the event's settings in a usable form."""

    kind: Literal["pairs", "teams"]
    scoring: str
    boards: tuple[int, ...]
    entrants: dict[int, str]
    plays: dict[tuple[int, int], Play]
    """(table, board) -> the play."""
    matches: tuple[Match, ...]
    options: dict[str, Any]

    @property
    def tables(self) -> list[int]:
        """Every table number of the movement."""
        return sorted({table for table, _ in self.plays})

    @property
    def rounds(self) -> int:
        """The number of rounds."""
        return len({play.round for play in self.plays.values()})


def _boards(value: int | list[int]) -> tuple[int, ...]:
    if isinstance(value, int):
        if not 1 <= value <= 10_000:
            raise InvalidInput(f"a session has 1 to 10000 boards, not {value}", field="boards")
        return tuple(range(1, value + 1))
    seen: set[int] = set()
    for index, board in enumerate(value):
        if board in seen:
            raise InvalidInput(f"board {board} is listed twice", field=f"boards.{index}")
        seen.add(board)
    if not value:
        raise InvalidInput("a session needs at least one board", field="boards")
    return tuple(value)


def _entrants(items: Sequence[Mapping[str, Any]], field: str) -> dict[int, str]:
    entrants: dict[int, str] = {}
    for index, item in enumerate(items):
        number = int(item["number"])
        if number in entrants:
            raise InvalidInput(f"number {number} is used twice", field=f"{field}.{index}.number")
        entrants[number] = str(item["name"])
    return entrants


class _Builder:
    """Collects plays while checking the movement's rules; errors name the field."""

    def __init__(self, boards: tuple[int, ...], entrants: dict[int, str], noun: str) -> None:
        self.boards = frozenset(boards)
        self.entrants = entrants
        self.noun = noun
        self.plays: dict[tuple[int, int], Play] = {}
        self.played: set[tuple[int, int]] = set()

    def entrant(self, number: int, field: str) -> None:
        if number not in self.entrants:
            raise InvalidInput(f"no {self.noun} {number} in this event", field=field)

    def add(self, play: Play, field: str, board_index: int, sides: Iterable[int]) -> None:
        board_field = f"{field}.boards.{board_index}"
        if play.board not in self.boards:
            raise InvalidInput(f"board {play.board} is not in the session", field=board_field)
        if (play.table, play.board) in self.plays:
            raise InvalidInput(
                f"table {play.table} already plays board {play.board} in round "
                f"{self.plays[play.table, play.board].round}",
                field=board_field,
            )
        self.plays[play.table, play.board] = play
        for side in sides:
            if (side, play.board) in self.played:
                raise InvalidInput(
                    f"{self.noun} {side} would play board {play.board} twice", field=board_field
                )
            self.played.add((side, play.board))


def _pairs_layout(settings: Mapping[str, Any], boards: tuple[int, ...]) -> Layout:
    entrants = _entrants(settings["pairs"], "pairs")
    builder = _Builder(boards, entrants, "pair")
    seen_rounds: set[int] = set()
    for r_index, rnd in enumerate(settings["movement"]):
        number = int(rnd["round"])
        if number in seen_rounds:
            raise InvalidInput(f"round {number} is listed twice", field=f"movement.{r_index}.round")
        seen_rounds.add(number)
        tables: set[int] = set()
        seated: set[int] = set()
        for t_index, play in enumerate(rnd["tables"]):
            field = f"movement.{r_index}.tables.{t_index}"
            table, ns, ew = int(play["table"]), int(play["ns"]), int(play["ew"])
            if table in tables:
                raise InvalidInput(f"table {table} is listed twice", field=f"{field}.table")
            tables.add(table)
            builder.entrant(ns, f"{field}.ns")
            builder.entrant(ew, f"{field}.ew")
            for side, name in ((ns, "ns"), (ew, "ew")):
                if side in seated:
                    raise InvalidInput(
                        f"pair {side} is seated twice in round {number}", field=f"{field}.{name}"
                    )
                seated.add(side)
            for b_index, board in enumerate(play["boards"]):
                builder.add(Play(number, table, int(board), ns, ew), field, b_index, (ns, ew))
    options = {"butler": settings.get("butler", {}), "cavendish": settings.get("cavendish", {})}
    return Layout(
        "pairs", settings["scoring"], boards, entrants, builder.plays, (), options=options
    )


def _scale(stored: Any) -> str | BandScale:
    """A stored VP scale: a scale name, or a band table {"name", "bands": [{"from",
    "winner", "loser"}]} (a federation's own whole-number scale)."""
    if isinstance(stored, str):
        return stored
    return BandScale(
        str(stored.get("name", "custom")),
        tuple(
            (int(b["from"]), Decimal(str(b["winner"])), Decimal(str(b["loser"])))
            for b in stored["bands"]
        ),
    )


def _teams_layout(settings: Mapping[str, Any], boards: tuple[int, ...]) -> Layout:
    entrants = _entrants(settings["teams"], "teams")
    builder = _Builder(boards, entrants, "team")
    matches: list[Match] = []
    seen_rounds: set[int] = set()
    scale = settings.get("scale", "wbf-2013")
    for r_index, rnd in enumerate(settings["rounds"]):
        number = int(rnd["round"])
        if number in seen_rounds:
            raise InvalidInput(f"round {number} is listed twice", field=f"rounds.{r_index}.round")
        seen_rounds.add(number)
        tables: set[int] = set()
        seated: set[int] = set()
        for m_index, item in enumerate(rnd["matches"]):
            field = f"rounds.{r_index}.matches.{m_index}"
            match = Match(
                number,
                int(item["home"]),
                int(item["away"]),
                int(item["open_table"]),
                int(item["closed_table"]),
                tuple(int(b) for b in item["boards"]),
            )
            for side, name in ((match.home, "home"), (match.away, "away")):
                builder.entrant(side, f"{field}.{name}")
                if side in seated:
                    raise InvalidInput(
                        f"team {side} plays twice in round {number}", field=f"{field}.{name}"
                    )
                seated.add(side)
            for table, name in (
                (match.open_table, "open_table"),
                (match.closed_table, "closed_table"),
            ):
                if table in tables:
                    raise InvalidInput(
                        f"table {table} is used twice in round {number}", field=f"{field}.{name}"
                    )
                tables.add(table)
            try:
                vp(0, len(match.boards), _scale(scale))
            except BridgeInputError as exc:
                raise InvalidInput(str(exc), field="scale") from None
            for b_index, board in enumerate(match.boards):
                sides = (match.home, match.away)
                builder.add(
                    Play(number, match.open_table, board, match.home, match.away),
                    field,
                    b_index,
                    sides,
                )
                # The closed room repeats the board with the teams' seats swapped.
                builder.played.difference_update((side, board) for side in sides)
                builder.add(
                    Play(number, match.closed_table, board, match.away, match.home),
                    field,
                    b_index,
                    sides,
                )
            matches.append(match)
    return Layout(
        "teams", "imps-vp", boards, entrants, builder.plays, tuple(matches), {"scale": scale}
    )


_KIND_FIELDS = {"pairs": ("pairs", "movement"), "teams": ("teams", "rounds")}


def validate_layout(settings: Mapping[str, Any]) -> Layout:
    """Check a new event's settings (errors name the field) and build its layout."""
    kind = settings["kind"]
    for field in _KIND_FIELDS[kind]:
        if not settings.get(field):
            raise InvalidInput(f"a {kind} event needs '{field}'", field=field)
    for other_kind, fields in _KIND_FIELDS.items():
        for field in fields:
            if other_kind != kind and settings.get(field) is not None:
                raise InvalidInput(f"'{field}' belongs to a {other_kind} event", field=field)
    boards = _boards(settings["boards"])
    if kind == "pairs":
        return _pairs_layout(settings, boards)
    return _teams_layout(settings, boards)


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


def _entry(result: BridgeResultRow) -> BoardEntry:
    if result.adjusted is not None:
        return ArtificialScore.of(
            Fraction(str(result.adjusted["ns_percent"])),
            Fraction(str(result.adjusted["ew_percent"])),
        )
    assert result.ns_score is not None
    return result.ns_score


def _shared_ranks(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Competition ranks (1, 2, 2, 4) for rows already sorted by `keys`."""
    ranks: list[int] = []
    for index, key in enumerate(keys):
        ranks.append(ranks[-1] if index and key == keys[index - 1] else index + 1)
    return ranks


def _exact(value: Fraction) -> int | Fraction:
    """Whole values as ints: summing ints is far cheaper than summing Fractions."""
    return value.numerator if value.denominator == 1 else value


def _pairs_ranking(layout: Layout, results: Sequence[BridgeResultRow]) -> dict[str, Any]:
    by_board: dict[int, list[BridgeResultRow]] = defaultdict(list)
    for result in results:
        by_board[result.board].append(result)
    score: dict[int, int | Fraction] = defaultdict(int)
    top: dict[int, int | Fraction] = defaultdict(int)
    boards: dict[int, int] = defaultdict(int)
    butler_options = layout.options.get("butler", {})
    cavendish_options = layout.options.get("cavendish", {})
    capped = bool(layout.options.get(layout.scoring, {}).get("round_cap", False))
    expected = Counter(play.board for play in layout.plays.values())
    by_round: dict[tuple[int, int], list[Fraction]] = defaultdict(list)
    for board_results in by_board.values():
        entries = [_entry(r) for r in board_results]
        sides = [(r.ns, r.ew) for r in board_results]
        if layout.scoring == "matchpoints":
            # Neuberg: a board is scored as if all its tables in the movement had
            # reported, so every board weighs the same while results come in.
            mp = matchpoints(entries, tables=max(expected[board_results[0].board], len(entries)))
            ns_values, ew_values = mp.ns, mp.ew
            board_top = _exact(mp.top)
            for ns, ew in sides:
                top[ns] += board_top
                top[ew] += board_top
        elif layout.scoring == "butler":
            scored = butler(
                entries,
                butler_options.get("datum_method", "pzbs"),
                trim=int(butler_options.get("trim", 1)),
                rounding=butler_options.get("rounding", "down"),
            )
            ns_values, ew_values = scored.ns_imps, scored.ew_imps
        else:
            crossed = cavendish(
                entries,
                divisor=cavendish_options.get("divisor", "tables"),
                comparison_cap=cavendish_options.get("comparison_cap"),
            )
            ns_values, ew_values = crossed.ns_imps, crossed.ew_imps
        rounds = [r.round for r in board_results]
        for (ns, ew), rnd, ns_value, ew_value in zip(
            sides, rounds, ns_values, ew_values, strict=True
        ):
            if capped:
                by_round[ns, rnd].append(ns_value)
                by_round[ew, rnd].append(ew_value)
            else:
                score[ns] += _exact(ns_value)
                score[ew] += _exact(ew_value)
            boards[ns] += 1
            boards[ew] += 1
    for (side, _rnd), values in by_round.items():
        # Seed 003's Polish cap: at most 10 + k IMPs won in a round of k boards.
        score[side] += _exact(capped_round_total(values))

    keys: dict[int, tuple[int | Fraction, ...]]
    if layout.scoring == "matchpoints":
        # Total matchpoints over total available (the EBU/WBF session percentage).
        percent = {n: session_percentage([score[n]], [top[n]]) for n in layout.entrants}
        keys = {n: (-percent[n],) for n in layout.entrants}
    else:
        keys = {n: (-score[n],) for n in layout.entrants}
    order = sorted(layout.entrants, key=lambda n: (keys[n], n))
    ranks = _shared_ranks([keys[n] for n in order])
    rows = []
    for rank, number in zip(ranks, order, strict=True):
        line: dict[str, Any] = {
            "rank": rank,
            "number": number,
            "name": layout.entrants[number],
            "boards": boards[number],
            "score": score[number],
        }
        if layout.scoring == "matchpoints":
            line["top"] = top[number]
            line["percent"] = percent[number]
        rows.append(line)
    return {"kind": "pairs", "scoring": layout.scoring, "results": len(results), "rows": rows}


def _team_board(open_room: BridgeResultRow, closed_room: BridgeResultRow) -> TeamBoard:
    """A board of a match as the engine takes it (home NS in the open room)."""
    if open_room.adjusted is None and closed_room.adjusted is None:
        assert open_room.ns_score is not None and closed_room.ns_score is not None
        return (open_room.ns_score, closed_room.ns_score)
    adjustments: list[tuple[Fraction, Fraction]] = []
    for room, home_side in ((open_room, "ns_percent"), (closed_room, "ew_percent")):
        if room.adjusted is not None:
            away_side = "ew_percent" if home_side == "ns_percent" else "ns_percent"
            adjustments.append(
                (
                    artificial_imps(Fraction(str(room.adjusted[home_side]))),
                    artificial_imps(Fraction(str(room.adjusted[away_side]))),
                )
            )
    count = len(adjustments)
    return ImpAdjustment(
        sum((a[0] for a in adjustments), Fraction(0)) / count,
        sum((a[1] for a in adjustments), Fraction(0)) / count,
    )


def _teams_ranking(layout: Layout, results: Sequence[BridgeResultRow]) -> dict[str, Any]:
    stored = {(r.table_no, r.board): r for r in results}
    scale = _scale(layout.options.get("scale", "wbf-2013"))
    vp_total: dict[int, Fraction] = defaultdict(Fraction)
    imps_for: dict[int, Fraction] = defaultdict(Fraction)
    imps_against: dict[int, Fraction] = defaultdict(Fraction)
    played: dict[int, int] = defaultdict(int)
    boards: dict[int, int] = defaultdict(int)
    lines = []
    for match in layout.matches:
        match_boards: list[TeamBoard] = []
        for board in match.boards:
            open_room = stored.get((match.open_table, board))
            closed_room = stored.get((match.closed_table, board))
            if open_room is not None and closed_room is not None:
                match_boards.append(_team_board(open_room, closed_room))
        if not match_boards:
            lines.append(
                {
                    "round": match.round,
                    "home": match.home,
                    "away": match.away,
                    "boards": 0,
                    "imps": [0, 0],
                    "vp": [0, 0],
                }
            )
            continue
        scored = team_match(match_boards, scale=scale, boards_in_match=len(match.boards))
        for side, index in ((match.home, 0), (match.away, 1)):
            vp_total[side] += Fraction(scored.vp[index])
            imps_for[side] += scored.imps[index]
            imps_against[side] += scored.imps[1 - index]
            played[side] += 1
            boards[side] += len(match_boards)
        lines.append(
            {
                "round": match.round,
                "home": match.home,
                "away": match.away,
                "boards": len(match_boards),
                "imps": list(scored.imps),
                "vp": [Fraction(v) for v in scored.vp],
            }
        )
    keys = {n: (-vp_total[n], -(imps_for[n] - imps_against[n])) for n in layout.entrants}
    order = sorted(layout.entrants, key=lambda n: (keys[n], n))
    ranks = _shared_ranks([keys[n] for n in order])
    rows = [
        {
            "rank": rank,
            "number": number,
            "name": layout.entrants[number],
            "boards": boards[number],
            "score": vp_total[number],
            "matches": played[number],
            "imps_for": imps_for[number],
            "imps_against": imps_against[number],
        }
        for rank, number in zip(ranks, order, strict=True)
    ]
    return {
        "kind": "teams",
        "scoring": "imps-vp",
        "results": len(results),
        "rows": rows,
        "matches": lines,
    }


def ranking(layout: Layout, results: Sequence[BridgeResultRow]) -> dict[str, Any]:
    """The live ranking from the results entered so far (exact figures)."""
    if layout.kind == "pairs":
        return _pairs_ranking(layout, results)
    return _teams_ranking(layout, results)
