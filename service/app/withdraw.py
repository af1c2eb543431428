"""Change a player, or withdraw one from a running tournament.

A withdrawn player of a Swiss tournament is not paired again, and the byes announced
for them in rounds not yet paired are cancelled (a withdrawn player takes no requested
bye, `engine.byes`). In a tournament paired in
advance (round-robin, FLAMPARK) the withdrawn player's games with no result reported
become forfeit losses for them, recorded as the organizer's results with one event each
(Formuła FLAMPARK: a walkover is not counted for the opponent and costs its giver half a
point); a reported or disputed game is left for the organizer, since it may have been
played. Reinstating a player changes no recorded result.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import col, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.actor import Actor
from service.app.lifecycle import require_open
from service.app.report_result import report_result
from service.db.event_types import PlayerUpdated
from service.db.events import append_event, lock_tournament
from service.db.player_reads import get_player
from service.db.rating_facts import RATING_FACTS, with_rating_facts
from service.db.tables import GameRow, PlayerRow, TournamentRow
from service.engine.lifecycle import TournamentStatus
from service.engine.result_reporting import GameStatus
from service.engine.systems import spec_of

__all__ = ["change_player"]


async def change_player(
    session: AsyncSession, tournament: TournamentRow, player_id: int, fields: dict[str, Any]
) -> PlayerRow:
    """Change a player's details while the start list is open; in a running tournament
    only `withdrawn` may change. The facts from the rating list (`title`, `k`,
    `games_before`, `reached_2400`) change at any time, finished tournaments included:
    once the start numbers are given they decide only the rating and norm figures,
    never a pairing or a score (docs/rules/ratings.md#k-facts)."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    running = tournament.status == TournamentStatus.RUNNING
    withdrawal = running and set(fields) - set(RATING_FACTS) == {"withdrawn"}
    facts_only = bool(fields) and set(fields) <= set(RATING_FACTS)
    if not withdrawal and not facts_only:
        require_open(tournament)
    player = await get_player(session, tournament.id, player_id)
    spec = spec_of(tournament.system)
    paired_in_advance = spec is not None and spec.paired_in_advance
    if withdrawal and fields["withdrawn"] and paired_in_advance:
        await _forfeit_open_games(session, tournament, player)
    if withdrawal and fields["withdrawn"] and player.start_number is not None:
        _cancel_announced_byes(session, tournament, player.start_number)
    player.extra = with_rating_facts(player.extra, fields)
    for name, value in fields.items():
        if name in RATING_FACTS:
            continue
        if name == "withdrawn":
            player.extra = {**player.extra, "withdrawn": bool(value)}
        elif name == "identity":
            player.extra = {**player.extra, "identity": value}
        else:
            setattr(player, name, value)
    session.add(player)
    await append_event(session, tournament.id, PlayerUpdated(player_id, fields))
    return player


def _cancel_announced_byes(
    session: AsyncSession, tournament: TournamentRow, start_number: int
) -> None:
    """Drop the byes an imported file announced for the withdrawn player in rounds not
    yet paired: a player who withdraws takes no requested bye (`engine.byes`) and is
    given a zero-point bye in each round paired from now on."""
    stored = dict(tournament.settings.get("trf") or {})
    announced = stored.get("next_round_byes") or []
    kept = [bye for bye in announced if int(bye["player"]) != start_number]
    if len(kept) == len(announced):
        return
    tournament.settings = {**tournament.settings, "trf": {**stored, "next_round_byes": kept}}
    session.add(tournament)


async def _forfeit_open_games(
    session: AsyncSession, tournament: TournamentRow, player: PlayerRow
) -> None:
    """Record a forfeit loss for `player` in each of their games with no result
    reported (a pre-paired schedule keeps the withdrawn player's games)."""
    number = player.start_number
    statement = (
        select(GameRow)
        .where(
            GameRow.tournament_id == tournament.id,
            GameRow.status == GameStatus.PENDING,
            or_(GameRow.white == number, GameRow.black == number),
        )
        .order_by(col(GameRow.round), col(GameRow.table_no))
    )
    organizer = Actor("organizer")
    for game in (await session.exec(statement)).all():
        result = "-+" if game.white == number else "+-"
        await report_result(
            session,
            tournament,
            game.round,
            game.table_no,
            result,
            organizer,
            extra={"forfeit": "withdrawal"},
        )
