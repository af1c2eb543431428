"""Player resources."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, StrictBool, StrictInt

from service.api.schemas.common import ApiModel, Name

__all__ = [
    "GamesBefore",
    "KFactor",
    "PlayerCreate",
    "PlayerPublic",
    "PlayerRegistered",
    "PlayerUpdate",
    "Sex",
    "sex_code",
]


def sex_code(value: object) -> object:
    """TRF-16 sex code (col 10: m, w) from m, w or f in any case."""
    if isinstance(value, str):
        code = value.strip().lower()
        if code in ("m", "w", "f"):
            return "w" if code == "f" else code
        raise ValueError("use m or w (the TRF codes); f is accepted for w, in any case")
    return value


def _unrated_as_zero(value: object) -> object:
    """null (or omitted) = unrated, stored as 0 as TRF-16 writes an unrated player."""
    return 0 if value is None else value


Sex = Annotated[
    Literal["m", "w"],
    BeforeValidator(sex_code),
    Field(description="m or w (TRF-16 codes); f and upper case are accepted, f as w."),
]

Rating = Annotated[
    StrictInt | None,
    BeforeValidator(_unrated_as_zero),
    Field(ge=0, le=4000, description="Rating at the start; null, omitted or 0 = unrated."),
]


def _published_k(value: int | None) -> int | None:
    """FIDE B.02 8.3.3: the rating list publishes K = 40, 20 or 10."""
    if value is not None and value not in (40, 20, 10):
        raise ValueError("K is 40, 20 or 10 (FIDE B.02 8.3.3)")
    return value


KFactor = Annotated[
    StrictInt | None,
    AfterValidator(_published_k),
    Field(
        description="K as the rating list publishes it (40, 20 or 10, FIDE B.02 8.3.3); "
        "given, it decides K over the rules. Null: not recorded (the rules decide)."
    ),
]

GamesBefore = Annotated[
    StrictInt | None,
    Field(
        ge=0,
        le=100_000,
        description="Rated games completed before the event (FIDE B.02 8.3.3: K = 40 "
        "until 30 games). Null: not recorded.",
    ),
]

Reached2400 = Annotated[
    StrictBool | None,
    Field(
        description="Whether a published rating of the player ever reached 2400 (FIDE "
        "B.02 8.3.3: K = 10 for good). Null: not recorded (a rating of 2400 or more at "
        "the start answers it)."
    ),
]


Title = Annotated[
    Literal["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"] | None,
    Field(
        description="FIDE title, as the rating list publishes it (TRF 001 cols 11-13): "
        "the norms count titled opponents (FIDE B.01 1.4.4), and it ranks players of "
        "equal rating at the start (C.04.2). Null: none recorded."
    ),
]


IDENTITY = Field(
    default=None,
    pattern=r"^[A-Za-z0-9._:-]{1,64}$",
    description="Links the same person across tournaments when there is no FIDE id "
    "(e.g. a federation or club number).",
)


class PlayerCreate(ApiModel):
    """A player to register."""

    name: Name
    rating: Rating = 0
    fide_id: str | None = Field(default=None, pattern=r"^[0-9]{1,11}$")
    federation: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")
    sex: Sex | None = None
    birth_year: StrictInt | None = Field(default=None, ge=1880, le=2100)
    identity: str | None = IDENTITY
    title: Title = None
    k: KFactor = None
    games_before: GamesBefore = None
    reached_2400: Reached2400 = None


class PlayerUpdate(ApiModel):
    """Fields to change while the start list is open."""

    name: Name | None = None
    rating: Rating = Field(
        default=None, description="New rating; null = unrated (omit it to keep the rating)."
    )
    fide_id: str | None = Field(default=None, pattern=r"^[0-9]{1,11}$")
    federation: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")
    sex: Sex | None = None
    birth_year: StrictInt | None = Field(default=None, ge=1880, le=2100)
    identity: str | None = IDENTITY
    title: Title = Field(default=None, description="As on registration; null removes it.")
    k: KFactor = Field(default=None, description="As on registration; null removes it.")
    games_before: GamesBefore = Field(
        default=None, description="As on registration; null removes it."
    )
    reached_2400: Reached2400 = Field(
        default=None, description="As on registration; null removes it."
    )
    withdrawn: bool | None = Field(
        default=None,
        description=(
            "Withdraw a player from a running tournament. Swiss: a zero-point bye in every "
            "later round. Paired in advance (round-robin, FLAMPARK): each game with no result "
            "reported becomes a forfeit loss for the player; a round-robin leaves "
            "a player who completed fewer than half of their games out of the standings "
            "(FIDE C.06 V.4)."
        ),
    )


class PlayerPublic(BaseModel):
    """A registered player."""

    id: int = Field(
        description="The player's number in the tournament: 1, 2, 3 in registration order, "
        "never reused, the same before and after the start; every /players/{id} path takes "
        "it. Rounds and standings name players by `start_number` (given at the start)."
    )
    start_number: int | None
    name: str
    rating: int | None = Field(description="Rating at the start; null = unrated.")
    fide_id: str | None
    federation: str | None
    sex: str | None
    birth_year: int | None
    identity: str | None = None
    withdrawn: bool = False
    title: str | None = Field(default=None, description="FIDE title, if recorded.")
    k: int | None = Field(default=None, description="K published by the rating list, if recorded.")
    games_before: int | None = Field(
        default=None, description="Rated games before the event, if recorded."
    )
    reached_2400: bool | None = Field(
        default=None, description="Whether a published rating ever reached 2400, if recorded."
    )


class PlayerRegistered(PlayerPublic):
    """A registration: a late entry to a running Swiss tournament also gets its token."""

    token: str | None = Field(
        default=None, description="A late entry's player token, shown only this once."
    )
