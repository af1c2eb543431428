"""Rounds and results."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, status
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.deps import ActorDep, OrganizerDep, SessionDep, StateDep, TournamentDep
from service.api.publish import commit_and_publish
from service.api.schemas.rounds import (
    GamePublic,
    PairedRound,
    PairRequest,
    ResultSubmit,
    RoundPublic,
)
from service.api.systems import SWISS, pair_next
from service.api.views import round_public
from service.db.events import append_event, lock_tournament
from service.db.repository import (
    find_game,
    list_players,
    load_engine_tournament,
    ratings_of,
    round_rows,
    store_round,
    submit_result,
)
from service.db.tables import TournamentRow
from service.engine.model import Bye, ByeKind, Round
from service.errors import Conflict, InvalidInput, NotFound

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
    game = await find_game(session, tournament.id, round_number, table)
    if game is None:
        return None  # submit_result reports the missing game
    higher, lower = sorted((game.white, game.black))
    ratings = await ratings_of(session, tournament.id, (higher, lower))
    if minutes and ratings[higher] < ratings[lower]:
        raise InvalidInput(
            f"only the higher-rated player may shorten: {higher} is rated below {lower}",
            field=field,
        )
    return {field: minutes}


@router.post("", status_code=status.HTTP_201_CREATED, response_model=PairedRound)
async def pair_next_round(
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
    request = body or PairRequest()
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    system = SWISS.get(tournament.system)
    if system is None:
        raise Conflict(
            f"a {tournament.system} tournament is paired in full when the list closes",
            field="system",
        )
    if tournament.status != "running":
        raise Conflict(_not_running(tournament), field="status")
    games, _ = await round_rows(session, tournament.id)
    current = max((g.round for g in games), default=0)
    open_tables = sorted(
        g.table_no for g in games if g.round == current and g.status != "confirmed"
    )
    if open_tables:
        raise Conflict(
            f"round {current} has results to confirm at tables "
            + ", ".join(str(t) for t in open_tables),
            field="round",
            tables=open_tables,
        )
    engine = await load_engine_tournament(session, tournament)
    if tournament.total_rounds is not None and current >= tournament.total_rounds:
        raise Conflict(f"all {tournament.total_rounds} rounds are paired", field="round")
    numbers = {p.start_number for p in engine.players}
    byes = []
    for index, bye in enumerate(request.byes):
        if bye.player not in numbers:
            raise InvalidInput(f"no player {bye.player}", field=f"byes.{index}.player")
        byes.append(Bye(current + 1, bye.player, ByeKind(bye.type)))
    if len({b.player for b in byes}) != len(byes):
        raise InvalidInput("a player is listed twice", field="byes")
    announced = {b.player for b in byes}
    for player in await list_players(session, tournament.id):
        number = player.start_number
        if player.extra.get("withdrawn") and number is not None and number not in announced:
            byes.append(Bye(current + 1, number, ByeKind.ZERO_POINT))
    pairing = pair_next(
        system, engine, byes=byes, options=tournament.settings.get("swiss") or {}, explain=explain
    )
    paired = Round(pairing.round, pairing.games, pairing.byes)
    await store_round(session, tournament, paired)
    tournament.current_round = pairing.round
    session.add(tournament)
    await append_event(
        session,
        tournament.id,
        "round_paired",
        {
            "round": pairing.round,
            "games": [[g.table, g.white, g.black] for g in pairing.games],
            "byes": [[b.player, b.kind.value] for b in pairing.byes],
        },
    )
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
    extra = await _shortening(session, tournament, round_number, table, body)
    outcome = await submit_result(
        session, tournament, round_number, table, body.result, actor, extra
    )
    if outcome.seq is not None:
        await commit_and_publish(session, state, tournament)
    game = outcome.game
    return round_public(game.round, [game], []).games[0]


def _not_running(tournament: TournamentRow) -> str:
    """Why a round cannot be paired now, and what to do about it."""
    if tournament.status == "registration":
        return (
            "the tournament has not started: close the start list first "
            f"(POST /v1/tournaments/{tournament.id}/start), then pair round 1"
        )
    return f"the tournament is {tournament.status}: all its rounds are played"
