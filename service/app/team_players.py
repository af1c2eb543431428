"""A team's new players (docs/teams.md): at registration, as reserves added later, or
with a team entering late. Before the start list closes they wait for their start
numbers; after it, each gets the next start number and a player token at once, like an
individual late entry (FIDE C.04.A). Nobody plays for two teams: a FIDE id already in
the tournament is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.event_types import PlayerAdded
from service.db.events import append_event
from service.db.player_reads import list_players, next_player_number
from service.db.rating_facts import RATING_FACTS, with_rating_facts
from service.db.tables import PlayerRow, TournamentRow
from service.db.tokens import hash_token, new_token
from service.engine.lifecycle import TournamentStatus
from service.errors import Conflict

__all__ = ["add_players"]


async def add_players(
    session: AsyncSession,
    tournament: TournamentRow,
    players: Sequence[dict[str, Any]],
    field: str,
) -> list[tuple[PlayerRow, str | None]]:
    """Store new players of a team (not yet on a list) and their `player_added` events.
    Once the start list is closed each gets the next start number and a player token
    at once (FIDE C.04.A). A FIDE id already in the tournament is refused (409 naming
    `<field>.<i>.fide_id`): nobody plays for two teams."""
    registered = await list_players(session, tournament.id)
    taken = {p.fide_id for p in registered if p.fide_id}
    for index, fields in enumerate(players):
        fide_id = fields.get("fide_id")
        if fide_id and fide_id in taken:
            raise Conflict(
                f"FIDE id {fide_id} is already a player of this tournament: a player "
                "plays for one team only",
                field=f"{field}.{index}.fide_id",
            )
        if fide_id:
            taken.add(fide_id)
    running = tournament.status != TournamentStatus.REGISTRATION
    first = await next_player_number(session, tournament.id)
    start = max((p.start_number or 0 for p in registered), default=0) + 1
    added: list[tuple[PlayerRow, str | None]] = []
    for offset, fields in enumerate(players):
        fields = dict(fields)
        identity = fields.pop("identity", None)
        facts = {name: fields.pop(name, None) for name in RATING_FACTS}
        row = PlayerRow(
            tournament_id=tournament.id,
            number=first + offset,
            extra=with_rating_facts({"identity": identity} if identity else {}, facts),
            **fields,
        )
        token = None
        if running:
            token = new_token("ply")
            row.start_number = start + offset
            row.token_hash = hash_token(token)
        added.append((row, token))
    session.add_all([row for row, _ in added])
    await session.flush()
    for (row, _), fields in zip(added, players, strict=True):
        await append_event(
            session, tournament.id, PlayerAdded(row.number, row.start_number, dict(fields))
        )
    return added
