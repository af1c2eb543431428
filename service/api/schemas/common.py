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


def to_number(value: Fraction | None) -> float | None:
    """A tie-break value as JSON: always a float (`0.0`, `15.5`, `1850.0`), null where
    the tie-break is undefined. One rendering for the plain, filtered and explained
    standings and the compute endpoint (the models' `float` fields render the same)."""
    return None if value is None else float(value)
