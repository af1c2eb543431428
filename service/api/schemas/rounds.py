"""Rounds, games and results."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, StrictFloat, StrictInt

from service.api.schemas.common import ApiModel
from service.engine.result_reporting import GameStatus as EngineGameStatus

__all__ = [
    "ByePublic",
    "GamePublic",
    "GameStatus",
    "ManualBye",
    "ManualGame",
    "ManualPairingRequest",
    "ManualRound",
    "PairingWarning",
    "ResultSubmit",
    "RoundPublic",
]

GameStatus = EngineGameStatus
"""The result state machine's states (engine/result_reporting.py)."""
ResultText = Literal["1-0", "1/2-1/2", "0-1", "+-", "-+", "--"]


class GamePublic(BaseModel):
    """A game of a round; players by start number."""

    table: int
    white: int
    black: int
    result: str | None
    status: GameStatus
    reports: dict[str, str] = Field(
        default_factory=dict, description="What each player reported, by colour."
    )
    extra: dict[str, Any] = Field(default_factory=dict)


class ByePublic(BaseModel):
    """A player without a game this round."""

    player: int
    type: str


class RoundPublic(BaseModel):
    """One round's pairings and results."""

    round: int
    games: list[GamePublic]
    byes: list[ByePublic]


class ResultSubmit(ApiModel):
    """A result for one game."""

    result: ResultText = Field(description='"1-0", "1/2-1/2", "0-1", "+-", "-+" or "--".')
    time_shortened_minutes: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=600,
        description="FLAMPARK, organizer only: minutes the higher-rated player (lower "
        "start number) cut from their own base time; at most the tournament's base time, "
        "and 0 with a forfeit. A player's report with it is refused "
        "(shortening-by-arbiter).",
    )


class ByeRequest(ApiModel):
    """A bye announced before the round is paired (FIDE C.04.A: requested byes, absence)."""

    player: StrictInt = Field(ge=1, description="Start number")
    type: Literal["half-point", "zero-point", "full-point"]


class PairRequest(ApiModel):
    """What the organizer knows before pairing the next round."""

    byes: list[ByeRequest] = Field(default_factory=list, max_length=10_000)


class PairedRound(RoundPublic):
    """A newly paired round, with the pairing's explanation when asked for."""

    notes: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


class ManualGame(ApiModel):
    """A game of a manual pairing, players by start number; boards follow the list."""

    white: StrictInt = Field(ge=1, description="Start number of the player with white")
    black: StrictInt = Field(ge=1, description="Start number of the player with black")


class ManualBye(ApiModel):
    """A player without a game in a manual pairing."""

    player: StrictInt = Field(ge=1, description="Start number")
    type: Literal["pairing-allocated", "half-point", "zero-point", "full-point"]


class ManualPairingRequest(ApiModel):
    """A round's pairing made by the arbiter: every present player once, in a game or a
    bye (withdrawn players are left out: they get a zero-point bye). Swapping a game's
    colours or two boards is a new list."""

    games: list[ManualGame] = Field(max_length=50_000)
    byes: list[ManualBye] = Field(default_factory=list, max_length=10_000)


class PairingWarning(BaseModel):
    """A rule a manual pairing breaks (severity "error": an absolute rule of C.04.1), a
    quality criterion on which it does worse than the engine's ("warning": FIDE Dutch
    C.04.3 C5-C21), or a difference worth knowing ("info")."""

    severity: Literal["error", "warning", "info"]
    rule: str = Field(description='"C.04.1 b", "C.04.3 C12", ...')
    message: str
    players: list[int] = Field(description="The players concerned, by start number")


class ManualRound(RoundPublic):
    """A round paired by hand, the warnings it earns, and the engine's pairing of the
    same round (same announced byes) for comparison; `engine` is null when the engine
    finds no pairing."""

    warnings: list[PairingWarning]
    engine: RoundPublic | None
