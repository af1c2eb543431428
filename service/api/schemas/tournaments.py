"""Tournament resources."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from service.api.schemas.common import ApiModel, PointsSettings

__all__ = [
    "PlayerToken",
    "System",
    "TournamentCreate",
    "TournamentCreated",
    "TournamentImported",
    "TournamentPublic",
    "TournamentStarted",
]

System = Literal["round-robin", "double-round-robin"]


class TournamentCreate(ApiModel):
    """What an organizer sends to create a tournament."""

    name: str = Field(min_length=1, max_length=200)
    system: System
    rounds: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="Total rounds; computed from the player count for round-robins.",
    )
    points: PointsSettings = Field(default_factory=PointsSettings)
    tiebreaks: list[str] | None = Field(
        default=None,
        max_length=20,
        description="Tie-break order (FIDE C.07 codes); the system's default when omitted.",
    )
    schedule: list[datetime] | None = Field(
        default=None, max_length=100, description="Start time of each round, in played order."
    )


class TournamentPublic(BaseModel):
    """A tournament as anyone may see it."""

    id: str
    name: str
    system: str
    status: Literal["registration", "running", "finished"]
    rounds: int | None
    current_round: int
    points: PointsSettings
    tiebreaks: list[str]
    players: int
    created_at: datetime


class TournamentCreated(TournamentPublic):
    """The creation response: the organizer token is shown only this once."""

    organizer_token: str


class PlayerToken(BaseModel):
    """A player's token for reporting the results of their own games."""

    start_number: int
    name: str
    token: str


class TournamentStarted(TournamentPublic):
    """The start-list-closing response: every player's token, shown only this once."""

    player_tokens: list[PlayerToken]


class TournamentImported(TournamentStarted):
    """The import response: organizer and player tokens, shown only this once."""

    organizer_token: str
