"""The arbiter in control of a Swiss round's pairing: replace it by hand, or take it
back, before any of its results is recorded, or pair the next round by hand instead of
the engine (docs/api.md#manual-pairings).

A manual pairing must name every present player once (a game or a bye), no unknown or
withdrawn player (withdrawn players get their zero-point bye as in `pair_round`), and at
most one pairing-allocated bye; anything else is refused naming the entry at fault and
nothing is stored. What it breaks of the pairing rules is not refused but reported
(`engine.pairing.manual`), beside the engine's own pairing of the same round with the
same announced byes. Both writes are events of the log (`round_repaired`,
`round_unpaired`), with who made them; the event's time says when.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.actor import Actor
from service.app.lifecycle import settle_status
from service.app.offload import run_cpu
from service.app.swiss_records import pairing_accelerations
from service.app.systems import options_of, pair_next
from service.db.event_types import RoundRepaired, RoundUnpaired
from service.db.events import append_event, lock_tournament
from service.db.game_reads import last_paired_round, round_rows
from service.db.player_reads import list_players
from service.db.repository import delete_round, store_round
from service.db.tables import GameRow, TournamentRow
from service.db.tournament_config import config_of
from service.db.tournament_reads import load_engine_tournament
from service.engine.errors import EngineError
from service.engine.lifecycle import TournamentStatus
from service.engine.model import Bye, ByeKind, Game, Round, Tournament
from service.engine.pairing.manual import ManualWarning, check_manual_pairing
from service.engine.result_reporting import GameStatus
from service.engine.rounds import round_progress
from service.engine.systems import spec_of
from service.errors import Conflict, InvalidInput, NotFound

__all__ = ["ManualPairing", "replace_pairing", "unpair_round"]


@dataclass(frozen=True, slots=True)
class ManualPairing:
    """A round paired by hand, what it breaks, and the engine's pairing of it."""

    round: Round
    warnings: list[ManualWarning]
    engine: Round | None
    """None when the engine finds no pairing of the round."""


async def replace_pairing(
    session: AsyncSession,
    tournament: TournamentRow,
    number: int,
    games: Sequence[tuple[int, int]],
    byes: Sequence[tuple[int, str]],
    actor: Actor,
) -> ManualPairing:
    """The workflow: lock, check the round may be replaced (or, the round after the last
    paired one, paired) and the pairing is whole, pair it with the engine for
    comparison, store the manual one and its event.
    `games`: (white, black); `byes`: (player, bye type); players by start number."""
    placed = await _open_round(session, tournament, number)
    engine = await load_engine_tournament(session, tournament)
    before = replace(engine, rounds=tuple(r for r in engine.rounds if r.number < number))
    players = await list_players(session, tournament.id)
    withdrawn = {
        p.start_number for p in players if p.extra.get("withdrawn") and p.start_number is not None
    }
    kept: dict[int, ByeKind] = {}
    if placed is None:  # a new round: every player not withdrawn, as POST /rounds pairs
        kept = {
            bye.player: bye.kind
            for bye in config_of(tournament).kept_byes
            if bye.round == number and bye.player not in withdrawn
        }
        placed = {p.start_number for p in before.players} - set(kept)
    manual = _checked_round(
        number, before, withdrawn, placed - withdrawn, games, byes, announced=kept
    )
    announced = [b for b in manual.byes if b.kind is not ByeKind.PAIRING_ALLOCATED]
    spec = spec_of(tournament.system)
    assert spec is not None and spec.pairing_name is not None
    swiss = config_of(tournament).swiss  # forbidden pairs and acceleration, as POST /rounds
    forbidden = swiss.forbidden_pairs if swiss else ()
    try:
        pairing = await run_cpu(
            pair_next,
            spec.pairing_name,
            before,
            byes=announced,
            options=options_of(tournament),
            accelerations=pairing_accelerations(swiss, before),
            forbidden_pairs=forbidden,
        )
        engine_round: Round | None = Round(pairing.round, pairing.games, pairing.byes)
    except EngineError:
        engine_round = None
    options = options_of(tournament)
    warnings = check_manual_pairing(
        before,
        manual,
        engine_round,
        dutch=spec.pairing_name == "dutch",
        rules_2017=options.get("rules") == "dutch-2017",
        forbidden_pairs=forbidden,
    )
    await delete_round(session, tournament.id, number)
    await store_round(session, tournament, manual)
    _settle(tournament, number, has_games=bool(manual.games))
    session.add(tournament)
    event = RoundRepaired(
        number,
        games=[[g.table, g.white, g.black] for g in manual.games],
        byes=[[b.player, b.kind.value] for b in manual.byes],
        by=actor.kind,
        warnings=sorted({w.rule for w in warnings}),
    )
    await append_event(session, tournament.id, event)
    return ManualPairing(manual, warnings, engine_round)


async def unpair_round(
    session: AsyncSession, tournament: TournamentRow, number: int, actor: Actor
) -> None:
    """Take back the last round's pairing while none of its results is recorded; the
    tournament stands as it did after the round before (`POST /rounds` pairs it again,
    with the byes and late entries known then)."""
    await _lock(session, tournament)
    await _open_last_round(session, tournament, number)
    await delete_round(session, tournament.id, number)
    previous = number - 1
    if previous:
        games, _ = await round_rows(session, tournament.id, previous)
        _settle(tournament, previous, has_games=bool(games))
    else:
        tournament.current_round = 0
        settle_status(tournament, finished=False)
    session.add(tournament)
    await append_event(session, tournament.id, RoundUnpaired(number, by=actor.kind))


def _settle(tournament: TournamentRow, last: int, *, has_games: bool) -> None:
    """The current round and status once round `last` is the last paired one (a round of
    byes only is complete as soon as it is paired)."""
    standing = round_progress(last if has_games else None, last, tournament.total_rounds)
    tournament.current_round = standing.current_round
    settle_status(tournament, finished=standing.finished)


async def _open_round(
    session: AsyncSession, tournament: TournamentRow, number: int
) -> set[int] | None:
    """`_open_last_round`, or, for the round after the last paired one, the checks
    `POST /rounds` makes before pairing it (a running tournament, every result of the
    round before confirmed, rounds left): None, as no player is placed yet."""
    await _lock(session, tournament)
    last = await last_paired_round(session, tournament.id)
    if number != last + 1:
        return await _open_last_round(session, tournament, number)
    _hand_paired_system(tournament)
    if tournament.status != TournamentStatus.RUNNING:
        raise Conflict(
            f"the tournament is {tournament.status}: no round is paired now", field="status"
        )
    if tournament.total_rounds is not None and number > tournament.total_rounds:
        raise Conflict(f"all {tournament.total_rounds} rounds are paired", field="round_number")
    if last:
        games, _ = await round_rows(session, tournament.id, last)
        open_tables = sorted(g.table_no for g in games if g.status != GameStatus.CONFIRMED)
        if open_tables:
            raise Conflict(
                f"round {last} has results to confirm at tables "
                + ", ".join(str(t) for t in open_tables),
                field="round_number",
                tables=open_tables,
            )
    return None


async def _lock(session: AsyncSession, tournament: TournamentRow) -> None:
    """Serialise the tournament's writers, and read its round state under the lock."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)


def _hand_paired_system(tournament: TournamentRow) -> None:
    """409 unless the tournament's system pairs round by round (a Swiss)."""
    spec = spec_of(tournament.system)
    if spec is None or spec.paired_in_advance or spec.pairing_name is None:
        raise Conflict(
            f"a {tournament.system} tournament is paired in full when the list closes; "
            "its rounds are not paired by hand",
            field="system",
        )


async def _open_last_round(
    session: AsyncSession, tournament: TournamentRow, number: int
) -> set[int]:
    """Check (the tournament locked) that round `number` is the last paired round of a
    running Swiss tournament and has no result recorded (409 naming the tables that
    have one); the players the round places (in a game or a bye)."""
    _hand_paired_system(tournament)
    if tournament.status == TournamentStatus.REGISTRATION:
        raise Conflict("the tournament has not started", field="status")
    last = await last_paired_round(session, tournament.id)
    if number > last:
        raise NotFound(f"round {number} has not been paired", field="round_number")
    if number < last:
        raise Conflict(
            f"only the last paired round (round {last}) may be changed", field="round_number"
        )
    games, byes = await round_rows(session, tournament.id, number)
    recorded = sorted(g.table_no for g in games if _has_result(g))
    if recorded:
        raise Conflict(
            f"round {number} has results recorded at tables " + ", ".join(str(t) for t in recorded),
            field="round_number",
            tables=recorded,
        )
    return {p for g in games for p in (g.white, g.black)} | {b.player for b in byes}


def _has_result(game: GameRow) -> bool:
    """A result (or a player's report of one) is recorded for the game."""
    return game.status != GameStatus.PENDING or game.result is not None or bool(game.reports)


def _checked_round(
    number: int,
    before: Tournament,
    withdrawn: set[int],
    present: set[int],
    games: Sequence[tuple[int, int]],
    byes: Sequence[tuple[int, str]],
    *,
    announced: Mapping[int, ByeKind] | None = None,
) -> Round:
    """The manual round, refused (422 naming the entry) unless it names every present
    player once (those the stored round placed, withdrawn ones aside), no unknown or
    withdrawn one, and at most one pairing-allocated bye. Withdrawn players get a
    zero-point bye; a late entry the stored round did not place may be paired, or is
    absent (a zero-point bye) as it was. A player left out of a new round whose bye an
    imported file announced (`announced`) gets that bye."""
    known = {p.start_number for p in before.players}
    seen: dict[int, str] = {}

    def take(player: int, field: str) -> None:
        if player not in known:
            raise InvalidInput(f"no player {player}", field=field)
        if player in withdrawn:
            raise InvalidInput(
                f"player {player} has withdrawn and is not paired (the round gives them "
                "a zero-point bye); reinstate the player first",
                field=field,
            )
        if player in seen:
            raise InvalidInput(f"player {player} is already paired at {seen[player]}", field=field)
        seen[player] = field

    for index, (white, black) in enumerate(games):
        take(white, f"games[{index}].white")
        take(black, f"games[{index}].black")
    allocated = 0
    for index, (player, kind) in enumerate(byes):
        take(player, f"byes[{index}].player")
        if kind == ByeKind.PAIRING_ALLOCATED:
            allocated += 1
            if allocated > 1:
                raise InvalidInput(
                    "a round has at most one pairing-allocated bye (C.04.1 c)",
                    field=f"byes[{index}].type",
                )
    missing = sorted(present - set(seen))
    if missing:
        raise InvalidInput(
            "every present player is paired or given a bye; missing: "
            + ", ".join(str(n) for n in missing),
            field="games",
            players=missing,
        )
    paired = tuple(
        Game(number, white, black, table=table)
        for table, (white, black) in enumerate(games, start=1)
    )
    given = [Bye(number, player, ByeKind(kind)) for player, kind in byes]
    absent = known - set(seen)  # withdrawn, or entered after the round was paired
    kinds = announced or {}
    given += [
        Bye(number, player, kinds.get(player, ByeKind.ZERO_POINT)) for player in sorted(absent)
    ]
    return Round(number, paired, tuple(sorted(given, key=lambda b: b.player)))
