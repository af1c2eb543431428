"""Pair the next round of a Swiss tournament (FIDE Dutch C.04.3, JCA) once every result
of the current round is confirmed; 409 names the tables still open. Announced byes
(half-point, zero-point for absence, full-point) come with the request and are checked
by the engine (`engine.byes`: a withdrawn player is granted none); a withdrawn player
gets a zero-point bye, and byes announced in the Swiss settings (TRF-26 240) and by an
imported file fill in the rest. The settings' forbidden pairs and Baku acceleration
steer the Dutch engine (`app.swiss_records`, the same records the TRF export writes);
forbidden pairs that leave no pairing are a 409 naming them, nothing stored. A round
with no game (byes only) is complete once paired (`engine.rounds`): the tournament
goes on, or finishes after its last round. The pairing runs off the event loop
(`offload`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.lifecycle import settle_status
from service.app.offload import run_cpu
from service.app.swiss_records import pairing_accelerations
from service.app.systems import options_of, pair_steered
from service.db.event_types import RoundPaired
from service.db.events import append_event, lock_tournament
from service.db.game_reads import last_paired_round, round_rows
from service.db.player_reads import list_players
from service.db.repository import store_round
from service.db.tables import TournamentRow
from service.db.tournament_config import config_of
from service.db.tournament_reads import load_engine_tournament
from service.engine.byes import check_requested_byes
from service.engine.lifecycle import TournamentStatus
from service.engine.model import Bye, ByeKind, Round
from service.engine.pairing.round_pairing import Pairing
from service.engine.result_reporting import GameStatus
from service.engine.rounds import round_progress
from service.engine.systems import spec_of
from service.errors import Conflict

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
    players = await list_players(session, tournament.id)
    withdrawn = {
        p.start_number for p in players if p.extra.get("withdrawn") and p.start_number is not None
    }
    asked = [(requester, ByeKind(kind)) for requester, kind in requested]
    check_requested_byes(
        asked, players={p.start_number for p in engine.players}, withdrawn=withdrawn
    )
    byes = [Bye(current + 1, requester, kind) for requester, kind in asked]
    announced = {b.player for b in byes}
    for number in sorted(withdrawn - announced):
        byes.append(Bye(current + 1, number, ByeKind.ZERO_POINT))
        announced.add(number)
    config = config_of(tournament)
    swiss = config.swiss
    for kept in (*(swiss.byes_for(current + 1) if swiss else ()), *config.kept_byes):
        # Byes announced in the settings, then those an imported TRF file announced for
        # this round (api/routes/trf.py); a withdrawn player's zero-point bye stands.
        if kept.round == current + 1 and kept.player not in announced:
            byes.append(Bye(current + 1, kept.player, kept.kind))
            announced.add(kept.player)
    pairing = await run_cpu(  # off the event loop (docs/decisions/thread-pool.md)
        pair_steered,
        spec.pairing_name,
        engine,
        byes=byes,
        options=options_of(tournament),
        accelerations=pairing_accelerations(swiss, engine),
        forbidden_pairs=swiss.forbidden_pairs if swiss else (),
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
    settle_status(tournament, finished=standing.finished)
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
