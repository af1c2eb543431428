"""A simple board-results import from PBN (Portable Bridge Notation) tag pairs.

Reads the tag pairs of each game (`[Board "5"]`, `[Vulnerable "NS"]`,
`[Declarer "W"]`, `[Contract "4SX"]`, `[Result "9"]`) and scores the board with
Law 77 (`contract.ns_score`). Games are separated by blank lines; lines starting
with "%" and ";"-comments are skipped, "{...}" commentary is ignored; a tag value of
"#" repeats the previous game's value (PBN tag value inheritance; dropped when the
previous game had no such tag). The Result tag
is the number of tricks declarer took. Other sections (auction, play, tables) are
not read.

Bounds: the reading is linear in the text (each character is looked at a bounded
number of times, whatever the nesting of braces and comments), a control character
(`engine.text.CONTROL_CHARACTERS`) is refused naming its line and column, and so is a
line longer than `MAX_LINE` characters once its "{...}" comments are removed.

Readings: a game without a Vulnerable tag takes the vulnerability of its board
number; a passed-out game ("Pass") needs no Declarer or Result; a game whose Result
is missing, "?" or "^" (irregular) cannot be scored and raises `BridgeInputError`
naming the game; a declarer written "^N" (irregular declarer) is read as N.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from service.engine.bridge.contract import (
    Contract,
    Seat,
    Vulnerability,
    board_conditions,
    ns_score,
    parse_contract,
)
from service.engine.bridge.errors import BridgeInputError
from service.engine.numerals import whole_number
from service.engine.text import first_control, normalized_text, split_lines

__all__ = ["MAX_LINE", "PbnResult", "read_pbn"]

MAX_LINE = 10_000
"""Longest line read, "{...}" comments removed. PBN follows PGN's import format, whose
lines hold at most 255 characters; the bound keeps each tag search short."""

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


@dataclass(frozen=True, slots=True)
class PbnResult:
    """One scored game from a PBN file."""

    board: int
    """The Board tag."""
    contract: Contract | None
    """The contract, None when passed out."""
    declarer: Seat | None
    """The declarer, None when passed out."""
    tricks: int | None
    """Tricks taken by declarer (the Result tag), None when passed out."""
    vulnerability: Vulnerability
    """The Vulnerable tag, or the board's standard vulnerability."""
    ns_score: int
    """North-South's score (Law 77)."""
    tags: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Every tag of the game as read (after inheritance)."""


def _games(text: str) -> Iterator[dict[str, str]]:
    """The games (blank-line separated) as tag name -> value, one at a time: a game
    without a contract is dropped as soon as it is read."""
    current: dict[str, str] = {}
    for raw in _uncommented(text):
        line = raw.split(";", 1)[0].strip() if not raw.lstrip().startswith("[") else raw.strip()
        if line.startswith("%"):
            continue
        if not line:
            if current:
                yield current
                current = {}
            continue
        for match in _TAG.finditer(line):
            current[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
    if current:
        yield current


def _uncommented(text: str) -> Iterator[str]:
    """The lines of `text` (LF line ends) with every closed "{...}" comment removed.

    A comment may span lines: what precedes it and what follows it form one line, as if
    it were not there. A "{" with no "}" after it is text, and so is a "{" inside a
    comment (PBN comments do not nest). One pass over the text: `last_close` tells at
    once whether a "{" is ever closed."""
    last_close = text.rfind("}")
    offset = 0  # index in `text` of the current line's first character
    inside = False
    pieces: list[str] = []
    length = 0
    for line_no, line in enumerate(split_lines(text), start=1):
        position = 0
        while position <= len(line):
            if inside:
                close = line.find("}", position)
                if close < 0:
                    break
                inside, position = False, close + 1
            brace = line.find("{", position)
            if brace < 0 or offset + brace > last_close:
                brace = len(line)
            else:
                inside = True
            length += brace - position
            if length > MAX_LINE:
                raise BridgeInputError(
                    "pbn",
                    f"line {line_no}: a line of more than {MAX_LINE:,} characters "
                    "({...} comments aside)",
                )
            pieces.append(line if position == 0 and brace == len(line) else line[position:brace])
            position = brace + 1
        offset += len(line) + 1
        if not inside:
            yield pieces[0] if len(pieces) == 1 else "".join(pieces)
            pieces.clear()
            length = 0


def _score_game(number: int, tags: Mapping[str, str]) -> PbnResult:
    where = f"game {number}"
    board = whole_number(tags.get("Board", "").strip())
    if not board:
        raise BridgeInputError("pbn", f"{where}: Board tag missing or not a positive number")
    vul_text = tags.get("Vulnerable")
    try:
        vulnerability = (
            board_conditions(board).vulnerability
            if vul_text is None
            else Vulnerability.parse(vul_text)
        )
        contract = parse_contract(tags.get("Contract", ""))
    except BridgeInputError as error:
        raise BridgeInputError("pbn", f"{where}: {error}") from None
    if contract is None:
        return PbnResult(board, None, None, None, vulnerability, 0, MappingProxyType(dict(tags)))
    declarer_text = tags.get("Declarer", "").lstrip("^")
    tricks = whole_number(tags.get("Result", "").strip())
    if tricks is None:
        raise BridgeInputError("pbn", f"{where}: Result tag missing or not a number of tricks")
    try:
        declarer = Seat.parse(declarer_text)
        score = ns_score(contract, declarer, vulnerability, tricks)
    except BridgeInputError as error:
        raise BridgeInputError("pbn", f"{where}: {error}") from None
    return PbnResult(
        board, contract, declarer, tricks, vulnerability, score, MappingProxyType(dict(tags))
    )


def read_pbn(text: str, most: int | None = None) -> tuple[PbnResult, ...]:
    """Score every game of a PBN text (games without a Contract tag are skipped); past
    `most` games with a Contract tag the text is refused (the caller knows how many
    results it can take: a session's tables times boards)."""
    if not isinstance(text, str):
        raise BridgeInputError("pbn", "expected the text of a PBN file")
    text = normalized_text(text)
    found = first_control(text)
    if found is not None:
        raise BridgeInputError("pbn", f"{found.describe()}; PBN text carries no control characters")
    results: list[PbnResult] = []
    previous: dict[str, str] = {}
    for number, game in enumerate(_games(text), start=1):
        tags = {
            name: previous[name] if value == "#" else value
            for name, value in game.items()
            if value != "#" or name in previous
        }
        previous = tags
        if "Contract" not in tags:
            continue
        if most is not None and len(results) >= most:
            raise BridgeInputError(
                "pbn", f"game {number}: more than {most:,} games with a Contract tag"
            )
        results.append(_score_game(number, tags))
    return tuple(results)
