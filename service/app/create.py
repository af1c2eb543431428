"""Create a tournament or a bridge event: its row, its creation event and its tokens
(the organizer's, a bridge event's tables', and the viewer token of a private one), each
shown only this once (docs/security.md#tokens).

A tournament's tie-break codes are read by the engine's grammar first
(`engine.scoring.tiebreaks.registry`), so a code it does not know is refused (422
naming `tiebreaks.<i>`) before anything is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.tokens import issue_viewer_token
from service.db import bridge
from service.db.repository import create_tournament as store_tournament
from service.db.tables import TournamentRow
from service.engine.bridge.movement import Layout
from service.engine.scoring.tiebreaks.errors import TieBreakError
from service.engine.scoring.tiebreaks.registry import parse_tiebreak
from service.engine.teams.registry import parse_team_tiebreak
from service.engine.teams.systems import team_spec_of

__all__ = [
    "BridgeCreated",
    "Created",
    "check_tiebreaks",
    "create_bridge_event",
    "create_tournament",
]


@dataclass(frozen=True, slots=True)
class Created:
    """A new tournament and its tokens (shown once)."""

    tournament: TournamentRow
    organizer_token: str
    viewer_token: str | None
    """Issued when the tournament is created private."""


@dataclass(frozen=True, slots=True)
class BridgeCreated:
    """A new bridge event, its movement or schedule as checked, and its tokens (shown
    once)."""

    event: TournamentRow
    layout: Layout
    organizer_token: str
    table_tokens: list[tuple[int, str]]
    """(table, token) of each table."""
    viewer_token: str | None


def check_tiebreaks(codes: Sequence[str] | None, system: str = "") -> None:
    """Each code in the engine's tie-break grammar, the team codes for a team system
    (`TieBreakError` naming `tiebreaks.<i>` otherwise)."""
    team = team_spec_of(system)
    for index, code in enumerate(codes or ()):
        try:
            if team is not None:
                parse_team_tiebreak(code, team.reading)
            else:
                parse_tiebreak(code)
        except TieBreakError as exc:
            exc.field = f"tiebreaks.{index}"
            raise


async def create_tournament(
    session: AsyncSession,
    *,
    name: str,
    system: str,
    settings: dict[str, Any],
    total_rounds: int | None,
    private: bool,
) -> Created:
    """Store a new tournament and its `tournament_created` event; a private one gets its
    viewer token (reads need a token; spectators get this one)."""
    check_tiebreaks(settings.get("tiebreaks"), system)
    row, token = await store_tournament(
        session, name=name, system=system, settings=settings, total_rounds=total_rounds
    )
    return Created(row, token, _made_private(session, row) if private else None)


async def create_bridge_event(
    session: AsyncSession, settings: dict[str, Any], *, private: bool
) -> BridgeCreated:
    """Store a new bridge event (its movement or schedule checked by the engine, 422
    naming the field), its table tokens and its `bridge_event_created` event."""
    row, layout, token, tables = await bridge.create_bridge_event(session, settings)
    viewer = _made_private(session, row) if private else None
    return BridgeCreated(row, layout, token, tables, viewer)


def _made_private(session: AsyncSession, row: TournamentRow) -> str:
    """Make a new tournament private; returns its viewer token."""
    row.visibility = "private"
    viewer = issue_viewer_token(row)
    session.add(row)
    return viewer
