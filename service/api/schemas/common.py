"""Pieces shared by several resources."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from service.engine.model import PointSystem
from service.engine.text import CONTROL_CHARACTERS

__all__ = ["ApiModel", "PointsSettings", "to_number"]


_CONTROL = CONTROL_CHARACTERS
"""Control characters no text field takes (tab, line feed and carriage return are
allowed for multi-line text such as an embedded TRF file). NUL in particular cannot be
stored by PostgreSQL (issue 12, finding 6: it was a 500 there, stored on SQLite). The
TRF and PBN readers refuse the same characters (`engine.text`)."""


def _refuse_controls(value: Any) -> None:
    if isinstance(value, str):
        found = _CONTROL.search(value)
        if found:
            raise ValueError(
                f"control character U+{ord(found.group()):04X} at position {found.start()}"
            )
    elif isinstance(value, list | tuple):
        for item in value:
            _refuse_controls(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_controls(key)
            _refuse_controls(item)


class ApiModel(BaseModel):
    """Base for request bodies: unknown fields are an error, not silently dropped; text
    never carries control characters (422 naming the field, on every database)."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _no_control_characters(cls, value: Any) -> Any:
        _refuse_controls(value)
        return value


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
