"""SQLModel tables (docs/architecture.md).

Players are referred to by start number inside a tournament once the start list is
closed; before that, by their row id. Results keep their history in `events`: a game row
holds the current state, every change is also an event row written in the same
transaction.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from service.db import (
    bridge_tables,  # noqa: F401  (the bridge events' tables, registered too)
    team_tables,  # noqa: F401  (the team tournaments' tables, registered too)
)
from service.db.column_types import JSONType, utcnow
from service.engine.lifecycle import TournamentStatus
from service.engine.result_reporting import GameStatus

__all__ = [
    "ByeRow",
    "EventRow",
    "GameRow",
    "IdempotencyRow",
    "PlayerRow",
    "TournamentKind",
    "TournamentRow",
    "TournamentStatus",
    "utcnow",
]


class TournamentKind(StrEnum):
    """What an event is: a chess tournament or a bridge event."""

    CHESS = "chess"
    BRIDGE = "bridge"


class TournamentRow(SQLModel, table=True):
    """A tournament and its settings."""

    __tablename__ = "tournaments"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=200)
    system: str = Field(max_length=40)
    kind: str = Field(default=TournamentKind.CHESS, max_length=10)
    """`TournamentKind`: which routes, tables and live feed serve the event."""
    status: str = Field(default=TournamentStatus.REGISTRATION, max_length=20)
    """`TournamentStatus`, changed only through `engine.lifecycle.transition`."""
    settings: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSONType))
    total_rounds: int | None = None
    current_round: int = 0
    organizer_token_hash: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    last_seq: int = 0
    visibility: str = Field(default="public", max_length=10)
    """`public` (anyone reads) or `private` (readers need a token of the tournament)."""
    viewer_token_hash: str | None = Field(default=None, max_length=64)
    """A private tournament's read-only token (stored hashed, like the others)."""
    organizer_token_expires_at: datetime | None = None
    viewer_token_expires_at: datetime | None = None
    archived_at: datetime | None = None
    """Set by DELETE: hidden from lists, answered 410 Gone; the data is kept."""


class PlayerRow(SQLModel, table=True):
    """A registered player."""

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("tournament_id", "start_number"),
        UniqueConstraint("tournament_id", "number", name="uq_players_tournament_number"),
    )

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    number: int
    """The player's identifier in the tournament: 1, 2, 3 in registration order, never
    reused, the same before and after the start (every /players/{number} path)."""
    start_number: int | None = None
    name: str = Field(max_length=200)
    rating: int = 0
    fide_id: str | None = Field(default=None, max_length=20)
    federation: str | None = Field(default=None, max_length=3)
    sex: str | None = Field(default=None, max_length=1)
    birth_year: int | None = None
    token_hash: str | None = Field(default=None, max_length=64, index=True)
    token_expires_at: datetime | None = None
    extra: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSONType))


class GameRow(SQLModel, table=True):
    """A game's current state; its history is in the event log."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "table_no"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    round: int
    table_no: int
    white: int
    black: int
    result: str | None = Field(default=None, max_length=10)
    status: str = Field(default=GameStatus.PENDING, max_length=12)
    reports: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSONType))
    extra: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSONType))
    shortened_minutes: float | None = None
    """FLAMPARK: minutes the higher-rated player cut from their own time (Formuła FLAMPARK)."""


class ByeRow(SQLModel, table=True):
    """A player without a game in a round."""

    __tablename__ = "byes"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "player"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    round: int
    player: int
    kind: str = Field(max_length=20)


class EventRow(SQLModel, table=True):
    """One change to a tournament, numbered per tournament (the event log)."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    seq: int
    type: str = Field(max_length=40)
    payload: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSONType))
    created_at: datetime = Field(default_factory=utcnow)


class IdempotencyRow(SQLModel, table=True):
    """A request made with an Idempotency-Key and the response it got."""

    __tablename__ = "idempotency_keys"

    key: str = Field(primary_key=True, max_length=300)
    request_hash: str = Field(max_length=64)
    state: str = Field(default="in-flight", max_length=12)
    status_code: int | None = None
    headers: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSONType))
    body: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
