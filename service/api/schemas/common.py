"""Pieces shared by several resources."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from service.engine.model import PointSystem

__all__ = ["ApiModel", "PointsSettings", "to_number"]


class ApiModel(BaseModel):
    """Base for request bodies: unknown fields are an error, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


Points = Annotated[float, Field(ge=0, le=100, multiple_of=0.5)]


class PointsSettings(ApiModel):
    """Points per outcome (SPEC 1): chess 1/½/0 by default, 3/1/0 allowed, or custom."""

    win: Points = 1
    draw: Points = 0.5
    loss: Points = 0
    bye: Points | None = Field(
        default=None, description="Pairing-allocated bye; defaults to the points of a win."
    )

    def to_engine(self) -> PointSystem:
        """The engine's point system."""
        bye = None if self.bye is None else Fraction(self.bye)
        return PointSystem(
            win=Fraction(self.win),
            draw=Fraction(self.draw),
            loss=Fraction(self.loss),
            pairing_bye=bye,
        )


def to_number(value: Fraction) -> float | int:
    """A JSON number for an exact value: an int when whole, else a float."""
    if value.denominator == 1:
        return int(value)
    return float(value)
