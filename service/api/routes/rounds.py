"""Rounds and results."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.deps import ActorDep, SessionDep, StateDep, TournamentDep
from service.api.publish import commit_and_publish
from service.api.schemas.rounds import GamePublic, ResultSubmit, RoundPublic
from service.api.views import round_public
from service.db.repository import list_players, round_rows, submit_result
from service.db.tables import TournamentRow
from service.errors import InvalidInput, NotFound

router = APIRouter(prefix="/v1/tournaments/{tournament_id}/rounds", tags=["rounds"])

RoundNumber = Path(ge=1, le=1000, description="Round number, 1-based")
TableNumber = Path(ge=1, le=100_000, description="Table (board) number, 1-based")


async def _shortening(
    session: AsyncSession,
    tournament: TournamentRow,
    round_number: int,
    table: int,
    body: ResultSubmit,
) -> dict[str, Any] | None:
    """Check a FLAMPARK time shortening (seed 000: only the higher-rated player, the lower
    start number, may cut their own time, by at most the base time)."""
    minutes = body.time_shortened_minutes
    if minutes is None:
        return None
    field = "time_shortened_minutes"
    control = tournament.settings.get("time_control")
    if tournament.system != "flampark" or not control:
        raise InvalidInput(
            "time shortening needs a FLAMPARK tournament with a time_control", field=field
        )
    base = int(control["base_minutes"])
    if minutes > base:
        raise InvalidInput(f"{minutes:g} minutes exceed the base time of {base}", field=field)
    games, _ = await round_rows(session, tournament.id, round_number)
    game = next((g for g in games if g.table_no == table), None)
    if game is None:
        return None  # submit_result reports the missing game
    players = {p.start_number: p for p in await list_players(session, tournament.id)}
    higher, lower = sorted((game.white, game.black))
    if minutes and players[higher].rating < players[lower].rating:
        raise InvalidInput(
            f"only the higher-rated player may shorten: {higher} is rated below {lower}",
            field=field,
        )
    return {field: minutes}


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
    extra = await _shortening(session, tournament, round_number, table, body)
    outcome = await submit_result(
        session, tournament, round_number, table, body.result, actor, extra
    )
    if outcome.seq is not None:
        await commit_and_publish(session, state, tournament)
    game = outcome.game
    return round_public(game.round, [game], []).games[0]
