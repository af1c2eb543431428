"""Standings."""

from __future__ import annotations

from pydantic import BaseModel

__all__ = ["StandingRowPublic", "StandingsPublic"]


class StandingRowPublic(BaseModel):
    """One line of the standings; `rank` is shared where every criterion ties."""

    rank: int
    start_number: int
    name: str
    rating: int
    points: float
    tiebreaks: dict[str, float]


class StandingsPublic(BaseModel):
    """The table after the last round with confirmed results."""

    round: int
    tiebreaks: list[str]
    rows: list[StandingRowPublic]
