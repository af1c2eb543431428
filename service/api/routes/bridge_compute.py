"""Stateless bridge scoring: the bridge engine as a service (docs/rules/bridge.md).

Nothing is stored. Each endpoint parses, calls one engine function, and renders the
numbers (whole values as integers, others rounded half-up to 2 decimals). An engine
`BridgeInputError` becomes a 422 `invalid-bridge-input` naming the request field it
concerns (service/api/errors.py); the handlers do not catch it.

The endpoints that score a list of results (matchpoints, Butler, Cavendish, Patton, a
team match: up to 10,000 scores, and Cavendish compares every pair of them) run in the
compute workers (`api.compute_offload`), each through a module-level function taking
the validated body; the one-contract, IMP and VP conversions answer on the spot.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from fastapi import APIRouter, Request, Response

from service.api.compute_offload import compute
from service.api.schemas.bridge import (
    ButlerRequest,
    ButlerResponse,
    CavendishRequest,
    CavendishResponse,
    ImpsRequest,
    ImpsResponse,
    MatchpointsRequest,
    MatchpointsResponse,
    MatchRequest,
    MatchResponse,
    PattonRequest,
    PattonResponse,
    ScoreRequest,
    ScoreResponse,
    VpRequest,
    VpResponse,
    engine_entry,
    engine_scale,
    number,
)
from service.engine.bridge import (
    BoardEntry,
    BridgeInputError,
    board_conditions,
    butler,
    cavendish,
    imps,
    matchpoints,
    parse_contract,
    patton,
    score_contract,
    team_match,
    vp,
)
from service.engine.bridge.contract import Seat
from service.errors import InvalidInput

__all__ = [
    "board_entries",
    "butler_answer",
    "cavendish_answer",
    "matchpoints_answer",
    "patton_answer",
    "router",
    "team_match_answer",
]

router = APIRouter(prefix="/v1/compute/bridge", tags=["compute-bridge"])


def board_entries(scores: Sequence[object], field: str = "scores") -> list[BoardEntry]:
    """Request entries as engine entries; a bad weighted score names its index."""
    entries: list[BoardEntry] = []
    for index, entry in enumerate(scores):
        try:
            entries.append(engine_entry(entry))  # type: ignore[arg-type]
        except BridgeInputError as exc:
            raise BridgeInputError(f"{field}.{index}", exc.reason) from None
    return entries


def _numbers(values: Sequence[Fraction | int]) -> list[float | int]:
    return [number(v) for v in values]


@router.post("/score", response_model=ScoreResponse)
async def score(body: ScoreRequest) -> ScoreResponse:
    """The score of one contract (Law 77) for the declaring side and for NS.

    Vulnerability comes from `vulnerable` (the declaring side's) or from `board` (the
    16-board cycle); a passed-out board (`"pass"`) scores 0.
    """
    contract = parse_contract(body.contract)
    if contract is None:
        return ScoreResponse(contract="pass", score=0, ns=0, vulnerable=None)
    if body.declarer is None:
        raise InvalidInput("a contract needs a declarer (N, E, S or W)", field="declarer")
    if body.tricks is None:
        raise InvalidInput("a contract needs the tricks taken (0-13)", field="tricks")
    if (body.vulnerable is None) == (body.board is None):
        raise InvalidInput("give exactly one of 'vulnerable' and 'board'", field="vulnerable")
    seat = Seat(body.declarer)
    if body.board is not None:
        vulnerable = board_conditions(body.board).vulnerability.of(seat.side)
    else:
        vulnerable = bool(body.vulnerable)
    points = score_contract(contract, seat, vulnerable, body.tricks)
    ns = points if seat.side.value == "NS" else -points
    return ScoreResponse(contract=str(contract), score=points, ns=ns, vulnerable=vulnerable)


@router.post("/imps", response_model=ImpsResponse)
async def imps_for(body: ImpsRequest) -> ImpsResponse:
    """IMPs for a points difference (Law 78B): 270 -> 7, -30 -> -1."""
    return ImpsResponse(imps=imps(body.difference, body.rounding))


@router.post("/vp", response_model=VpResponse)
async def victory_points(body: VpRequest) -> VpResponse:
    """Victory points for an IMP margin over `boards` boards (WBF 2013 continuous by
    default: 23 IMPs over 16 boards -> 15.56 : 4.44)."""
    result = vp(Fraction(str(body.imps)), body.boards, engine_scale(body.scale))
    return VpResponse(winner=number(result.winner), loser=number(result.loser))


@router.post("/matchpoints", response_model=MatchpointsResponse)
async def matchpoints_for(request: Request, body: MatchpointsRequest) -> Response:
    """Matchpoints of one board (Law 78A): 2 per score beaten, 1 per tie; EW = top - NS.
    With `tables` above the number of real results, Neuberg factors them up."""
    return await compute(request, matchpoints_answer, body)


def matchpoints_answer(body: MatchpointsRequest) -> MatchpointsResponse:
    """In a compute worker: the matchpoints the route answers."""
    entries = board_entries(body.scores)
    result = matchpoints(entries, tables=body.tables, units=body.units)
    return MatchpointsResponse(
        top=number(result.top),
        tables=result.tables,
        compared=result.compared,
        ns=_numbers(result.ns),
        ew=_numbers(result.ew),
        ns_percent=_numbers(result.ns_percent),
        ew_percent=_numbers(result.ew_percent),
    )


@router.post("/butler", response_model=ButlerResponse)
async def butler_for(request: Request, body: ButlerRequest) -> Response:
    """Butler IMPs of one board against its datum (the Polish rule by default:
    keep at most half the scores, round the mean down to 10)."""
    return await compute(request, butler_answer, body)


def butler_answer(body: ButlerRequest) -> ButlerResponse:
    """In a compute worker: the Butler IMPs the route answers."""
    entries = board_entries(body.scores)
    result = butler(
        entries,
        body.datum_method,
        trim=body.trim,
        rounding=body.rounding,
        imp_rounding=body.imp_rounding,
    )
    board_datum = result.datum
    return ButlerResponse(
        datum=None if board_datum is None else number(board_datum.value),
        mean=None if board_datum is None else number(board_datum.mean),
        kept=[] if board_datum is None else [number(v) for v in board_datum.kept],
        ns_imps=_numbers(result.ns_imps),
        ew_imps=_numbers(result.ew_imps),
    )


@router.post("/cavendish", response_model=CavendishResponse)
async def cavendish_for(request: Request, body: CavendishRequest) -> Response:
    """Cross-IMPs of one board: every score against every other, divided by the number
    of tables by default (`divisor`), optionally capped per comparison."""
    return await compute(request, cavendish_answer, body)


def cavendish_answer(body: CavendishRequest) -> CavendishResponse:
    """In a compute worker: the cross-IMPs the route answers."""
    entries = board_entries(body.scores)
    result = cavendish(
        entries,
        divisor=body.divisor,
        comparison_cap=body.comparison_cap,
        imp_rounding=body.imp_rounding,
    )
    return CavendishResponse(
        comparisons=result.comparisons,
        ns_imps=_numbers(result.ns_imps),
        ew_imps=_numbers(result.ew_imps),
    )


@router.post("/patton", response_model=PattonResponse)
async def patton_for(request: Request, body: PattonRequest) -> Response:
    """A Patton match: 2:0 / 1:1 per board (a difference of 10 is still a tie), plus
    balance points by the share of points scored (the Polish lecture's bands)."""
    return await compute(request, patton_answer, body)


def patton_answer(body: PattonRequest) -> PattonResponse:
    """In a compute worker: the Patton match the route answers."""
    boards = [(pair[0], pair[1]) for pair in body.boards]
    balance = None if body.balance_total is None else Fraction(str(body.balance_total))
    result = patton(boards, tie_margin=body.tie_margin, balance_total=balance)
    return PattonResponse(
        boards=[list(b) for b in result.boards],
        board_points=list(result.board_points),
        scored=list(result.scored),
        balance_points=_numbers(result.balance_points),
        total=_numbers(result.total),
    )


@router.post("/match", response_model=MatchResponse)
async def team_match_for(request: Request, body: MatchRequest) -> Response:
    """A team match: each board's net (open - closed) in IMPs, the margin in VP."""
    return await compute(request, team_match_answer, body)


def team_match_answer(body: MatchRequest) -> MatchResponse:
    """In a compute worker: the team match the route answers."""
    boards: list[tuple[int, int]] = [(pair[0], pair[1]) for pair in body.boards]
    result = team_match(
        boards,
        scale=engine_scale(body.scale),
        boards_in_match=body.boards_in_match,
        imp_rounding=body.imp_rounding,
    )
    return MatchResponse(
        board_imps=[_numbers(b) for b in result.board_imps],
        imps=_numbers(result.imps),
        margin=number(result.margin),
        vp=[number(v) for v in result.vp],
    )
