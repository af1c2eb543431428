"""Access resources: settings changes and tokens (docs/api.md#tokens-and-scopes)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, Self

from pydantic import AwareDatetime, BaseModel, Field, StrictInt, model_validator

from service.api.schemas.common import ApiModel, Name
from service.api.schemas.norms import NormSettingsIn
from service.api.schemas.officials import City, Federation, Officials
from service.api.schemas.prizes import PrizeSettings
from service.api.schemas.tournaments import (
    AnnouncedBye,
    ForbiddenPair,
    TimeControl,
    TournamentPublic,
    Visibility,
    check_swiss_lists,
)

__all__ = [
    "SETTINGS_FIELDS",
    "BridgeTokenRevoke",
    "BridgeTokenRotate",
    "SwissSettingsPatch",
    "TokenIssued",
    "TokenRevoke",
    "TokenRotate",
    "TournamentSettingsChanged",
    "TournamentSettingsPatch",
]

SETTINGS_FIELDS = (
    "name",
    "schedule",
    "tiebreaks",
    "time_control",
    "visibility",
    "publish_personal_data",
    "prizes",
    "norms",
    "city",
    "federation",
    "officials",
    "swiss",
)
"""The settings PATCH may change: none of them alters a pairing already made."""
_REQUIRED = frozenset({"name", "visibility", "publish_personal_data", "swiss"})
"""Settings that always have a value (null is refused); the others null = unset."""


class SwissSettingsPatch(ApiModel):
    """The Swiss settings the arbiter may change after creation, each as a whole list
    (docs/rules/swiss.md#forbidden-pairs-acceleration-and-byes); the others (rules,
    colour lot, JCA options) are fixed at creation."""

    forbidden_pairs: list[ForbiddenPair] | None = Field(
        default=None, max_length=10_000, description="Dutch: pairs that must not meet."
    )
    acceleration: Literal["baku"] | None = Field(
        default=None, description="Dutch: `baku` or null; before round 1 is paired only."
    )
    byes: list[AnnouncedBye] | None = Field(
        default=None,
        max_length=10_000,
        description="Byes announced for coming rounds; those of paired rounds stay.",
    )


class TournamentSettingsPatch(ApiModel):
    """Settings to change; fields left out stay as they are. `schedule`, `tiebreaks` and
    `time_control` may be null (no schedule, the system's tie-breaks, no time
    control). `swiss` changes the fields it names (forbidden pairs, acceleration,
    announced byes). Anything else (system, rounds, points, the other options) is fixed
    at creation."""

    name: Name | None = None
    schedule: list[datetime] | None = Field(
        default=None, max_length=100, description="Start time of each round, in played order."
    )
    tiebreaks: list[str] | None = Field(
        default=None, max_length=20, description="Tie-break order (FIDE C.07 codes)."
    )
    time_control: TimeControl | None = None
    visibility: Visibility | None = None
    publish_personal_data: bool | None = None
    prizes: PrizeSettings | None = Field(
        default=None, description="Prize lists and tie rule (docs/rules/prizes.md); null: none."
    )
    norms: NormSettingsIn | None = Field(
        default=None,
        description="The event's kind, format and host federation for the norm rules "
        "(docs/rules/ratings.md#the-events-kind); null: an ordinary event, read strictly.",
    )
    city: City | None = None
    federation: Federation | None = None
    officials: Officials | None = Field(
        default=None, description="The arbiters the rating report names; null: none."
    )
    swiss: SwissSettingsPatch | None = Field(
        default=None,
        description="A Swiss tournament's forbidden pairs, acceleration and announced byes.",
    )

    @model_validator(mode="after")
    def _check_swiss_lists(self) -> Self:
        if self.swiss is not None:
            check_swiss_lists(self.swiss.forbidden_pairs or [], self.swiss.byes or [])
        return self

    @model_validator(mode="before")
    @classmethod
    def _only_safe_settings(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in data:
                if key not in SETTINGS_FIELDS:
                    raise ValueError(
                        f"{key}: cannot be changed after creation; PATCH changes "
                        + ", ".join(SETTINGS_FIELDS)
                    )
            for key in _REQUIRED & {k for k, v in data.items() if v is None}:
                raise ValueError(f"{key}: may not be null")
            if not data:
                raise ValueError("body: name at least one setting to change")
        return data


class TournamentSettingsChanged(TournamentPublic):
    """The tournament after the change; a tournament made private here gets its viewer
    token (shown only this once)."""

    viewer_token: str | None = None


Expiry = Field(
    default=None,
    description="When the new token stops working (with a timezone); none: never.",
)


class TokenRotate(ApiModel):
    """Which token to replace: the organizer's own, the viewer token, a player's (by
    start number) or a team captain's (by team: docs/teams.md). The old token stops
    working at once."""

    role: Literal["organizer", "viewer", "player", "captain"]
    start_number: StrictInt | None = Field(default=None, ge=1, le=100_000)
    team: StrictInt | None = Field(default=None, ge=1, le=10_000)
    expires_at: AwareDatetime | None = Expiry

    @model_validator(mode="after")
    def _names_the_player(self) -> Self:
        _names_whose(self.role, self.start_number, self.team)
        return self


class TokenRevoke(ApiModel):
    """Which token to withdraw: the viewer token, a player's (a lost phone) or a team
    captain's. The organizer's own token can only be rotated."""

    role: Literal["viewer", "player", "captain"]
    start_number: StrictInt | None = Field(default=None, ge=1, le=100_000)
    team: StrictInt | None = Field(default=None, ge=1, le=10_000)

    @model_validator(mode="after")
    def _names_the_player(self) -> Self:
        _names_whose(self.role, self.start_number, self.team)
        return self

    def number(self) -> int | None:
        """The player's start number or the captain's team, as the role needs."""
        return self.team if self.role == "captain" else self.start_number


def _names_whose(role: str, start_number: int | None, team: int | None) -> None:
    """`start_number` for a player's token only, `team` for a captain's only."""
    if (role == "player") != (start_number is not None):
        raise ValueError("start_number: give it for a player's token, and only then")
    if (role == "captain") != (team is not None):
        raise ValueError("team: give it for a team captain's token, and only then")


class BridgeTokenRotate(ApiModel):
    """Which token of a bridge event to replace: the organizer's, the viewer token, or
    a table's (by number)."""

    role: Literal["organizer", "viewer", "table"]
    table: StrictInt | None = Field(default=None, ge=1, le=10_000)
    expires_at: AwareDatetime | None = Expiry

    @model_validator(mode="after")
    def _names_the_table(self) -> Self:
        if (self.role == "table") != (self.table is not None):
            raise ValueError("table: give it for a table's token, and only then")
        return self


class BridgeTokenRevoke(ApiModel):
    """Which token of a bridge event to withdraw: the viewer token or a table's."""

    role: Literal["viewer", "table"]
    table: StrictInt | None = Field(default=None, ge=1, le=10_000)

    @model_validator(mode="after")
    def _names_the_table(self) -> Self:
        if (self.role == "table") != (self.table is not None):
            raise ValueError("table: give it for a table's token, and only then")
        return self


class TokenIssued(BaseModel):
    """A new token, shown only this once."""

    role: Literal["organizer", "viewer", "player", "table", "captain"]
    start_number: int | None = None
    table: int | None = None
    team: int | None = None
    token: str
    expires_at: datetime | None = None
