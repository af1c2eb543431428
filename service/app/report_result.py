"""Report a result (docs/api.md#results: a player's report is provisional; both agreeing or
the organizer confirms; disagreement marks the game disputed until the organizer decides).

Authorize (a player reports only their own games), lock the tournament, apply the
engine's state machine (`engine.result_reporting.apply_report`), store the game and one event
that carries the previous state (nothing is silently overwritten), move the current
round on. A report that repeats what is recorded changes nothing and adds no event.
A FLAMPARK time shortening rides on the organizer's report only (Formuła FLAMPARK: the arbiter
sets it on the clock), so the players' agreement is about the result alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlmodel import func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.actor import Actor
from service.app.lifecycle import settle_status
from service.db.event_types import result_event
from service.db.events import holds_lock, lock_and_reload
from service.db.game_reads import find_game, last_paired_round, preload_games
from service.db.player_reads import ratings_of
from service.db.result_store import GameChange, store_result
from service.db.tables import ByeRow, GameRow, TournamentRow
from service.db.team_reads import team_start_numbers
from service.db.tournament_config import config_of
from service.engine.lifecycle import TournamentStatus
from service.engine.model import GameResult
from service.engine.result_reporting import (
    GameState,
    GameStatus,
    NotOwnGame,
    Reporter,
    ResultLocked,
    apply_report,
)
from service.engine.rounds import round_progress
from service.engine.scoring.flampark import check_recorded_shortening
from service.errors import Conflict, Forbidden, InvalidInput, NotFound

__all__ = ["ReportOutcome", "check_shortening", "preload_reports", "report_result"]


@dataclass(frozen=True, slots=True)
class ReportOutcome:
    """What a report did."""

    game: GameRow
    seq: int | None
    """The event's sequence number, None when nothing changed (a repeat)."""


async def check_shortening(
    session: AsyncSession,
    tournament: TournamentRow,
    round_number: int,
    table: int,
    minutes: float | None,
    *,
    result: str,
    actor: Actor,
) -> dict[str, Any] | None:
    """Check a FLAMPARK time shortening sent with a result: the engine's
    `check_recorded_shortening` (Formuła FLAMPARK: only the arbiter records it, within the base
    time, for a game played, as the higher-rated player's, the lower start number)."""
    if minutes is None:
        return None
    field = "time_shortened_minutes"
    control = config_of(tournament).time_control
    if tournament.system != "flampark" or control is None:
        raise InvalidInput(
            "time shortening needs a FLAMPARK tournament with a time_control", field=field
        )
    game = await find_game(session, tournament.id, round_number, table)
    if game is None:
        return None  # report_result reports the missing game
    higher, lower = sorted((game.white, game.black))
    ratings = await ratings_of(session, tournament.id, (higher, lower))
    check_recorded_shortening(
        Fraction(str(minutes)),
        base_minutes=control.base_minutes,
        by_arbiter=actor.kind == "organizer",
        result=GameResult.parse(result),
        ratings=(ratings[higher], ratings[lower]),
        field=field,
    )
    return {field: minutes}


async def preload_reports(
    session: AsyncSession, tournament_id: str, places: list[tuple[int, int]]
) -> bool:
    """Before the next reports of a group committed together (`api.group_commit`): read
    their games, at these (round, table) places, in one statement, so that each report
    finds its game without a round trip of its own. Only once this transaction holds
    the tournament's lock (an earlier report of the group took it); returns whether it
    read them."""
    if not holds_lock(session, tournament_id):
        return False
    await preload_games(session, tournament_id, places)
    return True


async def report_result(
    session: AsyncSession,
    tournament: TournamentRow,
    round_number: int,
    table: int,
    result: str,
    actor: Actor,
    extra: dict[str, Any] | None = None,
) -> ReportOutcome:
    """The workflow: lock, state machine, store game + event, advance the round."""
    await lock_and_reload(session, tournament)
    if tournament.status == TournamentStatus.REGISTRATION:
        raise Conflict(
            "the tournament has not started: close the start list first "
            f"(POST /v1/tournaments/{tournament.id}/start); results come after the pairing",
            field="status",
        )
    game = await _require_game(session, tournament, round_number, table)
    previous = {"result": game.result, "status": game.status, "reports": dict(game.reports)}
    previous_extra = dict(game.extra)
    details_changed = any(game.extra.get(k) != v for k, v in (extra or {}).items())
    state = GameState(game.white, game.black, game.status, game.result, game.reports)  # type: ignore[arg-type]
    reporter, label = await _reporter(session, tournament, game, actor)
    try:
        transition = apply_report(state, result, reporter, details_changed=details_changed)
    except NotOwnGame as exc:
        raise Forbidden(str(exc), field=exc.field) from None
    except ResultLocked as exc:
        raise Conflict(str(exc), field=exc.field) from None
    if transition.event is None:
        return ReportOutcome(game, None)
    new = transition.state
    merged_extra = {**game.extra, **extra} if extra else game.extra
    minutes = (extra or {}).get("time_shortened_minutes")
    change = GameChange(
        result=new.result,
        status=new.status,
        reports=dict(new.reports),
        extra=merged_extra,
        shortened_minutes=game.shortened_minutes if minutes is None else float(minutes),
    )
    event = result_event(
        transition.event,
        round=game.round,
        table=game.table_no,
        white=game.white,
        black=game.black,
        result=change.result,
        status=change.status,
        by=label,
        previous={**previous, "extra": previous_extra},
        time_shortened_minutes=change.shortened_minutes,  # the request's name
        extra=extra or None,
    )
    completes_current_round = (
        change.status == GameStatus.CONFIRMED and game.round == tournament.current_round
    )
    stored = await store_result(session, game, change, event, check_round=completes_current_round)
    if completes_current_round and not stored.round_open:
        await _advance(session, tournament)
    return ReportOutcome(game, stored.seq)


async def _reporter(
    session: AsyncSession, tournament: TournamentRow, game: GameRow, actor: Actor
) -> tuple[Reporter, str]:
    """Who reports, as the state machine sees them, and how the event names them. A
    team's captain reports for the team's player on the board (docs/teams.md: the two
    captains confirm a board); a captain of neither team is refused like a player
    reporting another's game."""
    if actor.kind != "captain":
        reporter = Reporter(actor.kind, actor.start_number)
        return reporter, reporter.label
    members = await team_start_numbers(session, tournament.id, actor.team or 0)
    side = game.white if game.white in members else game.black if game.black in members else None
    if side is None:
        raise Forbidden(
            f"the captain of team {actor.team} reports only their team's boards", field="table"
        )
    return Reporter("player", side), f"captain:{actor.team}"


async def _require_game(
    session: AsyncSession, tournament: TournamentRow, round_number: int, table: int
) -> GameRow:
    game = await find_game(session, tournament.id, round_number, table)
    if game is not None:
        return game
    paired = select(func.count()).where(
        GameRow.tournament_id == tournament.id, GameRow.round == round_number
    )
    byes = select(func.count()).where(
        ByeRow.tournament_id == tournament.id, ByeRow.round == round_number
    )
    if not (await session.exec(paired)).one() and not (await session.exec(byes)).one():
        raise NotFound(f"round {round_number} has not been paired", field="round_number")
    raise NotFound(f"round {round_number} has no game at table {table}", field="table")


async def _advance(session: AsyncSession, tournament: TournamentRow) -> None:
    """The current round is complete: move `current_round` to the first round with a game
    not confirmed; finish when every round is done (`engine.rounds.round_progress`; a
    round with byes only counts as paired and complete).

    `current_round` is the first round with a game not confirmed, and a confirmed game
    never becomes unconfirmed, so only a confirmation in the current round can move it:
    `store_result` probes that round in the write's own statement, and this scan of the
    whole tournament runs once per round, not once per result.
    """
    owned = GameRow.tournament_id == tournament.id
    first_open = (
        await session.exec(
            select(func.min(GameRow.round)).where(owned, GameRow.status != GameStatus.CONFIRMED)
        )
    ).one()
    paired = await last_paired_round(session, tournament.id)
    standing = round_progress(first_open, paired, tournament.total_rounds)
    tournament.current_round = standing.current_round
    settle_status(tournament, finished=standing.finished)
    session.add(tournament)
