"""Register a player: while the start list is open, or as a late entry in a running
Swiss tournament (FIDE C.04.A: the late entry takes the next start number, has no game
in the rounds already paired, and receives a player token at once). Once every round
is paired a late entry would play nothing: registration is closed (409).
"""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.lifecycle import require_open
from service.db.event_types import PlayerAdded
from service.db.events import append_event, lock_tournament
from service.db.game_reads import last_paired_round
from service.db.player_reads import list_players, next_player_number
from service.db.rating_facts import RATING_FACTS, with_rating_facts
from service.db.tables import PlayerRow, TournamentRow
from service.db.team_reads import is_team_event
from service.db.tokens import hash_token, new_token
from service.engine.lifecycle import TournamentStatus
from service.engine.rounds import rounds_left
from service.engine.systems import spec_of
from service.errors import Conflict

__all__ = ["register"]


async def register(
    session: AsyncSession, tournament: TournamentRow, fields: dict[str, Any]
) -> tuple[PlayerRow, str | None]:
    """Register a player while the start list is open, or a late entry in a running Swiss
    tournament (FIDE C.04.A: the late entry takes the next start number, has no game in
    the rounds already paired, and receives a player token at once) while a round is
    left to pair."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    if is_team_event(tournament):
        raise Conflict(
            "a team tournament registers its players with their team "
            f"(POST /v1/tournaments/{tournament.id}/teams)",
            field="system",
        )
    spec = spec_of(tournament.system)
    late = tournament.status == TournamentStatus.RUNNING and spec is not None and spec.late_entries
    paired = await last_paired_round(session, tournament.id) if late else 0
    if not late:
        require_open(tournament)
    elif rounds_left(paired, tournament.total_rounds) == 0:
        raise Conflict(
            f"registration is closed: all {tournament.total_rounds} rounds are paired, "
            "so a late entry would play none (FIDE C.04.A: a late entry joins the "
            "rounds not yet paired)",
            field="status",
        )
    fields = dict(fields)
    identity = fields.pop("identity", None)
    facts = {name: fields.pop(name, None) for name in RATING_FACTS}
    registered = await list_players(session, tournament.id)
    player = PlayerRow(
        tournament_id=tournament.id,
        number=await next_player_number(session, tournament.id),
        extra=with_rating_facts({"identity": identity} if identity else {}, facts),
        **fields,
    )
    token = None
    if late:
        numbers = [p.start_number or 0 for p in registered]
        player.start_number = max(numbers, default=0) + 1
        token = new_token("ply")
        player.token_hash = hash_token(token)
        player.extra = {**player.extra, "late_entry_round": paired + 1}
    session.add(player)
    await session.flush()
    await append_event(
        session,
        tournament.id,
        PlayerAdded(player.number, player.start_number, {**fields, **_recorded(facts)}),
    )
    return player, token


def _recorded(facts: dict[str, Any]) -> dict[str, Any]:
    """The rating facts given (the event names only those)."""
    return {name: value for name, value in facts.items() if value is not None}
