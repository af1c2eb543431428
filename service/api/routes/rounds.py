"""Rounds and results."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response, status
from fastapi.responses import StreamingResponse
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.deps import LockingWriteDep, OrganizerWriteDep, SessionDep, TournamentDep
from service.api.documents import round_public
from service.api.errors import engine_problem, is_outage, outage_problem
from service.api.observability import observe_pairing
from service.api.publish import commit_and_publish
from service.api.schemas.rounds import (
    ByePublic,
    GamePublic,
    GameStatus,
    ManualPairingRequest,
    ManualRound,
    PairedRound,
    PairingWarning,
    PairRequest,
    ResultSubmit,
    RoundPublic,
)
from service.api.schemas.teams import TeamRoundPublic
from service.api.state import AppState
from service.api.team_documents import team_round_public
from service.api.write_access import joins_group
from service.app import report_result as reporting
from service.app.manual_pairing import replace_pairing, unpair_round
from service.app.pair_round import pair_round
from service.app.team_rounds import pair_team_round
from service.app.unit_of_work import WriteContext
from service.db.game_reads import round_rows
from service.db.tables import TournamentRow
from service.db.team_reads import is_team_event
from service.engine.errors import EngineError
from service.engine.model import Round
from service.engine.pairing.round_pairing import Pairing
from service.errors import Conflict, InvalidInput, NotFound, Problem

router = APIRouter(prefix="/v1/tournaments/{tournament_id}/rounds", tags=["rounds"])

RoundNumber = Path(ge=1, le=1000, description="Round number, 1-based")
TableNumber = Path(ge=1, le=100_000, description="Table (board) number, 1-based")


PROGRESS_MEDIA_TYPE = "application/x-ndjson"
"""Ask `POST /rounds` for this (Accept) to follow a long pairing as it goes."""

PAIR_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {
            PROGRESS_MEDIA_TYPE: {
                "schema": {"type": "string"},
                "example": '{"event": "progress", "reached": 0, "players": 500}\n'
                '{"event": "progress", "reached": 500, "players": 500}\n'
                '{"event": "round", "round": {"round": 5, "games": [], "byes": []}}\n',
            }
        },
        "description": "With `Accept: application/x-ndjson`: one JSON line per step "
        "(`progress`, then `round` or `error`); the last line says how it ended.",
    }
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=PairedRound | TeamRoundPublic,
    responses=PAIR_RESPONSES,
)
async def pair_next_round(
    request: Request,
    write: OrganizerWriteDep,
    body: PairRequest | None = None,
    explain: Annotated[bool, Query(description="Say why each bracket was paired so")] = False,
) -> PairedRound | TeamRoundPublic | StreamingResponse:
    """Pair the next round of a Swiss tournament (FIDE Dutch or JCA) once every result
    of the current round is confirmed; 409 names the tables still open. Announced byes
    (half-point, zero-point for absence, full-point) are given in the body.

    A large open takes seconds to pair: with `Accept: application/x-ndjson` the answer
    is a 200 stream of JSON lines, `{"event": "progress", "reached": k, "players": n}` as
    the brackets go down the field (k of the n players to pair reached), then
    `{"event": "round", "round": {...}}` (the same document as the 201) or
    `{"event": "error", "problem": {...}}` (nothing stored). Checks that fail before the
    engine starts (an open table, a finished tournament) are ordinary problem
    responses. Not with `Idempotency-Key` (422): a stream cannot be replayed.

    A team tournament (docs/teams.md) pairs its next team round (C.04.6 or the Berger
    tables) and answers the team round's document (matches, boards, byes)."""
    session, state, tournament = write.session, write.state, write.tournament
    if is_team_event(tournament):
        with observe_pairing(request.app, tournament.system):
            draw = await pair_team_round(session, tournament)
        await commit_and_publish(write.context, state, tournament, warm=True)
        document = await team_round_public(session, tournament, draw.round)
        assert document is not None
        return document
    announced = [(bye.player, bye.type) for bye in (body or PairRequest()).byes]
    if PROGRESS_MEDIA_TYPE in request.headers.get("accept", ""):
        if request.headers.get("idempotency-key"):
            raise InvalidInput(
                "a pairing streamed as progress cannot be replayed; send it without "
                "Idempotency-Key or without Accept: application/x-ndjson",
                field="Idempotency-Key",
            )
        return await _pair_with_progress(
            request, tournament, write.context, state, announced, explain
        )
    with observe_pairing(request.app, tournament.system):
        pairing = await pair_round(session, tournament, announced, explain=explain)
    return await _store(write.context, state, tournament, pairing)


async def _store(
    context: WriteContext, state: AppState, tournament: TournamentRow, pairing: Pairing
) -> PairedRound:
    """Commit the paired round (and tell the live channel); the document to answer."""
    await commit_and_publish(context, state, tournament, warm=True)
    stored_games, stored_byes = await round_rows(context.session, tournament.id, pairing.round)
    public = round_public(pairing.round, stored_games, stored_byes)
    return PairedRound(
        **public.model_dump(), notes=list(pairing.notes), warnings=list(pairing.warnings)
    )


async def _pair_with_progress(
    request: Request,
    tournament: TournamentRow,
    context: WriteContext,
    state: AppState,
    announced: Sequence[tuple[int, str]],
    explain: bool,
) -> StreamingResponse:
    """Start the pairing; once the engine has begun (the workflow's checks passed),
    answer with a stream that follows it. A check that fails first is raised as usual."""
    loop = asyncio.get_running_loop()
    steps: asyncio.Queue[tuple[int, int]] = asyncio.Queue()

    def progress(reached: int, players: int) -> None:  # called in the CPU pool's thread
        loop.call_soon_threadsafe(steps.put_nowait, (reached, players))

    async def work() -> PairedRound:
        with observe_pairing(request.app, tournament.system):
            pairing = await pair_round(
                context.session, tournament, announced, explain=explain, progress=progress
            )
        return await _store(context, state, tournament, pairing)

    job = asyncio.create_task(work())
    first = asyncio.create_task(steps.get())
    await asyncio.wait({job, first}, return_when=asyncio.FIRST_COMPLETED)
    if not first.done():
        first.cancel()
        job.result()  # a check failed (raised as its problem) or a system without steps
    head = [first.result()] if first.done() and not first.cancelled() else []
    return StreamingResponse(
        _progress_lines(context.session, job, steps, head, request.url.path),
        status_code=status.HTTP_200_OK,  # the last line says how it ended
        media_type=PROGRESS_MEDIA_TYPE,
    )


async def _progress_lines(
    session: AsyncSession,
    job: asyncio.Task[PairedRound],
    steps: asyncio.Queue[tuple[int, int]],
    head: list[tuple[int, int]],
    instance: str,
) -> AsyncIterator[bytes]:
    """The stream: progress lines (the newest step when several are waiting), then the
    round or the problem that stopped it (the write rolled back)."""

    def line(document: dict[str, Any]) -> bytes:
        return json.dumps(document, separators=(",", ":")).encode() + b"\n"

    for reached, players in head:
        yield line({"event": "progress", "reached": reached, "players": players})
    while not job.done():
        getter = asyncio.create_task(steps.get())
        await asyncio.wait({job, getter}, return_when=asyncio.FIRST_COMPLETED)
        if not getter.done():
            getter.cancel()
            break
        reached, players = getter.result()
        while not steps.empty():
            reached, players = steps.get_nowait()
        yield line({"event": "progress", "reached": reached, "players": players})
    try:
        paired = await job
    except Exception as exc:  # the stream has begun: the problem goes in it
        await session.rollback()
        problem = _as_problem(exc)
        yield line({"event": "error", "problem": problem.body(instance)})
        return
    yield line({"event": "round", "round": paired.model_dump(mode="json")})


def _as_problem(exc: Exception) -> Problem:
    """The problem document for what stopped a streamed pairing."""
    if isinstance(exc, Problem):
        return exc
    if isinstance(exc, EngineError):
        return engine_problem(exc)
    if is_outage(exc):
        return outage_problem(exc)
    raise exc


@router.get("/{round_number}", response_model=RoundPublic | TeamRoundPublic)
async def read_round(
    tournament: TournamentDep, session: SessionDep, round_number: int = RoundNumber
) -> RoundPublic | TeamRoundPublic:
    """A round's games (players by start number) and byes; a team round's matches (team
    numbers), each with its boards, and the teams' byes (docs/teams.md)."""
    if is_team_event(tournament):
        document = await team_round_public(session, tournament, round_number)
        if document is None:
            raise NotFound(f"round {round_number} has not been paired", field="round_number")
        return document
    games, byes = await round_rows(session, tournament.id, round_number)
    if not games and not byes:
        raise NotFound(f"round {round_number} has not been paired", field="round_number")
    return round_public(round_number, games, byes)


@router.put("/{round_number}", response_model=ManualRound)
async def pair_by_hand(
    body: ManualPairingRequest, write: OrganizerWriteDep, round_number: int = RoundNumber
) -> ManualRound:
    """Replace the last round's pairing by hand (organizer) before any of its results
    is recorded (409 once one is), or pair the next round by hand once the last one's
    results are confirmed (as `POST /rounds` would). Every present player once, in a
    game or a bye;
    withdrawn players are left out (they get a zero-point bye); boards follow the list.
    Nothing is refused for breaking a pairing rule: the answer lists `warnings` by
    severity ("error": an absolute rule of C.04.1 such as a rematch; "warning": a FIDE
    Dutch quality criterion C5-C21 on which it does worse than the engine; "info"),
    with the engine's pairing of the round (`engine`) beside it (docs/api.md#manual-pairings)."""
    session, tournament = write.session, write.tournament
    _individual_only(tournament)
    made = await replace_pairing(
        session,
        tournament,
        round_number,
        [(g.white, g.black) for g in body.games],
        [(b.player, b.type) for b in body.byes],
        write.actor,
    )
    await commit_and_publish(write.context, write.state, tournament, warm=True)
    games, byes = await round_rows(session, tournament.id, round_number)
    public = round_public(round_number, games, byes)
    return ManualRound(
        **public.model_dump(),
        warnings=[
            PairingWarning(
                severity=w.severity,
                rule=w.rule,
                message=w.message,
                players=list(w.players),
            )
            for w in made.warnings
        ],
        engine=None if made.engine is None else _engine_round(made.engine),
    )


@router.delete("/{round_number}", status_code=status.HTTP_204_NO_CONTENT)
async def unpair(write: OrganizerWriteDep, round_number: int = RoundNumber) -> Response:
    """Take back the last round's pairing (organizer) while none of its results is
    recorded (409 once one is); `POST /rounds` pairs it again, with the byes and late
    entries known then."""
    _individual_only(write.tournament)
    await unpair_round(write.session, write.tournament, round_number, write.actor)
    await commit_and_publish(write.context, write.state, write.tournament, warm=True)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


def _individual_only(tournament: TournamentRow) -> None:
    """Team rounds are not paired by hand here (docs/teams.md)."""
    if is_team_event(tournament):
        raise Conflict("a team round is not paired by hand", field="system")


def _engine_round(rnd: Round) -> RoundPublic:
    """The engine's pairing in the round's shape (nothing stored, nothing played)."""
    return RoundPublic(
        round=rnd.number,
        games=[
            GamePublic(
                table=g.table, white=g.white, black=g.black, result=None, status=GameStatus.PENDING
            )
            for g in rnd.games
        ],
        byes=[ByePublic(player=b.player, type=b.kind.value) for b in rnd.byes],
    )


@router.put("/{round_number}/games/{table}/result", response_model=GamePublic)
@joins_group  # one check, then one change: a refused report costs a group nothing
async def report_result(
    body: ResultSubmit,
    write: LockingWriteDep,
    round_number: int = RoundNumber,
    table: int = TableNumber,
) -> GamePublic:
    """Report a result. The organizer's word confirms it (and may correct a confirmed
    one); a player's report is provisional until the opponent agrees; disagreement
    marks the game disputed until the organizer decides. A FLAMPARK time shortening
    is the organizer's to record: a player's report with one is a 422
    `shortening-by-arbiter`. Send `Idempotency-Key` so a retry over a flaky network
    changes nothing."""
    session, tournament = write.session, write.tournament
    extra = await reporting.check_shortening(
        session,
        tournament,
        round_number,
        table,
        body.time_shortened_minutes,
        result=body.result,
        actor=write.actor,
    )
    outcome = await reporting.report_result(
        session, tournament, round_number, table, body.result, write.actor, extra
    )
    if outcome.seq is not None:
        await commit_and_publish(write.context, write.state, tournament)
    game = outcome.game
    return round_public(game.round, [game], []).games[0]
