"""Bridge event movements: who plays which board at which table in which round.

A pairs session's movement is a list of rounds, each a list of tables with the NS and
EW pairs and the boards they play there. A teams event is a list of rounds of matches;
each match is played over its boards twice, in the open room (home sits NS) and in
the closed room (home sits EW), so the two rooms' results compare (the lecture *Wynik
rozdania*: "mecz teamowy"; docs/rules/bridge.md).

Rules checked when an event is laid out (each error names the settings field, so a
client sees e.g. `movement.2.tables.0.boards.3`):

- every board of the movement is in the session, and no board is listed twice;
- a table plays a board at most once, so a (table, board) pair names one round;
- a pair or team plays a board at most once (a team twice, once per room);
- nobody sits twice in one round, and no table is used twice in one round.

The settings are the JSON document an organizer sent (validated for types by the API);
`layout_from_settings` turns it into a `Layout`, the form the ranking works on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from service.engine.bridge.errors import BridgeInputError
from service.engine.bridge.vp import BandScale, vp

__all__ = [
    "MAX_BOARDS",
    "Layout",
    "Match",
    "PairsScoring",
    "Play",
    "layout_from_settings",
    "scale_from_settings",
]

MAX_BOARDS = 10_000
"""The largest session a `boards` count may name."""


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
    """A team match: home sits NS at `open_table` and EW at `closed_table`."""

    round: int
    home: int
    away: int
    open_table: int
    closed_table: int
    boards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PairsScoring:
    """How a pairs session is ranked, with the options of its method (docs/rules/bridge.md).

    Butler uses `datum_method`, `trim` and `rounding`; Cavendish `divisor` and
    `comparison_cap`; both may cap the IMPs won per round (`round_cap`: the Polish
    10 + k for a round of k boards).
    """

    method: Literal["matchpoints", "butler", "cavendish"] = "matchpoints"
    datum_method: str = "pzbs"
    trim: int = 1
    rounding: str = "down"
    divisor: str = "tables"
    comparison_cap: int | None = None
    round_cap: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    """Who plays which board where, and how the event is scored."""

    kind: Literal["pairs", "teams"]
    boards: tuple[int, ...]
    entrants: dict[int, str]
    """Entrant number -> name (pairs or teams)."""
    plays: dict[tuple[int, int], Play]
    """(table, board) -> the play."""
    matches: tuple[Match, ...] = ()
    """Teams: every match, in the order given."""
    pairs_scoring: PairsScoring = field(default_factory=PairsScoring)
    """Pairs: the ranking method and its options."""
    scale: str | BandScale = "wbf-2013"
    """Teams: the VP scale."""

    @property
    def scoring(self) -> str:
        """The method's name: matchpoints, butler, cavendish, or imps-vp (teams)."""
        return self.pairs_scoring.method if self.kind == "pairs" else "imps-vp"

    @property
    def tables(self) -> list[int]:
        """Every table number of the movement."""
        return sorted({table for table, _ in self.plays})

    @property
    def rounds(self) -> int:
        """The number of rounds."""
        return len({play.round for play in self.plays.values()})


def _boards(value: int | Sequence[int]) -> tuple[int, ...]:
    if isinstance(value, int):
        if not 1 <= value <= MAX_BOARDS:
            raise BridgeInputError("boards", f"a session has 1 to {MAX_BOARDS} boards, not {value}")
        return tuple(range(1, value + 1))
    seen: set[int] = set()
    for index, board in enumerate(value):
        if board in seen:
            raise BridgeInputError(f"boards.{index}", f"board {board} is listed twice")
        seen.add(board)
    if not value:
        raise BridgeInputError("boards", "a session needs at least one board")
    return tuple(value)


def _entrants(items: Sequence[Mapping[str, Any]], field: str) -> dict[int, str]:
    entrants: dict[int, str] = {}
    for index, item in enumerate(items):
        number = int(item["number"])
        if number in entrants:
            raise BridgeInputError(f"{field}.{index}.number", f"number {number} is used twice")
        entrants[number] = str(item["name"])
    return entrants


class _Builder:
    """Collects plays while checking the movement's rules."""

    def __init__(self, boards: tuple[int, ...], entrants: dict[int, str], noun: str) -> None:
        self.boards = frozenset(boards)
        self.entrants = entrants
        self.noun = noun
        self.plays: dict[tuple[int, int], Play] = {}
        self.played: set[tuple[int, int]] = set()

    def entrant(self, number: int, field: str) -> None:
        if number not in self.entrants:
            raise BridgeInputError(field, f"no {self.noun} {number} in this event")

    def seat(self, number: int, seated: set[int], round_number: int, field: str) -> None:
        """Seat an entrant of the event for one round (nobody sits twice in a round)."""
        self.entrant(number, field)
        if number in seated:
            raise BridgeInputError(
                field, f"{self.noun} {number} is seated twice in round {round_number}"
            )
        seated.add(number)

    def add(self, play: Play, field: str, board_index: int, sides: Iterable[int]) -> None:
        board_field = f"{field}.boards.{board_index}"
        if play.board not in self.boards:
            raise BridgeInputError(board_field, f"board {play.board} is not in the session")
        if (play.table, play.board) in self.plays:
            raise BridgeInputError(
                board_field,
                f"table {play.table} already plays board {play.board} in round "
                f"{self.plays[play.table, play.board].round}",
            )
        self.plays[play.table, play.board] = play
        for side in sides:
            if (side, play.board) in self.played:
                raise BridgeInputError(
                    board_field, f"{self.noun} {side} would play board {play.board} twice"
                )
            self.played.add((side, play.board))


def _numbered_rounds(
    rounds: Sequence[Mapping[str, Any]], field: str
) -> Iterator[tuple[int, int, Mapping[str, Any]]]:
    """(index, round number, round) for each listed round; a number listed twice is an
    error naming `<field>.<index>.round`."""
    seen: set[int] = set()
    for index, rnd in enumerate(rounds):
        number = int(rnd["round"])
        if number in seen:
            raise BridgeInputError(f"{field}.{index}.round", f"round {number} is listed twice")
        seen.add(number)
        yield index, number, rnd


def _pairs_scoring(settings: Mapping[str, Any]) -> PairsScoring:
    method = settings.get("scoring", "matchpoints")
    if method not in ("matchpoints", "butler", "cavendish"):
        raise BridgeInputError("scoring", f"unknown pairs scoring {method!r}")
    butler = settings.get("butler") or {}
    cavendish = settings.get("cavendish") or {}
    chosen = {"butler": butler, "cavendish": cavendish}.get(method, {})
    cap = cavendish.get("comparison_cap")
    return PairsScoring(
        method=method,
        datum_method=str(butler.get("datum_method", "pzbs")),
        trim=int(butler.get("trim", 1)),
        rounding=str(butler.get("rounding", "down")),
        divisor=str(cavendish.get("divisor", "tables")),
        comparison_cap=None if cap is None else int(cap),
        round_cap=bool(chosen.get("round_cap", False)),
    )


def _pairs_layout(settings: Mapping[str, Any], boards: tuple[int, ...]) -> Layout:
    entrants = _entrants(settings["pairs"], "pairs")
    builder = _Builder(boards, entrants, "pair")
    for r_index, number, rnd in _numbered_rounds(settings["movement"], "movement"):
        tables: set[int] = set()
        seated: set[int] = set()
        for t_index, play in enumerate(rnd["tables"]):
            field = f"movement.{r_index}.tables.{t_index}"
            table, ns, ew = int(play["table"]), int(play["ns"]), int(play["ew"])
            if table in tables:
                raise BridgeInputError(f"{field}.table", f"table {table} is listed twice")
            tables.add(table)
            builder.seat(ns, seated, number, f"{field}.ns")
            builder.seat(ew, seated, number, f"{field}.ew")
            for b_index, board in enumerate(play["boards"]):
                builder.add(Play(number, table, int(board), ns, ew), field, b_index, (ns, ew))
    return Layout("pairs", boards, entrants, builder.plays, pairs_scoring=_pairs_scoring(settings))


def scale_from_settings(stored: str | Mapping[str, Any]) -> str | BandScale:
    """A VP scale as stored: a scale name, or a band table {"name", "bands": [{"from",
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


def _match(number: int, item: Mapping[str, Any]) -> Match:
    return Match(
        number,
        int(item["home"]),
        int(item["away"]),
        int(item["open_table"]),
        int(item["closed_table"]),
        tuple(int(b) for b in item["boards"]),
    )


def _teams_layout(settings: Mapping[str, Any], boards: tuple[int, ...]) -> Layout:
    entrants = _entrants(settings["teams"], "teams")
    builder = _Builder(boards, entrants, "team")
    scale = scale_from_settings(settings.get("scale", "wbf-2013"))
    matches: list[Match] = []
    for r_index, number, rnd in _numbered_rounds(settings["rounds"], "rounds"):
        tables: set[int] = set()
        seated: set[int] = set()
        for m_index, item in enumerate(rnd["matches"]):
            field = f"rounds.{r_index}.matches.{m_index}"
            match = _match(number, item)
            builder.seat(match.home, seated, number, f"{field}.home")
            builder.seat(match.away, seated, number, f"{field}.away")
            for table, name in (
                (match.open_table, "open_table"),
                (match.closed_table, "closed_table"),
            ):
                if table in tables:
                    raise BridgeInputError(
                        f"{field}.{name}", f"table {table} is used twice in round {number}"
                    )
                tables.add(table)
            try:
                vp(0, len(match.boards), scale)
            except BridgeInputError as exc:
                raise BridgeInputError("scale", str(exc)) from None
            sides = (match.home, match.away)
            for b_index, board in enumerate(match.boards):
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
    return Layout("teams", boards, entrants, builder.plays, tuple(matches), scale=scale)


_KIND_FIELDS = {"pairs": ("pairs", "movement"), "teams": ("teams", "rounds")}


def layout_from_settings(settings: Mapping[str, Any]) -> Layout:
    """Check an event's settings against the movement rules and build its layout."""
    kind = settings["kind"]
    if kind not in _KIND_FIELDS:
        raise BridgeInputError("kind", f"an event is 'pairs' or 'teams', not {kind!r}")
    for name in _KIND_FIELDS[kind]:
        if not settings.get(name):
            raise BridgeInputError(name, f"a {kind} event needs '{name}'")
    for other_kind, names in _KIND_FIELDS.items():
        for name in names:
            if other_kind != kind and settings.get(name) is not None:
                raise BridgeInputError(name, f"'{name}' belongs to a {other_kind} event")
    boards = _boards(settings["boards"])
    if kind == "pairs":
        return _pairs_layout(settings, boards)
    return _teams_layout(settings, boards)
