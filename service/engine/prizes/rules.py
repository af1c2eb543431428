"""The organizer's prize rules and who may take a category's prizes.

A category names its conditions (sex, age by birth year, rating class, unrated); a
player lacking the fact a condition needs is not eligible and is reported as missing,
never guessed (docs/rules/prizes.md#missing-facts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from service.engine.model import Player

__all__ = ["Category", "Missing", "OnePrize", "PrizeRules", "Ties", "eligibility"]

Ties = Literal["hort", "split", "tiebreak"]
OnePrize = Literal["highest", "place-first"]
OPEN = "open"
"""The name of the main prize list (the places)."""


@dataclass(frozen=True, slots=True)
class Category:
    """A prize list and who may take it; None conditions do not apply.

    Ages are reached in the event's year (year − birth year): `max_age` 18 takes players
    born in the year 18 years before the event or later (FIDE's "under 18 on 1 January",
    read by birth year). Rating bounds apply to rated players only; an unrated player is
    in no rating class. `unrated` True: unrated players only."""

    name: str
    amounts: tuple[Fraction, ...]
    sex: str | None = None
    min_age: int | None = None
    max_age: int | None = None
    min_rating: int | None = None
    max_rating: int | None = None
    unrated: bool = False


@dataclass(frozen=True, slots=True)
class PrizeRules:
    """The places (the open list), the categories in declared order, the tie rule and
    the one-prize rule."""

    places: tuple[Fraction, ...] = ()
    categories: tuple[Category, ...] = ()
    ties: Ties = "split"
    one_prize: OnePrize = "highest"
    year: int | None = None
    """The event's year as the organizer gave it (age categories); None: not given."""

    @classmethod
    def from_settings(cls, stored: Mapping[str, Any]) -> PrizeRules:
        """Read the stored (API-validated) `prizes` setting."""
        return cls(
            places=_amounts(stored.get("places") or ()),
            categories=tuple(
                Category(
                    name=str(c["name"]),
                    amounts=_amounts(c.get("amounts") or ()),
                    sex=c.get("sex"),
                    min_age=c.get("min_age"),
                    max_age=c.get("max_age"),
                    min_rating=c.get("min_rating"),
                    max_rating=c.get("max_rating"),
                    unrated=bool(c.get("unrated", False)),
                )
                for c in stored.get("categories") or ()
            ),
            ties=stored.get("ties", "split"),
            one_prize=stored.get("one_prize", "highest"),
            year=stored.get("year"),
        )

    def lists(self) -> tuple[Category, ...]:
        """Every prize list, the places first (named `open`, open to everyone)."""
        return (Category(OPEN, self.places), *self.categories)


@dataclass(frozen=True, slots=True)
class Missing:
    """A player left out of a category because a fact it needs is not recorded."""

    player: int
    category: str
    field: str


def _amounts(values: Sequence[Any]) -> tuple[Fraction, ...]:
    return tuple(Fraction(str(v)) for v in values)


def eligibility(category: Category, player: Player, year: int | None) -> bool | str:
    """True or False when the facts decide; the name of the missing fact otherwise
    (`sex`, `birth_year`, `year` for the event's year)."""
    if category.sex is not None:
        if player.sex is None:
            return "sex"
        if player.sex != category.sex:
            return False
    if category.unrated and player.rating:
        return False
    rated = category.min_rating is not None or category.max_rating is not None
    if rated:
        if not player.rating:
            return False
        if category.min_rating is not None and player.rating < category.min_rating:
            return False
        if category.max_rating is not None and player.rating > category.max_rating:
            return False
    if category.min_age is not None or category.max_age is not None:
        if year is None:
            return "year"
        if player.birth_year is None:
            return "birth_year"
        age = year - player.birth_year
        if category.max_age is not None and age > category.max_age:
            return False
        if category.min_age is not None and age < category.min_age:
            return False
    return True
