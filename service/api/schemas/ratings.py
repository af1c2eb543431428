"""`POST /v1/compute/ratings`: what an event did to FIDE ratings and norms
(docs/rules/ratings.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, StrictBool, StrictInt

from service.api.schemas.compute import ComputePlayer, ComputeTournament, PlayerId
from service.api.schemas.norms import (
    EVENT_FORMAT_FIELD,
    EVENT_KIND_FIELD,
    HOST_FEDERATION_FIELD,
    EventFormat,
    EventKind,
)

__all__ = [
    "ComputeRatings",
    "ExcludedGameOut",
    "ForecastOut",
    "InitialRatingOut",
    "NormConditionOut",
    "NormOptionOut",
    "NormOut",
    "OpponentNeeded",
    "RatingsPlayer",
    "RatingsRow",
    "RatingsTournament",
]


class RatingsPlayer(ComputePlayer):
    """A player, with what the rating rules need beyond the start list (all optional:
    a rule that needs a fact the player lacks answers with it in `missing`)."""

    k: StrictInt | None = Field(
        default=None, ge=1, le=40, description="K as the rating list gives it (B.02 8.3.3)."
    )
    games_before: StrictInt | None = Field(
        default=None, ge=0, description="Rated games completed before the event."
    )
    reached_2400: StrictBool | None = Field(
        default=None, description="Whether a published rating ever reached 2400."
    )
    birth_year: StrictInt | None = Field(default=None, ge=1850, le=2200)
    title: str | None = Field(default=None, max_length=3, description="GM, IM, FM, WGM, ...")
    federation: str | None = Field(default=None, pattern=r"^[A-Za-z]{3}$")
    sex: Literal["m", "w"] | None = Field(
        default=None, description="m or w, as in TRF; a man is not checked for WGM/WIM norms."
    )


class RatingsTournament(ComputeTournament):
    """A whole tournament whose ratings are computed (nothing is stored)."""

    event_kind: EventKind = Field(default="ordinary", description=EVENT_KIND_FIELD)
    event_format: EventFormat | None = Field(default=None, description=EVENT_FORMAT_FIELD)
    host_federation: str | None = Field(
        default=None, pattern=r"^[A-Za-z]{3}$", description=HOST_FEDERATION_FIELD
    )

    players: list[RatingsPlayer] = Field(min_length=1, max_length=20_000)  # type: ignore[assignment]
    year: StrictInt | None = Field(
        default=None,
        ge=1900,
        le=2200,
        description="The event's year, for the junior K rule (K = 40 until the end of the "
        "year of the 18th birthday).",
    )


class InitialRatingOut(BaseModel):
    """An unrated player's initial rating (B.02 art. 8.2)."""

    status: Literal["rated", "not-enough-games", "zero-score", "below-floor"]
    rating: int | None = Field(description="The rating published, if any.")
    computed: int | None = Field(description="Ru as computed (also below the floor).")
    average: float | None = Field(description="Ra with the two hypothetical 1800 draws.")
    percent: int | None = Field(description="p in hundredths, the two draws included.")


class NormConditionOut(BaseModel):
    """One norm condition with its figure."""

    name: str
    value: float | None
    required: str
    met: bool | None = Field(description="Null when the input lacks what it needs.")
    missing: list[str]
    exempt: str | None = Field(
        default=None, description="The article waiving the condition (B.01 1.4.3a-d), if any."
    )


class OpponentNeeded(BaseModel):
    """What an opponent not yet known must be for the result to give the norm."""

    min_rating: int | None = Field(description="Null: any rating, unrated included (1400).")
    titles: list[str] | None = Field(description="One of these titles; null: none needed.")
    new_federation: bool = Field(
        description="From a federation neither the player's nor one met so far."
    )
    federations_excluded: list[str] = Field(description="Federations the opponent must not be of.")


class NormOptionOut(BaseModel):
    """A last-round result that gives the norm."""

    result: Literal["win", "draw", "loss"]
    against: OpponentNeeded | None = Field(
        description="Null: the paired opponent, or any opponent."
    )


class ForecastOut(BaseModel):
    """The norm's last round, while one round is left (docs/rules/ratings.md)."""

    round: int
    opponent: PlayerId | None = Field(description="The paired opponent; null while unpaired.")
    status: Literal["secured", "open", "out-of-reach", "unknown"]
    needs: Literal["win", "draw", "loss"] | None = Field(
        description="The least result that gives the norm (against `against`)."
    )
    against: OpponentNeeded | None
    options: list[NormOptionOut] = Field(description="Every result that gives it.")


class ExcludedGameOut(BaseModel):
    """A game left out of the norm (B.01 1.4.1f: a win the player may ignore)."""

    round: int
    opponent: PlayerId = Field(description="The beaten opponent.")


class NormOut(BaseModel):
    """One title's norm (B.01)."""

    title: Literal["GM", "IM", "WGM", "WIM"]
    met: bool | None
    conditions: list[NormConditionOut]
    excluded: list[ExcludedGameOut] = Field(
        default_factory=list,
        description="The games won left out to make the norm (1.4.1f; the conditions are "
        "those of the games kept); empty when every game counts.",
    )
    forecast: ForecastOut | None = Field(
        default=None, description="With one round left: what it needs (null otherwise)."
    )


class RatingsRow(BaseModel):
    """One player's figures for the event."""

    id: PlayerId
    rating: int | None = Field(description="Rating at the start; null = unrated.")
    k: int | None = Field(description="K applied (after the 700 cap); null if undecided.")
    k_rule: str = Field(
        description="given, reached-2400, junior, new-player or standard; empty if undecided."
    )
    games: int = Field(description="Rated games: played over the board, opponent rated.")
    score: float
    expected: float | None = Field(description="We, the sum of table 8.1.2's PD.")
    change: float | None = Field(description="K x (W - We); null if unrated or K undecided.")
    performance: int | None = Field(description="TPR (FIDE C.07 art. 10.2).")
    initial: InitialRatingOut | None
    missing: list[str] = Field(description="Facts the rules needed and the input lacked.")
    norms: list[NormOut]


class ComputeRatings(BaseModel):
    """Every player's rating figures, in start-number order."""

    year: int | None = Field(description="The event's year the junior rule read.")
    players: list[RatingsRow]
