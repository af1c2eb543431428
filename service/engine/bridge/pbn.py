"""A simple board-results import from PBN (Portable Bridge Notation) tag pairs.

Reads the tag pairs of each game (`[Board "5"]`, `[Vulnerable "NS"]`,
`[Declarer "W"]`, `[Contract "4SX"]`, `[Result "9"]`) and scores the board with
Law 77 (`contract.ns_score`). Games are separated by blank lines; lines starting
with "%" and ";"-comments are skipped, "{...}" commentary is ignored; a tag value of
"#" repeats the previous game's value (PBN tag value inheritance; dropped when the
previous game had no such tag). The Result tag
is the number of tricks declarer took. Other sections (auction, play, tables) are
not read.

Readings: a game without a Vulnerable tag takes the vulnerability of its board
number; a passed-out game ("Pass") needs no Declarer or Result; a game whose Result
is missing, "?" or "^" (irregular) cannot be scored and raises `BridgeInputError`
naming the game; a declarer written "^N" (irregular declarer) is read as N.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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

__all__ = ["PbnResult", "read_pbn"]

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


def _games(text: str) -> list[dict[str, str]]:
    """Split into games (blank-line separated) of tag name -> value."""
    text = re.sub(r"\{[^}]*\}", "", text)
    games: list[dict[str, str]] = []
    current: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split(";", 1)[0].strip() if not raw.lstrip().startswith("[") else raw.strip()
        if line.startswith("%"):
            continue
        if not line:
            if current:
                games.append(current)
                current = {}
            continue
        for match in _TAG.finditer(line):
            current[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
    if current:
        games.append(current)
    return games


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


def read_pbn(text: str) -> tuple[PbnResult, ...]:
    """Score every game of a PBN text (games without a Contract tag are skipped)."""
    if not isinstance(text, str):
        raise BridgeInputError("pbn", "expected the text of a PBN file")
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
        results.append(_score_game(number, tags))
    return tuple(results)
