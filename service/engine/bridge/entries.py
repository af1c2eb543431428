"""What a table can hold on a board besides a plain score (Law 12C; docs/rules/bridge.md).

- A plain NS score (`int`, a multiple of 10 from `ns_score`).
- `WeightedScore`: an assigned adjusted score weighted over several possible results
  (Law 12C1(c)), e.g. 60 % of +420 and 40 % of -50. Each component is scored
  against the field on its own and the results are combined by weight, which is why
  the scoring modules produce fractional matchpoints and IMPs (the lecture: "the
  program must accept fractional IMPs").
- `ArtificialScore`: an artificial adjusted score when no result could be obtained
  (Law 12C2): average-plus 60 %, average 50 %, average-minus 40 %, given per side;
  the two sides need not balance (40/40 when both are at fault). At IMPs the
  percentages map to +3 / 0 / -3 IMPs (Law 12C2(b)).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from service.engine.bridge.errors import BridgeInputError

__all__ = [
    "AVERAGE",
    "AVERAGE_MINUS",
    "AVERAGE_PLUS",
    "ArtificialScore",
    "BoardEntry",
    "WeightedScore",
    "components",
    "is_real",
]


def _as_fraction(value: int | str | Fraction, field: str) -> Fraction:
    if isinstance(value, bool):
        raise BridgeInputError(field, f"must be a number, got {value!r}")
    try:
        return Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise BridgeInputError(field, f"must be a number, got {value!r}") from None


def _check_score(score: int, field: str = "score") -> int:
    if isinstance(score, bool) or not isinstance(score, int):
        raise BridgeInputError(field, f"must be an integer NS score, got {score!r}")
    return score


@dataclass(frozen=True, slots=True)
class WeightedScore:
    """A weighted assigned score: several NS results with weights adding up to 1."""

    parts: tuple[tuple[Fraction, int], ...]
    """(weight, NS score) pairs; weights positive and summing to exactly 1."""

    def __post_init__(self) -> None:
        if not self.parts:
            raise BridgeInputError("weights", "a weighted score needs at least one result")
        for weight, score in self.parts:
            if not isinstance(weight, Fraction) or weight <= 0:
                raise BridgeInputError("weights", f"weights must be positive, got {weight!r}")
            _check_score(score)
        if sum(weight for weight, _ in self.parts) != 1:
            raise BridgeInputError("weights", "weights must add up to 1")

    @classmethod
    def of(cls, *parts: tuple[int | str | Fraction, int]) -> WeightedScore:
        """Build from (weight, score) pairs; weights as Fractions, ints, or strings
        such as "0.6" or "3/5"; percentages are written as fractions ("60/100")."""
        return cls(tuple((_as_fraction(w, "weights"), _check_score(s)) for w, s in parts))

    @property
    def mean(self) -> Fraction:
        """The weighted mean NS score."""
        return sum((weight * score for weight, score in self.parts), Fraction(0))


AVERAGE_PLUS = Fraction(60)
"""Average-plus: at least 60 % (Law 12C2(a))."""
AVERAGE = Fraction(50)
"""Average: 50 %."""
AVERAGE_MINUS = Fraction(40)
"""Average-minus: at most 40 %."""


@dataclass(frozen=True, slots=True)
class ArtificialScore:
    """An artificial adjusted score: a percentage for each side (e.g. 60/40, 40/40)."""

    ns_percent: Fraction
    """North-South's percentage (0-100)."""
    ew_percent: Fraction
    """East-West's percentage (0-100); need not be 100 minus North-South's."""

    def __post_init__(self) -> None:
        for field, value in (("ns_percent", self.ns_percent), ("ew_percent", self.ew_percent)):
            if not isinstance(value, Fraction) or not 0 <= value <= 100:
                raise BridgeInputError(field, f"must be a percentage 0-100, got {value!r}")

    @classmethod
    def of(
        cls, ns_percent: int | str | Fraction, ew_percent: int | str | Fraction
    ) -> ArtificialScore:
        """Build from two percentages: `ArtificialScore.of(60, 40)`."""
        return cls(_as_fraction(ns_percent, "ns_percent"), _as_fraction(ew_percent, "ew_percent"))


BoardEntry = int | WeightedScore | ArtificialScore
"""One table's entry on a board."""


def is_real(entry: BoardEntry) -> bool:
    """True for entries that take part in comparisons (plain and weighted scores)."""
    return not isinstance(entry, ArtificialScore)


def components(entry: int | WeightedScore) -> Iterable[tuple[Fraction, int]]:
    """(weight, score) pairs: a plain score is one component of weight 1."""
    if isinstance(entry, WeightedScore):
        return entry.parts
    return ((Fraction(1), _check_score(entry)),)
