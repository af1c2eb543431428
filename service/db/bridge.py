"""Bridge events in storage: creating an event with its table tokens.

A bridge event is stored as a tournament (system "bridge-pairs" or "bridge-teams") so
it shares the event log, the sequence numbers and the live bus. The rules of entering
results (who may write what, the score by Law 77, one event per change carrying the
previous value) are the bridge entry workflow's (`service.app.bridge_entry`); the reads
of events and results are `service.db.bridge_reads`'s.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.bridge_reads import BRIDGE_SYSTEMS, validate_layout
from service.db.bridge_tables import BridgeTableTokenRow
from service.db.event_types import BridgeEventCreated
from service.db.events import append_event
from service.db.tables import TournamentKind, TournamentRow
from service.db.tokens import hash_token, new_token
from service.engine.bridge.movement import Layout
from service.engine.lifecycle import LifecycleEvent, TournamentStatus, transition

__all__ = ["create_bridge_event"]


async def create_bridge_event(
    session: AsyncSession, settings: dict[str, Any]
) -> tuple[TournamentRow, Layout, str, list[tuple[int, str]]]:
    """Store a new event; returns it with the organizer token and the table tokens
    (all shown once)."""
    layout = validate_layout(settings)
    token = new_token("org")
    row = TournamentRow(
        id=uuid.uuid4().hex,
        name=str(settings["name"]),
        system=BRIDGE_SYSTEMS[layout.kind],
        kind=TournamentKind.BRIDGE,
        status=transition(TournamentStatus.REGISTRATION, LifecycleEvent.START),
        settings={key: value for key, value in settings.items() if key != "name"},
        total_rounds=layout.rounds,
        current_round=min(play.round for play in layout.plays.values()),
        organizer_token_hash=hash_token(token),
    )
    session.add(row)
    await session.flush()
    tables: list[tuple[int, str]] = []
    for table in layout.tables:
        table_token = new_token("tbl")
        session.add(
            BridgeTableTokenRow(
                tournament_id=row.id, table_no=table, token_hash=hash_token(table_token)
            )
        )
        tables.append((table, table_token))
    await session.flush()
    created = BridgeEventCreated(row.name, row.system, len(tables), len(layout.boards))
    await append_event(session, row.id, created)
    return row, layout, token, tables
