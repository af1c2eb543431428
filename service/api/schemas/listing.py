"""Lists: tournaments and bridge events (cursor pages), a tournament's rounds, one
player's games."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from service.api.schemas.player_games import GameRatingOut
from service.api.schemas.standings import RatingChangeOut
from service.db.tables import TournamentStatus

__all__ = [
    "BridgeEventPage",
    "BridgeEventSummary",
    "PlayerGame",
    "PlayerGames",
    "RoundList",
    "RoundSummary",
    "TournamentPage",
    "TournamentSummary",
]


class TournamentSummary(BaseModel):
    """One tournament in a list (the whole document is `GET /v1/tournaments/{id}`)."""

    id: str
    name: str
    system: str
    status: TournamentStatus
    rounds: int | None
    current_round: int
    players: int
    created_at: datetime


class TournamentPage(BaseModel):
    """A page of tournaments, newest first."""

    items: list[TournamentSummary]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )


class BridgeEventSummary(BaseModel):
    """One bridge event in a list."""

    id: str
    name: str
    kind: Literal["pairs", "teams"]
    status: str
    created_at: datetime


class BridgeEventPage(BaseModel):
    """A page of bridge events, newest first."""

    items: list[BridgeEventSummary]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )


class RoundSummary(BaseModel):
    """Where a round stands."""

    round: int
    games: int
    confirmed: int = Field(description="Games whose result is confirmed")
    provisional: int = Field(description="Games with one player's report only")
    disputed: int
    pending: int = Field(description="Games with no result reported")
    byes: int
    complete: bool = Field(description="Every game confirmed")


class RoundList(BaseModel):
    """The rounds paired so far (all of them, for schedules paired in advance)."""

    rounds: list[RoundSummary]


class PlayerGame(BaseModel):
    """One of a player's games, from that player's side of the board."""

    round: int
    table: int
    colour: Literal["white", "black"]
    opponent: int = Field(description="The opponent's start number")
    result: str | None = Field(description='The game\'s result, white first ("1-0", ...)')
    status: str
    rating: GameRatingOut | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="Only with `?ratings=true`: the game's share of the rating change.",
    )


class PlayerBye(BaseModel):
    """A round the player did not play over the board."""

    round: int
    type: str


class PlayerGames(BaseModel):
    """Every game and bye of one player, by round."""

    number: int = Field(description="The player's number in the tournament (`id`).")
    start_number: int
    name: str
    games: list[PlayerGame]
    byes: list[PlayerBye]
    rating: int | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="Only with `?ratings=true`: the rating at the start (null = unrated).",
    )
    rating_change: RatingChangeOut | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="Only with `?ratings=true`: the event's figures as `GET "
        "/standings?ratings=true` gives them; null for an unrated player.",
    )
