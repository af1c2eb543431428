"""Pieces shared by several resources."""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictFloat, field_validator

from service.engine.model import PointSystem
from service.engine.text import CONTROL_CHARACTERS

__all__ = ["ApiModel", "Name", "PointsSettings", "ShortName", "to_number", "visible_name"]


_CONTROL = CONTROL_CHARACTERS
"""Control characters no text field takes (tab, line feed and carriage return are
allowed for multi-line text such as an embedded TRF file). NUL in particular cannot be
stored by PostgreSQL (a 500 there; SQLite stores it). The
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


_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""Unicode bidirectional embeddings, overrides and isolates (UAX #9, explicit
formatting): inside a name they reorder the name and the text shown after it in a
table or a page ("Trojan Source", CVE-2021-42574). The marks (LRM, RLM, ALM) reorder
nothing and stay allowed: right-to-left names use them."""
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters Unicode counts as letters or symbols that show nothing: the Hangul
fillers and the blank Braille pattern."""
_VISIBLE_CATEGORIES = frozenset("LNPS")
"""Unicode general categories that show something: letters, numbers, punctuation and
symbols; marks, separators (spaces), controls and format characters (zero-width
space, joiners, byte order mark) show nothing by themselves."""


def visible_name(value: str) -> str:
    """A name people read: it shows at least one character, and carries no
    bidirectional embedding, override or isolate. Refused, not stripped: the organizer
    sees why and sends the name as meant. Everything else stays as sent (joiners, marks
    and spaces inside a name belong to some scripts)."""
    control = _BIDI_CONTROLS.search(value)
    if control is not None:
        raise ValueError(
            f"bidirectional control U+{ord(control.group()):04X} at position "
            f"{control.start()}: it would reorder the text shown after the name"
        )
    if not any(
        unicodedata.category(char)[0] in _VISIBLE_CATEGORIES and char not in _BLANK_LETTERS
        for char in value
    ):
        raise ValueError(
            "a name needs a visible character (a letter, digit, punctuation mark or "
            "symbol), not only spaces or invisible characters"
        )
    return value


Name = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(visible_name)]
"""The name of a tournament, player, bridge event, pair or team (`visible_name`)."""
ShortName = Annotated[str, Field(min_length=1, max_length=60), AfterValidator(visible_name)]
"""A label people read, such as a VP scale's name (`visible_name`)."""

Points = Annotated[StrictFloat, Field(ge=0, le=100, multiple_of=0.5)]


class PointsSettings(ApiModel):
    """Points per outcome: chess 1/½/0 by default, 3/1/0 allowed, or custom."""

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
