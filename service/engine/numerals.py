"""Whole numbers read from text that people and other programs write (PBN tags,
tie-break modifiers, table numbers): a clear "not a number" instead of an exception
from deep inside `int()` (bad input gets a clear error, never a 500: docs/api.md#errors)."""

from __future__ import annotations

__all__ = ["whole_number"]


def whole_number(text: str, most_digits: int = 9) -> int | None:
    """`text` as a non-negative whole number, or None when it is not one.

    Only decimal digits are read: `str.isdigit` also accepts `²`, which `int()`
    refuses. At most `most_digits` significant digits: `int()` refuses a string of
    more than 4,300 digits, and no field read this way needs more than nine."""
    if not text.isdecimal() or len(text.lstrip("0")) > most_digits:
        return None
    return int(text)
