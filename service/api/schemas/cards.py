"""Player cards (Formuła FLAMPARK, "Karta gracza"): each round's time, table, colour, opponent."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, StrictInt

from service.api.schemas.common import ApiModel, Name
from service.api.schemas.player_games import GameRatingOut
from service.api.schemas.standings import RatingChangeOut

__all__ = ["CardLine", "CardOpponent", "PhoneCards", "PhoneToken", "PlayerCard"]


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
    rating: GameRatingOut | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="Only with `?ratings=true`: the game's share of the rating change "
        "(null for a bye or a round without a game).",
    )


class PlayerCard(BaseModel):
    """A player's card for the whole event (rounds paired so far)."""

    start_number: int
    name: str
    rating: int | None = Field(description="null = unrated")
    rounds: list[CardLine]
    rating_change: RatingChangeOut | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="Only with `?ratings=true`: the event's rating figures as `GET "
        "/standings?ratings=true` gives them; null for an unrated player.",
    )


class PhoneToken(ApiModel):
    """A player's token, as the start of the tournament (or a rotation) returned it."""

    start_number: StrictInt = Field(ge=1, le=100_000)
    token: str = Field(min_length=1, max_length=200)
    name: Name | None = Field(
        default=None, description="Ignored: lets `player_tokens` be sent as is"
    )


class PhoneCards(ApiModel):
    """The players whose cards to print with a QR code of their result page."""

    player_tokens: list[PhoneToken] = Field(min_length=1, max_length=100)
