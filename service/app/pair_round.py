"""Pair the next round of a Swiss tournament (FIDE Dutch C.04.3, JCA) once every result
of the current round is confirmed; 409 names the tables still open. Announced byes
(half-point, zero-point for absence, full-point) come with the request; a withdrawn
player gets a zero-point bye. A round
with no game (byes only) is complete once paired (`engine.rounds`): the tournament
goes on, or finishes after its last round. The pairing runs off the event loop
(`offload`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.offload import run_cpu
from service.app.systems import options_of, pair_next
from service.db.event_types import RoundPaired
from service.db.events import append_event, lock_tournament
from service.db.repository import (
    last_paired_round,
    list_players,
    load_engine_tournament,
    round_rows,
    store_round,
)
from service.db.tables import TournamentRow, TournamentStatus
from service.db.tournament_config import config_of
from service.engine.model import Bye, ByeKind, Round
from service.engine.pairing.result import Pairing
from service.engine.results import GameStatus
from service.engine.rounds import round_progress
from service.engine.systems import spec_of
from service.errors import Conflict, InvalidInput

__all__ = ["pair_round"]


async def pair_round(
    session: AsyncSession,
    tournament: TournamentRow,
    requested: Sequence[tuple[int, str]],
    *,
    explain: bool,
    progress: Callable[[int, int], None] | None = None,
) -> Pairing:
    """The workflow: lock, check the round is complete, pair (engine), store the round
    and its event. `requested`: the byes the organizer knows of, (start number, type)."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    spec = spec_of(tournament.system)
    if spec is None or spec.paired_in_advance or spec.pairing_name is None:
        raise Conflict(
            f"a {tournament.system} tournament is paired in full when the list closes",
            field="system",
        )
    if tournament.status != TournamentStatus.RUNNING:
        raise Conflict(_not_running(tournament), field="status")
    current = await last_paired_round(session, tournament.id)
    games, _ = await round_rows(session, tournament.id, current) if current else ([], [])
    open_tables = sorted(g.table_no for g in games if g.status != GameStatus.CONFIRMED)
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
    for index, (requester, kind) in enumerate(requested):
        if requester not in numbers:
            raise InvalidInput(f"no player {requester}", field=f"byes.{index}.player")
        byes.append(Bye(current + 1, requester, ByeKind(kind)))
    if len({b.player for b in byes}) != len(byes):
        raise InvalidInput("a player is listed twice", field="byes")
    announced = {b.player for b in byes}
    for kept in config_of(tournament).kept_byes:
        # Byes an imported TRF file announced for this round (api/routes/trf.py).
        if kept.round == current + 1 and kept.player not in announced:
            byes.append(Bye(current + 1, kept.player, kept.kind))
            announced.add(kept.player)
    for player in await list_players(session, tournament.id):
        number = player.start_number
        if player.extra.get("withdrawn") and number is not None and number not in announced:
            byes.append(Bye(current + 1, number, ByeKind.ZERO_POINT))
    pairing = await run_cpu(  # off the event loop (issue 12)
        pair_next,
        spec.pairing_name,
        engine,
        byes=byes,
        options=options_of(tournament),
        explain=explain,
        progress=progress,
    )
    paired = Round(pairing.round, pairing.games, pairing.byes)
    await store_round(session, tournament, paired)
    # a round without games (byes only) is complete as soon as it is paired
    standing = round_progress(
        pairing.round if pairing.games else None, pairing.round, tournament.total_rounds
    )
    tournament.current_round = standing.current_round
    if standing.finished:
        tournament.status = TournamentStatus.FINISHED
    session.add(tournament)
    paired_event = RoundPaired(
        pairing.round,
        games=[[g.table, g.white, g.black] for g in pairing.games],
        byes=[[b.player, b.kind.value] for b in pairing.byes],
    )
    await append_event(session, tournament.id, paired_event)
    return pairing


def _not_running(tournament: TournamentRow) -> str:
    """Why a round cannot be paired now, and what to do about it."""
    if tournament.status == TournamentStatus.REGISTRATION:
        return (
            "the tournament has not started: close the start list first "
            f"(POST /v1/tournaments/{tournament.id}/start), then pair round 1"
        )
    return f"the tournament is {tournament.status}: all its rounds are played"
