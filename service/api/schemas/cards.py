"""Player cards (Formuła FLAMPARK, "Karta gracza"): each round's time, table, colour, opponent."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

__all__ = ["CardLine", "CardOpponent", "PlayerCard"]


class CardOpponent(BaseModel):
    """The opponent in one round."""

    start_number: int
    name: str
    rating: int | None = Field(description="null = unrated")


class CardLine(BaseModel):
    """One round on a player's card."""

    round: int
    start_time: datetime | None
    table: int | None
    colour: Literal["white", "black"] | None
    opponent: CardOpponent | None
    bye: str | None = None


class PlayerCard(BaseModel):
    """A player's card for the whole event (rounds paired so far)."""

    start_number: int
    name: str
    rating: int | None = Field(description="null = unrated")
    rounds: list[CardLine]
