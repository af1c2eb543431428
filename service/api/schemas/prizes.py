"""Prize settings and the prize list (docs/rules/prizes.md)."""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise
from typing import Annotated, Literal, Self

from pydantic import BaseModel, Field, StrictBool, StrictInt, field_validator, model_validator

from service.api.schemas.common import ApiModel, Name
from service.api.schemas.players import Sex

__all__ = ["PrizeAward", "PrizeCategory", "PrizeMissing", "PrizeSettings", "PrizesPublic"]

Amount = Annotated[Decimal, Field(gt=0, le=Decimal("100000000"), decimal_places=2)]
Amounts = Annotated[
    list[Amount],
    Field(min_length=1, max_length=100, description="Prizes by place, highest first."),
]
Age = Annotated[StrictInt, Field(ge=0, le=150)]
RatingBound = Annotated[StrictInt, Field(ge=0, le=4000)]


def _descending(amounts: list[Decimal]) -> list[Decimal]:
    """Prizes by place never rise (a later place's prize above an earlier one's is a
    typing error, refused)."""
    for place, (upper, lower) in enumerate(pairwise(amounts), 2):
        if lower > upper:
            raise ValueError(f"prize {place} ({lower}) above prize {place - 1} ({upper})")
    return amounts


class PrizeCategory(ApiModel):
    """A category's prizes and who may take them (every condition given must hold).

    `max_age`/`min_age`: age reached in the event's year (year − birth year), so
    `max_age` 18 is FIDE's under-18 read by birth year. `max_rating`/`min_rating`: rated
    players only. `unrated`: unrated players only."""

    name: Name
    amounts: Amounts
    sex: Sex | None = None
    min_age: Age | None = None
    max_age: Age | None = None
    min_rating: RatingBound | None = None
    max_rating: RatingBound | None = None
    unrated: StrictBool = False

    _amounts = field_validator("amounts")(_descending)

    @model_validator(mode="after")
    def _check(self) -> Self:
        conditions = (self.sex, self.min_age, self.max_age, self.min_rating, self.max_rating)
        if all(c is None for c in conditions) and not self.unrated:
            raise ValueError("a category needs a condition (sex, age, rating or unrated)")
        if self.unrated and (self.min_rating is not None or self.max_rating is not None):
            raise ValueError("unrated: a category of unrated players has no rating bounds")
        if self.min_age is not None and self.max_age is not None and self.min_age > self.max_age:
            raise ValueError("min_age: above max_age")
        low, high = self.min_rating, self.max_rating
        if low is not None and high is not None and low > high:
            raise ValueError("min_rating: above max_rating")
        return self


class PrizeSettings(ApiModel):
    """The prize lists, the tie rule and the one-prize rule (docs/rules/prizes.md)."""

    places: list[Amount] = Field(
        default_factory=list, max_length=100, description="Prizes by final place, highest first."
    )
    categories: list[PrizeCategory] = Field(default_factory=list, max_length=50)
    ties: Literal["hort", "split", "tiebreak"] = Field(
        default="split",
        description="Players tied on points: `split` pools their prizes equally, `hort` "
        "keeps half of each own place's prize and pools the rest, `tiebreak` keeps the "
        "tie-break order.",
    )
    one_prize: Literal["highest", "place-first"] = Field(
        default="highest",
        description="One prize per player: the higher by amount, or the place prize first.",
    )
    year: StrictInt | None = Field(
        default=None,
        ge=1880,
        le=2100,
        description="The event's year for age categories; by default the first round's "
        "scheduled year, else the TRF start date's, else the year of creation.",
    )

    _places = field_validator("places")(_descending)

    @field_validator("categories")
    @classmethod
    def _distinct_names(cls, categories: list[PrizeCategory]) -> list[PrizeCategory]:
        names = [c.name for c in categories]
        for index, name in enumerate(names):
            if name == "open" or name in names[:index]:
                raise ValueError(f"category {index}: the name {name!r} is taken")
        return categories


class PrizeAward(BaseModel):
    """A player's prize: the list, the places pooled, the player's own place (null when
    tied in without one), the amount rounded down to the cent and exact."""

    prize: str = Field(description="`open` (the places) or a category's name.")
    places: list[int]
    place: int | None
    start_number: int
    name: str
    amount: Decimal = Field(description="Rounded down to the cent.")
    exact: str = Field(description="The exact amount, a fraction where it has no cents.")
    shared_with: list[int] = Field(description="Start numbers sharing these places.")


class PrizeMissing(BaseModel):
    """A player not eligible for a category because a fact it needs is not recorded."""

    start_number: int
    category: str
    field: Literal["sex", "birth_year", "year"]


class PrizesPublic(BaseModel):
    """The prizes from the current standings."""

    round: int = Field(description="The last round with confirmed results.")
    year: int | None = Field(description="The event's year, for age categories.")
    ties: str
    one_prize: str
    awards: list[PrizeAward]
    missing: list[PrizeMissing] | None = Field(
        description="Players left out of a category for a fact not recorded; null for a "
        "reader who may not see personal data."
    )
