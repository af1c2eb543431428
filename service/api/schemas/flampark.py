"""FLAMPARK what-if schedules (compute endpoint and command line share the shape)."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import BaseModel, Field, StrictInt, model_validator

from service.api.schemas.common import ApiModel
from service.api.schemas.tournaments import RoundKind

__all__ = [
    "ScheduleGame",
    "ScheduleRequest",
    "ScheduleResponse",
    "ScheduleRound",
    "StartListEntry",
]


MAX_WHAT_IF_PLAYER_ROUNDS = 200_000
"""Work bound of one what-if (a 20,000 x 50 schedule held the service 14 s);
e.g. 10,000 players x 20 rounds, or 4,000 x 50."""


class StartListEntry(ApiModel):
    """A player of a what-if start list."""

    rating: StrictInt = Field(ge=0, le=4000)
    name: str | None = Field(default=None, max_length=200)


class ScheduleRequest(ApiModel):
    """A start list (or just a player count), rounds and kinds."""

    players: list[StartListEntry] | None = Field(
        default=None, max_length=20_000, description="Start list; sorted by rating, best first."
    )
    player_count: StrictInt | None = Field(default=None, ge=2, le=20_000)
    rounds: StrictInt = Field(ge=1, le=50)
    kinds: list[RoundKind] | None = None
    round_order: list[StrictInt] | None = None
    variant: Literal["individual", "team", "group"] = "individual"
    rematch_byes: bool = False

    @model_validator(mode="after")
    def _one_list(self) -> Self:
        if (self.players is None) == (self.player_count is None):
            raise ValueError("players: give either players (a start list) or player_count")
        if self.players is not None and len(self.players) < 2:
            raise ValueError("players: at least 2 players are needed")
        if self.count * self.rounds > MAX_WHAT_IF_PLAYER_ROUNDS:
            raise ValueError(
                f"rounds: {self.count} players x {self.rounds} rounds exceed the what-if "
                f"budget of {MAX_WHAT_IF_PLAYER_ROUNDS:,} player-rounds"
            )
        return self

    @property
    def count(self) -> int:
        """The number of players."""
        return len(self.players) if self.players is not None else int(self.player_count or 0)

    def options(self) -> dict[str, Any]:
        """The FLAMPARK options as stored on a tournament."""
        return self.model_dump(include={"kinds", "round_order", "variant", "rematch_byes"})


class ScheduleGame(BaseModel):
    """One game: white and black by start number."""

    table: int
    white: int
    black: int


class ScheduleRound(BaseModel):
    """One played round."""

    round: int
    kind: str
    games: list[ScheduleGame]
    byes: list[int]


class ScheduleResponse(BaseModel):
    """The whole schedule in played order, its warnings and pairing-quality figures."""

    player_count: int
    rounds: list[ScheduleRound]
    warnings: list[str]
    stats: dict[str, Any] | None = None
