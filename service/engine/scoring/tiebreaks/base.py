"""The tie-break protocol and the explanation records (FIDE C.07 art. 4-5).

Two shapes of tie-break exist (C.07 art. 5, types):

* `TieBreak` - a value per participant that depends only on the tournament (types B, C,
  D and their combinations). `values` computes it for everyone at once;
  `explain` lists what made one participant's value.
* `GroupTieBreak` - type A (Direct Encounter): the value depends on who is tied, so
  it orders one tied group at a time.

Both report values as `Fraction`s in points (ratings are whole numbers).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

from service.engine.scoring.tiebreaks.context import TieBreakContext

__all__ = [
    "Contribution",
    "GroupOrder",
    "GroupTieBreak",
    "Raw",
    "TieBreak",
    "TieBreakExplanation",
    "fractions_of",
    "raw_of",
]


@dataclass(frozen=True, slots=True)
class Contribution:
    """One item that went into a participant's tie-break value."""

    round: int | None
    """Round number, or None for an item that is not a round (a rating, a total)."""
    opponent: int | None
    """Opponent's start number; None for a bye or a dummy opponent."""
    value: Fraction
    """What the item contributed (before cuts)."""
    note: str = ""
    """Why: "win vs 4 (5 pts)", "dummy opponent (art. 16)", ..."""
    counted: bool = True
    """False for an item removed by a modifier (Cut-1, Median-1, ...)."""

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form (numbers as exact strings and floats)."""
        return {
            "round": self.round,
            "opponent": self.opponent,
            "value": _num(self.value),
            "note": self.note,
            "counted": self.counted,
        }


@dataclass(frozen=True, slots=True)
class TieBreakExplanation:
    """A participant's value for one tie-break and the items behind it."""

    code: str
    """The tie-break code as normalised by the registry."""
    value: Fraction | None
    """The value shown in the standings; None where the tie-break is undefined (ARO
    of a participant with no game over the board)."""
    contributions: tuple[Contribution, ...] = ()
    """The items that made the value, in round order."""
    note: str = ""
    """Anything the items do not say (the formula, the tied group for DE)."""

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "code": self.code,
            "value": _num(self.value),
            "note": self.note,
            "contributions": [c.as_dict() for c in self.contributions],
        }


def _num(value: Fraction | None) -> dict[str, object] | None:
    return None if value is None else {"exact": str(value), "float": float(value)}


Raw = tuple[dict[int, int], int]
"""Values as integer numerators over one common denominator."""


def fractions_of(raw: Raw) -> dict[int, Fraction]:
    """Turn raw values into Fractions, building each distinct value once."""
    numerators, denominator = raw
    made: dict[int, Fraction] = {}
    out: dict[int, Fraction] = {}
    for number, numerator in numerators.items():
        value = made.get(numerator)
        if value is None:
            value = made[numerator] = Fraction(numerator, denominator)
        out[number] = value
    return out


def raw_of(values: dict[int, Fraction]) -> Raw:
    """Put Fractions over their least common denominator."""
    denominator = lcm(*(v.denominator for v in values.values())) if values else 1
    return (
        {n: v.numerator * (denominator // v.denominator) for n, v in values.items()},
        denominator,
    )


class TieBreak:
    """A per-participant tie-break (C.07 types B, C, D).

    Subclasses implement `values` or `raw` (each defaults to the other): `raw` is the
    fast form the standings sort on, integers over one denominator. Where `raw` takes
    column shortcuts, `reference_raw` keeps the round-by-round definition beside it.
    """

    code: str = ""
    """Normalised code, e.g. "BH-C1"."""
    descending: bool = True
    """Higher values rank higher (TPN and RTNG may be asked ascending)."""

    def values(self, ctx: TieBreakContext) -> dict[int, Fraction]:
        """Value for every participant."""
        return fractions_of(self.raw(ctx))

    def raw(self, ctx: TieBreakContext) -> Raw:
        """Values for every participant as integer numerators over one denominator."""
        return raw_of(self.values(ctx))

    def reference_raw(self, ctx: TieBreakContext) -> Raw:
        """`raw` by the plain round-by-round definition, for checking the fast paths.

        Tie-breaks whose `raw` takes column shortcuts override this with the walk
        over one participant's rounds at a time; the two must agree exactly.
        """
        return self.raw(ctx)

    def undefined(self, ctx: TieBreakContext) -> frozenset[int]:
        """Participants for whom the tie-break has no value (default: none).

        Their entry in `raw` is 0 (they sort below every defined value); the standings
        show no value for them. ARO, C.07 art. 10.1, averages the opponents met over
        the board: with none met it is undefined, not 0 (FIDE's checker gives none).
        """
        del ctx
        return frozenset()

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        """Value and contributing items for one participant (default: value only)."""
        value = None if number in self.undefined(ctx) else self.values(ctx)[number]
        return TieBreakExplanation(self.code, value)


@dataclass(frozen=True, slots=True)
class GroupOrder:
    """How a group tie-break split one tied group."""

    values: dict[int, Fraction]
    """Displayed value per member."""
    subgroups: list[list[int]] = field(default_factory=list)
    """The members split into ordered subgroups, best first; members of one
    subgroup stay tied."""
    notes: dict[int, str] = field(default_factory=dict)
    """Per-member explanation text."""


class GroupTieBreak(ABC):
    """A tie-break that orders a group of tied participants (C.07 type A)."""

    code: str = ""
    """Normalised code."""

    @abstractmethod
    def order(self, ctx: TieBreakContext, group: Sequence[int]) -> GroupOrder:
        """Split `group` (tied so far) into ordered subgroups."""

    def contributions(
        self, ctx: TieBreakContext, group: Sequence[int], number: int
    ) -> tuple[Contribution, ...]:
        """The items behind one member's displayed value (for explanations)."""
        del ctx, group, number
        return ()
