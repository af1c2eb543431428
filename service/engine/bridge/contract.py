"""Duplicate score of one board from its contract, and board conditions.

Law 77 (Laws of Duplicate Bridge 2017; the same table as the 2007 Laws mirrored by
PZBS): trick score, part-score and game premiums, slam premiums, the insult for
making a doubled or redoubled contract, overtricks and undertricks. Honours are not
scored in duplicate. A passed-out board scores 0 for both sides.

Board number -> dealer and vulnerability follows the standard 16-board cycle
(board 17 deals like board 1).

Contract strings: a level 1-7, a strain (C, D, H, S, N or NT; the suit symbols
too), then nothing, X (doubled) or XX (redoubled); "*" and "**" are accepted for
X and XX, case and spaces are ignored. "pass" (also "p", "passed", "ap", "-")
means the board was passed out.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from service.engine.bridge.errors import BridgeInputError
from service.engine.numerals import whole_number

__all__ = [
    "BoardConditions",
    "Contract",
    "Doubling",
    "Seat",
    "Side",
    "Strain",
    "Vulnerability",
    "board_conditions",
    "ns_score",
    "parse_contract",
    "score_contract",
]


class Strain(enum.StrEnum):
    """The denomination of a contract."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    NOTRUMP = "NT"

    @property
    def is_minor(self) -> bool:
        """Clubs and diamonds score 20 a trick (Law 77)."""
        return self in (Strain.CLUBS, Strain.DIAMONDS)


class Doubling(enum.IntEnum):
    """Undoubled, doubled or redoubled; the value is the trick-score multiplier."""

    UNDOUBLED = 1
    DOUBLED = 2
    REDOUBLED = 4

    @property
    def suffix(self) -> str:
        """ "", "X" or "XX" as written after the contract."""
        return {1: "", 2: "X", 4: "XX"}[int(self)]


class Side(enum.StrEnum):
    """A partnership direction."""

    NS = "NS"
    EW = "EW"


class Seat(enum.StrEnum):
    """A compass seat."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def side(self) -> Side:
        """The partnership this seat belongs to."""
        return Side.NS if self in (Seat.NORTH, Seat.SOUTH) else Side.EW

    @classmethod
    def parse(cls, text: str | Seat, field: str = "declarer") -> Seat:
        """Accept "N", "north", "S" ... (any case); anything else names `field`."""
        if isinstance(text, Seat):
            return text
        if not isinstance(text, str):
            raise BridgeInputError(field, f"expected one of N, E, S, W, got {text!r}")
        key = text.strip().upper()
        names = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}
        key = names.get(key, key)
        try:
            return cls(key)
        except ValueError:
            raise BridgeInputError(field, f"expected one of N, E, S, W, got {text!r}") from None


class Vulnerability(enum.StrEnum):
    """Who is vulnerable on a board."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def of(self, side: Side) -> bool:
        """True when `side` is vulnerable."""
        if self is Vulnerability.ALL:
            return True
        return self.value == side.value

    @classmethod
    def parse(cls, text: str | Vulnerability) -> Vulnerability:
        """Accept None/-/Love, NS, EW, All/Both (any case)."""
        if isinstance(text, Vulnerability):
            return text
        if not isinstance(text, str):
            raise BridgeInputError("vulnerability", f"unknown value {text!r}")
        key = text.strip().upper().replace("-", "").replace("/", "")
        aliases = {
            "": "None",
            "NONE": "None",
            "LOVE": "None",
            "O": "None",
            "NS": "NS",
            "N": "NS",
            "EW": "EW",
            "E": "EW",
            "ALL": "All",
            "BOTH": "All",
            "B": "All",
        }
        if key not in aliases:
            raise BridgeInputError("vulnerability", f"unknown value {text!r}")
        return cls(aliases[key])


@dataclass(frozen=True, slots=True)
class Contract:
    """A bid contract (a passed-out board is represented by `None`, not a Contract)."""

    level: int
    """Odd tricks bid, 1-7."""
    strain: Strain
    """The denomination."""
    doubling: Doubling = Doubling.UNDOUBLED
    """Undoubled, doubled or redoubled."""

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, int):
            raise BridgeInputError("level", f"must be an integer 1-7, got {self.level!r}")
        if not 1 <= self.level <= 7:
            raise BridgeInputError("level", f"must be 1-7, got {self.level}")
        if not isinstance(self.strain, Strain):
            raise BridgeInputError("strain", f"unknown strain {self.strain!r}")
        if not isinstance(self.doubling, Doubling):
            raise BridgeInputError("doubling", f"unknown doubling {self.doubling!r}")

    @property
    def tricks_needed(self) -> int:
        """Book (6) plus the level."""
        return 6 + self.level

    def __str__(self) -> str:
        return f"{self.level}{self.strain.value}{self.doubling.suffix}"


_PASS_WORDS = frozenset({"PASS", "P", "PASSED", "PASSEDOUT", "AP", "ALLPASS", "-"})
_STRAIN_WORDS = {
    "C": Strain.CLUBS,
    "♣": Strain.CLUBS,
    "D": Strain.DIAMONDS,
    "♦": Strain.DIAMONDS,
    "H": Strain.HEARTS,
    "♥": Strain.HEARTS,
    "S": Strain.SPADES,
    "♠": Strain.SPADES,
    "N": Strain.NOTRUMP,
    "NT": Strain.NOTRUMP,
    "BA": Strain.NOTRUMP,
}
_DOUBLING_WORDS = {
    "": Doubling.UNDOUBLED,
    "X": Doubling.DOUBLED,
    "*": Doubling.DOUBLED,
    "XX": Doubling.REDOUBLED,
    "**": Doubling.REDOUBLED,
}


def parse_contract(text: str | Contract | None) -> Contract | None:
    """Parse "4SX", "3NT", "7NTXX", "pass" ...; `None` means passed out.

    A `Contract` or `None` passes through unchanged. Errors name the field: "contract"
    for an unreadable string, "level" for a level outside 1-7, "strain" for an
    unknown denomination.
    """
    if text is None or isinstance(text, Contract):
        return text
    if not isinstance(text, str):
        raise BridgeInputError("contract", f"expected a string such as '4SX', got {text!r}")
    key = "".join(text.split()).upper()
    if key in _PASS_WORDS:
        return None
    if not key or key[0] not in "0123456789":
        raise BridgeInputError("contract", f"cannot read {text!r} (expected e.g. '4SX' or 'pass')")
    digits = 0
    while digits < len(key) and key[digits] in "0123456789":
        digits += 1
    level = whole_number(key[:digits])
    rest = key[digits:]
    if level is None:
        raise BridgeInputError("level", f"must be 1-7, got a number of {digits} digits")
    if not 1 <= level <= 7:
        raise BridgeInputError("level", f"must be 1-7, got {level} in {text!r}")
    strain_text = rest.rstrip("X*")
    doubling_text = rest[len(strain_text) :]
    if strain_text not in _STRAIN_WORDS:
        raise BridgeInputError("strain", f"unknown strain {strain_text!r} in {text!r}")
    if doubling_text not in _DOUBLING_WORDS:
        raise BridgeInputError("contract", f"cannot read doubling {doubling_text!r} in {text!r}")
    return Contract(level, _STRAIN_WORDS[strain_text], _DOUBLING_WORDS[doubling_text])


def _check_tricks(tricks: int) -> None:
    if isinstance(tricks, bool) or not isinstance(tricks, int):
        raise BridgeInputError("tricks", f"must be an integer 0-13, got {tricks!r}")
    if not 0 <= tricks <= 13:
        raise BridgeInputError("tricks", f"must be 0-13, got {tricks}")


def _trick_score(contract: Contract) -> int:
    """Law 77 trick score for the odd tricks bid (not overtricks)."""
    per_trick = 20 if contract.strain.is_minor else 30
    first = per_trick + (10 if contract.strain is Strain.NOTRUMP else 0)
    return (first + per_trick * (contract.level - 1)) * contract.doubling


def _made(contract: Contract, vulnerable: bool, overtricks: int) -> int:
    """Score for making the contract with `overtricks` extra tricks (Law 77)."""
    trick_score = _trick_score(contract)
    score = trick_score
    score += (500 if vulnerable else 300) if trick_score >= 100 else 50
    if contract.level == 6:
        score += 750 if vulnerable else 500
    elif contract.level == 7:
        score += 1500 if vulnerable else 1000
    if contract.doubling is Doubling.UNDOUBLED:
        score += overtricks * (20 if contract.strain.is_minor else 30)
    else:
        # Insult 50 (doubled) / 100 (redoubled); overtricks 100/200 not vul, 200/400 vul.
        score += 25 * contract.doubling
        score += overtricks * (100 if vulnerable else 50) * contract.doubling
    return score


def _undertrick_penalty(doubling: Doubling, vulnerable: bool, down: int) -> int:
    """Points the defenders score for `down` undertricks (Law 77)."""
    if doubling is Doubling.UNDOUBLED:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        doubled = 200 + 300 * (down - 1)
    else:
        # 100, then 200 for the 2nd and 3rd, 300 for the 4th and each subsequent.
        doubled = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return doubled * (doubling // 2)


def score_contract(
    contract: str | Contract | None, declarer: str | Seat, vulnerable: bool, tricks: int
) -> int:
    """The declaring side's score (Law 77); negative when the contract fails.

    `tricks` is the number of tricks declarer's side took (0-13); `vulnerable` is the
    declaring side's vulnerability. A passed-out board (`"pass"` or `None`) is 0 and
    its declarer and tricks are ignored.
    """
    parsed = parse_contract(contract)
    if parsed is None:
        return 0
    Seat.parse(declarer)
    if not isinstance(vulnerable, bool):
        raise BridgeInputError("vulnerable", f"must be True or False, got {vulnerable!r}")
    _check_tricks(tricks)
    if tricks >= parsed.tricks_needed:
        return _made(parsed, vulnerable, tricks - parsed.tricks_needed)
    return -_undertrick_penalty(parsed.doubling, vulnerable, parsed.tricks_needed - tricks)


def ns_score(
    contract: str | Contract | None,
    declarer: str | Seat,
    vulnerability: str | Vulnerability,
    tricks: int,
) -> int:
    """The board's score from North-South's point of view (the usual score-sheet sign).

    `vulnerability` is the board's (None, NS, EW, All); the declarer's side decides
    which applies. Passed out is 0.
    """
    parsed = parse_contract(contract)
    if parsed is None:
        return 0
    seat = Seat.parse(declarer)
    vul = Vulnerability.parse(vulnerability).of(seat.side)
    score = score_contract(parsed, seat, vul, tricks)
    return score if seat.side is Side.NS else -score


@dataclass(frozen=True, slots=True)
class BoardConditions:
    """Dealer and vulnerability of a board number."""

    board: int
    """The board number as given (1-based)."""
    dealer: Seat
    """The seat that deals."""
    vul_ns: bool
    """North-South vulnerable."""
    vul_ew: bool
    """East-West vulnerable."""

    def __iter__(self) -> Iterator[Seat | bool]:
        """Unpack as `dealer, vul_ns, vul_ew = board_conditions(n)`."""
        return iter((self.dealer, self.vul_ns, self.vul_ew))

    @property
    def vulnerability(self) -> Vulnerability:
        """The same vulnerability as one value."""
        if self.vul_ns and self.vul_ew:
            return Vulnerability.ALL
        if self.vul_ns:
            return Vulnerability.NS
        if self.vul_ew:
            return Vulnerability.EW
        return Vulnerability.NONE


# Vulnerability of boards 1-16 (O = none, N = NS, E = EW, B = both).
_VUL_CYCLE = "ONEBNEBOEBONBONE"


def board_conditions(board: int) -> BoardConditions:
    """Dealer and vulnerability of `board` (standard 16-board cycle; 17 deals like 1).

    Dealer rotates N, E, S, W; vulnerability follows None, NS, EW, All shifted by one
    every four boards.
    """
    if isinstance(board, bool) or not isinstance(board, int):
        raise BridgeInputError("board", f"must be a positive integer, got {board!r}")
    if board < 1:
        raise BridgeInputError("board", f"must be 1 or more, got {board}")
    index = (board - 1) % 16
    code = _VUL_CYCLE[index]
    return BoardConditions(
        board=board,
        dealer=Seat("NESW"[index % 4]),
        vul_ns=code in "NB",
        vul_ew=code in "EB",
    )
