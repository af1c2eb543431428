"""Bridge request and response documents: the compute endpoints and bridge events.

Numbers leave the service as JSON numbers: whole values as integers, others rounded
half-up to 2 decimals (matchpoints, percentages, IMPs, VP). The engine keeps them
exact; `number` (the engine's `bridge.rounding.figure`) is the one place where they are
rounded for display.

Board entries (the `scores` of a board, NS point of view) are one of:

- an integer NS score (`420`, `-100`);
- an artificial adjusted score `{"ns_percent": 60, "ew_percent": 40}` (Law 12C2);
- a weighted score `{"weighted": [{"weight": "0.6", "score": 420}, ...]}` (Law 12C1(c)),
  weights as numbers or strings ("3/5") adding up to exactly 1.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from service.api.schemas.common import ApiModel, Name, ShortName
from service.engine.bridge import ArtificialScore, BoardEntry, WeightedScore
from service.engine.bridge.butler import DatumMethod, DatumRounding
from service.engine.bridge.cavendish import CavendishDivisor
from service.engine.bridge.contract import Seat as EngineSeat
from service.engine.bridge.imps import ImpRounding
from service.engine.bridge.matchpoints import MatchpointUnits
from service.engine.bridge.rounding import figure as number
from service.engine.bridge.vp import BandScale

__all__ = [
    "AdjustedEntry",
    "BridgeEventCreate",
    "BridgeEventCreated",
    "BridgeEventPublic",
    "BridgeImportSummary",
    "BridgeRanking",
    "BridgeResultPublic",
    "BridgeResultSubmit",
    "BridgeResultWithHistory",
    "ButlerRequest",
    "ButlerResponse",
    "CavendishRequest",
    "CavendishResponse",
    "CustomScale",
    "Entrant",
    "Entry",
    "ImpsRequest",
    "ImpsResponse",
    "MatchRequest",
    "MatchResponse",
    "MatchpointsRequest",
    "MatchpointsResponse",
    "PattonRequest",
    "PattonResponse",
    "ScaleBand",
    "ScoreRequest",
    "ScoreResponse",
    "VpRequest",
    "VpResponse",
    "WeightedEntry",
    "WeightedPart",
    "engine_entry",
    "engine_scale",
    "number",
]

Seat = EngineSeat
Number = float | int
ImpRoundingName = ImpRounding
ScaleName = Literal["wbf-2013", "wbf-2013-discrete", "acbl-20", "acbl-30"]


class ScaleBand(ApiModel):
    """One band of a whole-number VP scale: from this IMP margin up, these VPs."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_imps: StrictInt = Field(alias="from", ge=0, le=10_000, description="Lowest margin.")
    winner: StrictFloat = Field(ge=0, le=1_000)
    loser: StrictFloat = Field(ge=0, le=1_000)


class CustomScale(ApiModel):
    """A federation's own whole-number VP scale, e.g. the pre-2013 WBF 25:0 scale
    (draw 15:15, the winner rising to 25) from its own rulebook."""

    name: ShortName = "custom"
    bands: list[ScaleBand] = Field(min_length=1, max_length=200)

    def to_engine(self) -> BandScale:
        """The engine's band scale (its checks raise BridgeInputError on `scale`)."""
        bands = tuple(
            (b.from_imps, Decimal(str(b.winner)), Decimal(str(b.loser))) for b in self.bands
        )
        return BandScale(self.name, bands)


Scale = ScaleName | CustomScale


def engine_scale(scale: Scale | dict[str, Any] | str) -> str | BandScale:
    """A scale as the engine takes it: a name, or a band table."""
    if isinstance(scale, str):
        return scale
    if isinstance(scale, dict):
        scale = CustomScale.model_validate(scale)
    return scale.to_engine()


Tricks = Annotated[
    StrictInt, Field(ge=0, le=13, description="Tricks taken by declarer's side, 0-13.")
]
BoardNumber = Annotated[StrictInt, Field(ge=1, le=10_000)]
TableNumber = Annotated[StrictInt, Field(ge=1, le=10_000)]
EntrantNumber = Annotated[StrictInt, Field(ge=1, le=100_000)]
NsScore = Annotated[
    StrictInt, Field(ge=-100_000, le=100_000, description="A North-South score in points.")
]


# --- board entries -------------------------------------------------------------------


class AdjustedEntry(ApiModel):
    """An artificial adjusted score: a percentage for each side (Law 12C2)."""

    ns_percent: StrictFloat = Field(ge=0, le=100, examples=[60])
    ew_percent: StrictFloat = Field(ge=0, le=100, examples=[40])

    def to_engine(self) -> ArtificialScore:
        """The engine's value (percentages read exactly from their decimal text)."""
        return ArtificialScore.of(Fraction(str(self.ns_percent)), Fraction(str(self.ew_percent)))


class WeightedPart(ApiModel):
    """One possible result of a weighted score."""

    weight: (
        Annotated[StrictFloat, Field(ge=0, le=1)]
        | Annotated[str, Field(max_length=15, pattern=r"^\d{1,6}(\.\d{1,6})?$|^\d{1,6}/\d{1,6}$")]
    ) = Field(
        examples=["0.6", "3/5"],
        description="A share of 1: a number, a decimal string (up to 6 places) or a "
        "fraction `n/d` (numbers bounded: no arbitrary-precision parsing).",
    )
    score: NsScore


class WeightedEntry(ApiModel):
    """A weighted assigned score (Law 12C1(c)): results with weights adding up to 1."""

    weighted: list[WeightedPart] = Field(min_length=1, max_length=20)

    def to_engine(self) -> WeightedScore:
        """The engine's value; raises the engine's error when the weights are wrong."""
        return WeightedScore.of(*((str(p.weight), p.score) for p in self.weighted))


Entry = NsScore | AdjustedEntry | WeightedEntry
"""One table's entry on a board, as a request carries it."""


def engine_entry(entry: Entry) -> BoardEntry:
    """A request entry as an engine board entry."""
    if isinstance(entry, int):
        return entry
    return entry.to_engine()


Scores = Annotated[list[Entry], Field(min_length=1, max_length=10_000)]


# --- compute: one contract -----------------------------------------------------------


class ScoreRequest(ApiModel):
    """A contract's result (Law 77). Give `vulnerable` (declarer's side) or `board`."""

    contract: str = Field(
        max_length=12, examples=["4SX"], description='"4SX", "3NT", "7NTXX", or "pass".'
    )
    declarer: Seat | None = Field(default=None, description="N, E, S or W; not for a pass.")
    vulnerable: bool | None = Field(
        default=None, description="Declaring side vulnerable (or give `board`)."
    )
    board: BoardNumber | None = Field(
        default=None, description="Board number: vulnerability from the 16-board cycle."
    )
    tricks: Tricks | None = Field(default=None, description="Tricks taken by declarer's side.")


class ScoreResponse(BaseModel):
    """The score for the declaring side and for North-South."""

    contract: str = Field(description='The contract as read ("4SX"), or "pass".')
    score: int = Field(description="The declaring side's score (0 for a pass).")
    ns: int = Field(description="The same score from North-South's point of view.")
    vulnerable: bool | None = Field(description="Whether the declaring side was vulnerable.")


class ImpsRequest(ApiModel):
    """A points difference (Law 78B)."""

    difference: StrictInt = Field(ge=-100_000, le=100_000, examples=[270])
    rounding: ImpRoundingName = Field(
        default=ImpRounding.NEAREST,
        description="For differences that are not multiples of 10: nearest 10 (15 -> 1 IMP) "
        "or the Law's lower bounds (15 -> 0).",
    )


class ImpsResponse(BaseModel):
    """IMPs, signed like the difference."""

    imps: int


class VpRequest(ApiModel):
    """An IMP margin over a match of `boards` boards."""

    imps: StrictFloat = Field(ge=-10_000, le=10_000, examples=[23], description="IMP margin.")
    boards: StrictInt = Field(ge=1, le=1_000, examples=[16])
    scale: Scale = "wbf-2013"


class VpResponse(BaseModel):
    """Victory points of the winner and the loser (on a draw, both sides' figures)."""

    winner: Number
    loser: Number


# --- compute: one board ---------------------------------------------------------------


class MatchpointsRequest(ApiModel):
    """One board's NS entries, one per table."""

    scores: Scores = Field(examples=[[690, 660, 630, 630, 620, -100, -100, -200]])
    tables: StrictInt | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="Results the board should have (Neuberg when more than the real ones).",
    )
    units: MatchpointUnits = MatchpointUnits.TWO_ONE_ZERO


class MatchpointsResponse(BaseModel):
    """Matchpoints and percentages per table, in input order."""

    top: Number
    tables: int
    compared: int
    ns: list[Number]
    ew: list[Number]
    ns_percent: list[Number]
    ew_percent: list[Number]


class ButlerRequest(ApiModel):
    """One board's NS entries, IMPed against a datum."""

    scores: Scores = Field(examples=[[690, 660, 630, 630, 620, -100, -100, -200]])
    datum_method: DatumMethod = DatumMethod.PZBS
    trim: StrictInt = Field(default=1, ge=0, le=1_000, description="Per end, for `trim`.")
    rounding: DatumRounding = DatumRounding.DOWN
    imp_rounding: ImpRoundingName = ImpRounding.NEAREST


class ButlerResponse(BaseModel):
    """The datum and each table's IMPs."""

    datum: Number | None
    mean: Number | None
    kept: list[Number]
    ns_imps: list[Number]
    ew_imps: list[Number]


class CavendishRequest(ApiModel):
    """One board's NS entries, each IMPed against every other."""

    scores: Scores = Field(examples=[[730, -170, 100, -420, -400]])
    divisor: CavendishDivisor = CavendishDivisor.TABLES
    comparison_cap: StrictInt | None = Field(
        default=None, ge=0, le=24, description="Cap per comparison (17 in the WBF variant)."
    )
    imp_rounding: ImpRoundingName = ImpRounding.NEAREST


class CavendishResponse(BaseModel):
    """Each table's cross-IMPs after the divisor."""

    comparisons: int
    ns_imps: list[Number]
    ew_imps: list[Number]


# --- compute: team matches ------------------------------------------------------------

RoomPair = Annotated[list[NsScore], Field(min_length=2, max_length=2)]
MatchBoards = Annotated[list[RoomPair], Field(min_length=1, max_length=1_000)]


class PattonRequest(ApiModel):
    """A Patton match: `[open-room NS, closed-room NS]` per board."""

    boards: MatchBoards = Field(examples=[[[620, -200], [-100, -100], [450, 420], [170, -110]]])
    tie_margin: StrictInt = Field(default=10, ge=0, le=100)
    balance_total: StrictFloat | None = Field(
        default=None, ge=0, le=10_000, description="Balance points at stake (2 per board)."
    )


class PattonResponse(BaseModel):
    """Board points, balance points and totals as [home, away]."""

    boards: list[list[int]]
    board_points: list[int]
    scored: list[int]
    balance_points: list[Number]
    total: list[Number]


class MatchRequest(ApiModel):
    """A team match at IMPs: `[open-room NS, closed-room NS]` per board, then VP."""

    boards: MatchBoards = Field(examples=[[[420, -50], [-100, -100], [650, 620]]])
    scale: Scale = "wbf-2013"
    boards_in_match: StrictInt | None = Field(
        default=None, ge=1, le=1_000, description="VP table size (default: boards given)."
    )
    imp_rounding: ImpRoundingName = ImpRounding.NEAREST


class MatchResponse(BaseModel):
    """IMPs per board and in total, margin and VP, as [home, away]."""

    board_imps: list[list[Number]]
    imps: list[Number]
    margin: Number
    vp: list[Number]


# --- bridge events --------------------------------------------------------------------


class Entrant(ApiModel):
    """A pair or a team of the event."""

    number: EntrantNumber
    name: Name


class TablePlay(ApiModel):
    """Which pair sits NS and EW at a table in one round, and the boards they play."""

    table: TableNumber
    ns: EntrantNumber
    ew: EntrantNumber
    boards: list[BoardNumber] = Field(min_length=1, max_length=1_000)


class PairsRound(ApiModel):
    """One round of a pairs movement."""

    round: StrictInt = Field(ge=1, le=1_000)
    tables: list[TablePlay] = Field(min_length=1, max_length=1_000)


class TeamMatchPlay(ApiModel):
    """A team match of one round: the home team sits NS in the open room, EW in the
    closed room; each room is a table with its own number (and token)."""

    home: EntrantNumber
    away: EntrantNumber
    open_table: TableNumber
    closed_table: TableNumber
    boards: list[BoardNumber] = Field(min_length=1, max_length=1_000)


class TeamsRound(ApiModel):
    """One round of a teams event."""

    round: StrictInt = Field(ge=1, le=1_000)
    matches: list[TeamMatchPlay] = Field(min_length=1, max_length=1_000)


class ButlerOptions(ApiModel):
    """How a Butler session computes each board's datum."""

    datum_method: DatumMethod = DatumMethod.PZBS
    trim: StrictInt = Field(default=1, ge=0, le=100)
    rounding: DatumRounding = DatumRounding.DOWN
    round_cap: bool = Field(
        default=False,
        description="Polish rule: a pair wins at most 10 + k IMPs in a round of "
        "k boards; losses are not capped.",
    )


class CavendishOptions(ApiModel):
    """How a Cavendish session divides and caps the cross-IMPs."""

    divisor: CavendishDivisor = CavendishDivisor.TABLES
    comparison_cap: StrictInt | None = Field(default=None, ge=0, le=24)
    round_cap: bool = Field(
        default=False,
        description="Polish rule: a pair wins at most 10 + k IMPs in a round of "
        "k boards; losses are not capped.",
    )


Boards = StrictInt | list[BoardNumber]


class BridgeEventCreate(ApiModel):
    """A bridge event. A pairs session (`"kind": "pairs"`) gives `pairs`, `boards`, a
    `movement` and its `scoring`; a teams event (`"kind": "teams"`) gives `teams`,
    `boards`, `rounds` of matches and the VP `scale`."""

    kind: Literal["pairs", "teams"]
    name: Name
    boards: Boards = Field(
        description="The event's boards: a count (boards 1..n) or the board numbers.",
        examples=[24],
    )
    pairs: list[Entrant] | None = Field(default=None, min_length=2, max_length=10_000)
    movement: list[PairsRound] | None = Field(
        default=None, min_length=1, max_length=1_000, description="Pairs: the rounds."
    )
    scoring: Literal["matchpoints", "butler", "cavendish"] = Field(
        default="matchpoints", description="Pairs: how boards are scored."
    )
    butler: ButlerOptions = Field(default_factory=ButlerOptions)
    cavendish: CavendishOptions = Field(default_factory=CavendishOptions)
    teams: list[Entrant] | None = Field(default=None, min_length=2, max_length=10_000)
    rounds: list[TeamsRound] | None = Field(
        default=None, min_length=1, max_length=1_000, description="Teams: the matches."
    )
    scale: Scale = Field(
        default="wbf-2013", description="Teams: the VP scale (a name or a band table)."
    )
    visibility: Literal["public", "private"] = Field(
        default="public",
        description="`private`: every read (and the live channel) needs a token of the "
        "event (organizer, viewer or table); the viewer token comes back once.",
    )


class TableToken(BaseModel):
    """A table's token for the scoring app (shown once)."""

    table: int
    token: str


class BridgeEventPublic(BaseModel):
    """A bridge event's settings and state."""

    id: str
    name: str
    kind: Literal["pairs", "teams"]
    scoring: str
    status: str
    rounds: int
    current_round: int
    boards: list[int]
    entrants: list[Entrant]
    movement: list[PairsRound] | None = None
    matches: list[TeamsRound] | None = None
    options: dict[str, object] = Field(default_factory=dict)
    results: int = Field(description="Results entered so far.")
    expected_results: int = Field(description="Results the movement calls for.")
    visibility: Literal["public", "private"] = "public"


class BridgeEventCreated(BridgeEventPublic):
    """A created event with its tokens (shown only this once)."""

    organizer_token: str
    table_tokens: list[TableToken]
    viewer_token: str | None = Field(
        default=None, description="A private event's read-only token, shown once."
    )


class BridgeResultSubmit(ApiModel):
    """One table's result on one board: a contract, or (organizer only) an adjustment."""

    contract: str | None = Field(
        default=None, max_length=12, examples=["4SX"], description='"4SX" or "pass".'
    )
    declarer: Seat | None = None
    tricks: Tricks | None = None
    adjusted: AdjustedEntry | None = Field(
        default=None, description="Artificial adjusted score (organizer only)."
    )


class BridgeResultPublic(BaseModel):
    """A stored result."""

    round: int
    table: int
    board: int
    ns: int = Field(description="The pair (or team) sitting NS.")
    ew: int = Field(description="The pair (or team) sitting EW.")
    contract: str | None
    declarer: str | None
    tricks: int | None
    ns_score: int | None = Field(description="NS score; null for an adjusted result.")
    adjusted: AdjustedEntry | None
    entered_by: str
    version: int = Field(description="1 for the first entry, +1 per correction.")


class HistoryEntry(BaseModel):
    """One change of a result, from the event log."""

    seq: int
    event: str
    by: str
    result: dict[str, object] | None = Field(description="The new result; null when removed.")
    previous: dict[str, object] | None


class BridgeResultWithHistory(BridgeResultPublic):
    """A result and every change it went through, oldest first."""

    history: list[HistoryEntry]


class BridgeImportSummary(BaseModel):
    """What a PBN import did."""

    games: int = Field(description="Results read from the file.")
    changed: int = Field(description="Results stored or corrected.")
    unchanged: int = Field(description="Results identical to what was stored.")


class RankingRow(BaseModel):
    """One pair's or team's line of the ranking."""

    rank: int
    number: int
    name: str
    boards: int = Field(description="Boards scored so far.")
    score: Number = Field(description="Matchpoints, IMPs, or VP (teams).")
    top: Number | None = Field(default=None, description="Matchpoints available (pairs MP).")
    percent: Number | None = Field(default=None, description="Score / top x 100 (pairs MP).")
    matches: int | None = Field(default=None, description="Matches with a result (teams).")
    imps_for: Number | None = None
    imps_against: Number | None = None


class MatchLine(BaseModel):
    """A team match as scored so far."""

    round: int
    home: int
    away: int
    boards: int = Field(description="Boards with both rooms in.")
    imps: list[Number]
    vp: list[Number]


class BridgeRanking(BaseModel):
    """The live ranking of a bridge event."""

    kind: Literal["pairs", "teams"]
    scoring: str
    results: int
    rows: list[RankingRow]
    matches: list[MatchLine] | None = None
