"""Tables of bridge events (docs/rules/bridge.md#bridge-events-v1bridgeevents).

A bridge event is a `tournaments` row (system "bridge-pairs" or "bridge-teams") whose
settings hold the entrants, boards and movement, so it shares the event log, the
sequence numbers and the live bus with every other tournament. Two tables add what a
bridge event needs besides: one token per table for the scoring apps, and one row per
(round, table, board) result holding its current state; every change of a result is
also an event carrying the previous state.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from service.db.column_types import JSONType, utcnow

__all__ = ["BridgeResultRow", "BridgeTableTokenRow"]


class BridgeTableTokenRow(SQLModel, table=True):
    """The (hashed) token of one table's scoring app."""

    __tablename__ = "bridge_table_tokens"
    __table_args__ = (UniqueConstraint("tournament_id", "table_no"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    table_no: int
    token_hash: str | None = Field(default=None, max_length=64, index=True)
    """None once the organizer revoked the table's token."""
    expires_at: datetime | None = None


class BridgeResultRow(SQLModel, table=True):
    """The current result of one board played at one table in one round."""

    __tablename__ = "bridge_results"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "table_no", "board"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    round: int
    table_no: int
    board: int
    ns: int
    ew: int
    contract: str | None = Field(default=None, max_length=12)
    declarer: str | None = Field(default=None, max_length=1)
    tricks: int | None = None
    ns_score: int | None = None
    adjusted: dict[str, Any] | None = Field(default=None, sa_column=Column(JSONType))
    entered_by: str = Field(max_length=20)
    version: int = 1
    updated_at: datetime = Field(default_factory=utcnow)
