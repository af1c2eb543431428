"""FLAMPARK lists across tournaments: best games and the players' ranking (Formuła FLAMPARK)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["BestGame", "GameParts", "PlayerRanking", "RankedPlayer", "Side", "TournamentRef"]


class TournamentRef(BaseModel):
    """A tournament, by id and name."""

    id: str
    name: str


class Side(BaseModel):
    """A player of a listed game."""

    start_number: int
    name: str
    rating: int


class GameParts(BaseModel):
    """The parts of a game value: value = Pc + Pt + Pb + P%."""

    model_config = ConfigDict(populate_by_name=True)

    Pc: float
    Pt: float
    Pb: float
    P_pct: float = Field(alias="P%")


class BestGame(BaseModel):
    """A game among the best by value (Formuła FLAMPARK, "Najlepsze wyniki")."""

    rank: int
    value: float
    parts: GameParts
    player: Side
    opponent: Side
    colour: str
    outcome: str
    tournament: TournamentRef
    round: int


class RankedPlayer(BaseModel):
    """A person's FLAMPARK record across tournaments."""

    rank: int
    identity: str = Field(description="fide:<id>, link:<identity>, or the tournament entry")
    name: str
    fide_id: str | None
    rating: int = Field(description="Starting rating in the player's latest tournament")
    mean_result: float = Field(description="Mean game value over every counted game")
    Ru: float = Field(description="Mean result on the rating scale, 8 x mean + 600")
    tournaments: int
    games: int
    wins: int
    draws: int
    losses: int
    forfeits: int
    best_game: float


class PlayerRanking(BaseModel):
    """The players' ranking, best mean result first."""

    total: int
    players: list[RankedPlayer]
