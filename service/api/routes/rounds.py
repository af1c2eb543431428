"""Rounds and results."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, status

from service.api.deps import ActorDep, OrganizerDep, SessionDep, StateDep, TournamentDep
from service.api.observability import observe_pairing
from service.api.publish import commit_and_publish
from service.api.schemas.rounds import (
    GamePublic,
    PairedRound,
    PairRequest,
    ResultSubmit,
    RoundPublic,
)
from service.api.views import round_public
from service.app import report_result as reporting
from service.app.pair_round import pair_round
from service.db.repository import (
    round_rows,
)
from service.errors import NotFound

router = APIRouter(prefix="/v1/tournaments/{tournament_id}/rounds", tags=["rounds"])

RoundNumber = Path(ge=1, le=1000, description="Round number, 1-based")
TableNumber = Path(ge=1, le=100_000, description="Table (board) number, 1-based")


@router.post("", status_code=status.HTTP_201_CREATED, response_model=PairedRound)
async def pair_next_round(
    request: Request,
    tournament: TournamentDep,
    _organizer: OrganizerDep,
    session: SessionDep,
    state: StateDep,
    body: PairRequest | None = None,
    explain: Annotated[bool, Query(description="Say why each bracket was paired so")] = False,
) -> PairedRound:
    """Pair the next round of a Swiss tournament (FIDE Dutch or JCA) once every result
    of the current round is confirmed; 409 names the tables still open. Announced byes
    (half-point, zero-point for absence, full-point) are given in the body."""
    with observe_pairing(request.app, tournament.system):
        announced = [(bye.player, bye.type) for bye in (body or PairRequest()).byes]
        pairing = await pair_round(session, tournament, announced, explain=explain)
    await commit_and_publish(session, state, tournament)
    stored_games, stored_byes = await round_rows(session, tournament.id, pairing.round)
    public = round_public(pairing.round, stored_games, stored_byes)
    return PairedRound(
        **public.model_dump(), notes=list(pairing.notes), warnings=list(pairing.warnings)
    )


@router.get("/{round_number}", response_model=RoundPublic)
async def read_round(
    tournament: TournamentDep, session: SessionDep, round_number: int = RoundNumber
) -> RoundPublic:
    """A round's games (players by start number) and byes."""
    games, byes = await round_rows(session, tournament.id, round_number)
    if not games and not byes:
        raise NotFound(f"round {round_number} has not been paired", field="round_number")
    return round_public(round_number, games, byes)


@router.put("/{round_number}/games/{table}/result", response_model=GamePublic)
async def report_result(
    body: ResultSubmit,
    tournament: TournamentDep,
    actor: ActorDep,
    session: SessionDep,
    state: StateDep,
    round_number: int = RoundNumber,
    table: int = TableNumber,
) -> GamePublic:
    """Report a result. The organizer's word confirms it (and may correct a confirmed
    one); a player's report is provisional until the opponent agrees; disagreement
    marks the game disputed until the organizer decides. Send `Idempotency-Key` so a
    retry over a flaky network changes nothing."""
    extra = await reporting.check_shortening(
        session, tournament, round_number, table, body.time_shortened_minutes
    )
    outcome = await reporting.report_result(
        session, tournament, round_number, table, body.result, actor, extra
    )
    if outcome.seq is not None:
        await commit_and_publish(session, state, tournament)
    game = outcome.game
    return round_public(game.round, [game], []).games[0]
