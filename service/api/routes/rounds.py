"""Rounds and results."""

from __future__ import annotations

from fastapi import APIRouter, Path

from service.api.deps import ActorDep, SessionDep, StateDep, TournamentDep
from service.api.publish import commit_and_publish
from service.api.schemas.rounds import GamePublic, ResultSubmit, RoundPublic
from service.api.views import round_public
from service.db.repository import round_rows, submit_result
from service.errors import NotFound

router = APIRouter(prefix="/v1/tournaments/{tournament_id}/rounds", tags=["rounds"])

RoundNumber = Path(ge=1, le=1000, description="Round number, 1-based")
TableNumber = Path(ge=1, le=100_000, description="Table (board) number, 1-based")


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
    outcome = await submit_result(session, tournament, round_number, table, body.result, actor)
    if outcome.seq is not None:
        await commit_and_publish(session, state, tournament)
    game = outcome.game
    return round_public(game.round, [game], []).games[0]
