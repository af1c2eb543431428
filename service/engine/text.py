"""Text read from uploaded files (TRF, PBN): the characters no text field takes, and the
file's lines.

The readers of uploaded files run in a worker thread, beside the event loop, and share
the interpreter with it: a single C call (a `split` of a whole file, one regular
expression search) holds the interpreter until it returns. So every step here is
linear in its input and works on bounded pieces: `split_lines` splits a block of about
`BLOCK` characters at a time, and `first_control` is one scan of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "BLOCK",
    "CONTROL_CHARACTERS",
    "ControlCharacter",
    "first_control",
    "normalized_text",
    "split_lines",
]

CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""Control characters no text field takes: C0 (tab, line feed and carriage return
excepted), DEL and C1 (ISO/IEC 6429). NUL in particular cannot be stored by PostgreSQL;
PGN and PBN files (ISO 8859-1 text) and TRF records carry none of them."""

BLOCK = 1 << 16
"""Characters `split_lines` splits at a time (a split of 64 KiB takes well under 1 ms)."""


@dataclass(frozen=True, slots=True)
class ControlCharacter:
    """Where a text holds a control character: 1-based line and column, the character."""

    line: int
    column: int
    character: str

    def describe(self) -> str:
        """`line L, column C: control character U+001B`."""
        return (
            f"line {self.line}, column {self.column}: control character U+{ord(self.character):04X}"
        )


END_OF_FILE = "\x1a"
"""The end-of-file mark (SUB, Ctrl-Z) that MS-DOS programs append to a text file."""


def normalized_text(text: str) -> str:
    """`text` with LF line ends, without a leading byte-order mark and without a trailing
    MS-DOS end-of-file mark (and the line ends around it): what older federation and
    bridge programs write is read, while a SUB anywhere else stays a control character."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    body = text.rstrip("\n")
    if body.endswith(END_OF_FILE):
        return body.rstrip(END_OF_FILE) + "\n"
    return text


def first_control(text: str) -> ControlCharacter | None:
    """The first control character of `text` (lines end at LF), or None."""
    found = CONTROL_CHARACTERS.search(text)
    if found is None:
        return None
    at = found.start()
    line_start = text.rfind("\n", 0, at) + 1
    return ControlCharacter(text.count("\n", 0, at) + 1, at - line_start + 1, found.group())


def split_lines(text: str) -> Iterator[str]:
    """`text.split("\\n")`, produced a block at a time: each split covers about `BLOCK`
    characters (up to the next line feed), never the whole text at once."""
    start = 0
    size = len(text)
    while True:
        cut = text.find("\n", min(start + BLOCK, size))
        if cut < 0:
            yield from text[start:].split("\n")
            return
        yield from text[start:cut].split("\n")
        start = cut + 1
