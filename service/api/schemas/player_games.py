"""What a rated game did to a player's rating, on `GET
/v1/tournaments/{id}/players/{n}/games?ratings=true` (FIDE B.02 8.3;
docs/rules/ratings.md#per-game)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

__all__ = ["GameRatingOut"]


class GameRatingOut(BaseModel):
    """One game's share of the rating change, or why the game is not rated."""

    rated: bool = Field(description="Whether the game counts for the rating change.")
    reason: Literal["pending", "forfeit", "unrated-opponent", "unrated-player"] | None = Field(
        description="Why the game is not rated (no confirmed result, not played over the "
        "board, an unrated opponent, an unrated player); null for a rated game."
    )
    score: float | None = Field(description="The player's score in a rated game: 1, 0.5, 0.")
    expected: float | None = Field(
        description="PD of a rated game (table 8.1.2, after the 400-point rule)."
    )
    change: float | None = Field(
        description="K x (score - PD), K the event's; null while K is undecided."
    )
