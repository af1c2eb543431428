"""Tournament resources."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal, Self

from pydantic import BaseModel, Field, StrictInt, model_validator

from service.api.schemas.common import ApiModel, Name, PointsSettings
from service.api.schemas.norms import NormSettingsIn
from service.api.schemas.officials import City, Federation, Officials
from service.api.schemas.prizes import PrizeSettings
from service.api.schemas.teams import TeamSettings
from service.db.tables import TournamentStatus
from service.engine.systems import SYSTEMS, SystemName
from service.engine.teams.draw import TeamPairingSystem

__all__ = [
    "AnnouncedBye",
    "CaptainToken",
    "FlamparkSettings",
    "ForbiddenPair",
    "PlayerToken",
    "ProgressPremium",
    "SwissSettings",
    "System",
    "TimeControl",
    "TournamentCreate",
    "TournamentCreated",
    "TournamentImported",
    "TournamentPublic",
    "TournamentStarted",
    "Visibility",
    "check_swiss_lists",
]

Visibility = Literal["public", "private"]
PUBLISH_PERSONAL_DATA = Field(
    default=False,
    description="Show players' FIDE id, federation, sex, birth year and identity to "
    "everyone (otherwise only to the organizer).",
)

System = SystemName
"""The tournament systems of the registry (engine/systems.py)."""
RoundKind = Literal["basic", "x2", "x4", "x8"]


class TimeControl(ApiModel):
    """The tournament's time control (FLAMPARK's time shortening is measured on it)."""

    base_minutes: StrictInt = Field(ge=1, le=600)
    increment_seconds: StrictInt = Field(default=0, ge=0, le=600)


class ProgressPremium(ApiModel):
    """FLAMPARK progress premium: PP = dR x (R - wB) x wA, summing to the pool."""

    pool: Decimal = Field(gt=0, le=Decimal("100000000"), decimal_places=2)
    wb: StrictInt = Field(ge=800, le=1000, description="Own-rating weight wB, 800..1000.")


StartNumber = Annotated[StrictInt, Field(ge=1, le=100_000)]
ForbiddenPair = Annotated[list[StartNumber], Field(min_length=2, max_length=2)]


class AnnouncedBye(ApiModel):
    """A bye a player asked for ahead of a coming round (TRF-26 240; FIDE C.04.A:
    requested byes); the same types as `POST /rounds` takes."""

    player: StartNumber = Field(description="Start number")
    round: StrictInt = Field(ge=1, le=100)
    type: Literal["half-point", "zero-point", "full-point"]


class SwissSettings(ApiModel):
    """Options of the Swiss systems (FIDE Dutch C.04.3; the JCA Swiss rules), and the
    arbiter's pairing settings (docs/rules/swiss.md#forbidden-pairs-acceleration-and-byes):
    forbidden pairs (TRF-26 260), Baku acceleration (FIDE C.04.5.1; TRF-26 250) and
    byes announced for coming rounds (TRF-26 240)."""

    rules: Literal["dutch-2026", "dutch-2017"] = Field(
        default="dutch-2026",
        description="FIDE Dutch edition: applied from 1 Feb 2026 (default), or 2017.",
    )
    initial_colour: Literal["white", "black"] | None = Field(
        default=None,
        description="Colour of the top player in round 1 (TRF XXC); by seeded lot if unset.",
    )
    seed: StrictInt | None = Field(
        default=None, description="Seed of the lots (initial colour, JCA colours)."
    )
    reverse_from_middle: bool = Field(
        default=False, description="JCA: pair the lower score groups from the bottom up."
    )
    handicap_split: StrictInt | None = Field(
        default=None, ge=1, description="JCA handicap: players in group A (+1 pairing point)."
    )
    forbidden_pairs: list[ForbiddenPair] = Field(
        default_factory=list,
        max_length=10_000,
        description="Dutch: pairs of start numbers that must not meet (TRF-26 260).",
    )
    acceleration: Literal["baku"] | None = Field(
        default=None,
        description="Dutch: `baku`, the Baku acceleration (FIDE C.04.5.1; TRF-26 250).",
    )
    byes: list[AnnouncedBye] = Field(
        default_factory=list,
        max_length=10_000,
        description="Byes announced for coming rounds (TRF-26 240).",
    )


def check_swiss_lists(pairs: list[list[int]], byes: list[AnnouncedBye]) -> None:
    """Forbidden pairs of two distinct players; one announced bye per player and round."""
    for index, (a, b) in enumerate(pairs):
        if a == b:
            raise ValueError(
                f"swiss.forbidden_pairs.{index}: a pair is two different players ({a} twice)"
            )
    seen: set[tuple[int, int]] = set()
    for index, bye in enumerate(byes):
        if (bye.player, bye.round) in seen:
            raise ValueError(
                f"swiss.byes.{index}: player {bye.player} already has a bye in round {bye.round}"
            )
        seen.add((bye.player, bye.round))


def check_swiss_for_system(swiss: SwissSettings, system: str, rounds: int | None) -> None:
    """Forbidden pairs and acceleration steer the Dutch engine only; a bye's round is
    one of the tournament's (raised from the body's own validator, so that the problem
    names the field)."""
    check_swiss_lists(swiss.forbidden_pairs, swiss.byes)
    if system != SystemName.SWISS_DUTCH:
        if swiss.forbidden_pairs:
            raise ValueError("swiss.forbidden_pairs: only the Dutch system takes forbidden pairs")
        if swiss.acceleration is not None:
            raise ValueError("swiss.acceleration: only the Dutch system is accelerated")
    for index, bye in enumerate(swiss.byes):
        if rounds is not None and bye.round > rounds:
            raise ValueError(
                f"swiss.byes.{index}.round: round {bye.round} of a {rounds}-round tournament"
            )


class FlamparkSettings(ApiModel):
    """FLAMPARK options (Formuła FLAMPARK)."""

    kinds: list[RoundKind] | None = Field(
        default=None, description="Kind of each computed round; all basic by default."
    )
    round_order: list[StrictInt] | None = Field(
        default=None, description="Computed round numbers in played order."
    )
    variant: Literal["individual", "team", "group"] = "individual"
    rematch_byes: bool = Field(
        default=False, description="Players sitting out the same round play each other."
    )
    progress_premium: ProgressPremium | None = None


class TournamentCreate(ApiModel):
    """What an organizer sends to create a tournament."""

    name: Name
    system: System | TeamPairingSystem = Field(
        description="An individual system, or a team system (`team-swiss`, "
        "`team-round-robin`; docs/teams.md) with its `team` settings."
    )
    rounds: StrictInt | None = Field(
        default=None,
        ge=1,
        le=100,
        description="Total rounds; computed from the player count for round-robins.",
    )
    points: PointsSettings = Field(default_factory=PointsSettings)
    tiebreaks: list[str] | None = Field(
        default=None,
        max_length=20,
        description="Tie-break order (FIDE C.07 codes); the system's default when omitted.",
    )
    schedule: list[datetime] | None = Field(
        default=None, max_length=100, description="Start time of each round, in played order."
    )
    time_control: TimeControl | None = None
    flampark: FlamparkSettings | None = None
    swiss: SwissSettings | None = None
    team: TeamSettings | None = Field(
        default=None, description="A team system's settings (defaults when omitted)."
    )
    visibility: Visibility = Field(
        default="public",
        description="`private`: every read (and the live channel) needs a token of the "
        "tournament; a viewer token for spectators comes with the response, once.",
    )
    publish_personal_data: bool = PUBLISH_PERSONAL_DATA
    prizes: PrizeSettings | None = Field(
        default=None, description="Prize lists and how ties share them (docs/rules/prizes.md)."
    )
    city: City | None = None
    federation: Federation | None = None
    officials: Officials | None = Field(
        default=None, description="The arbiters the rating report names (TRF-26 102, 112)."
    )
    norms: NormSettingsIn | None = Field(
        default=None,
        description="The event's kind, format and host federation for the norm rules "
        "(docs/rules/ratings.md#the-events-kind); null: an ordinary event, read strictly.",
    )

    @model_validator(mode="after")
    def _check_system_options(self) -> Self:
        rounds = self.rounds
        if isinstance(self.system, TeamPairingSystem):
            return self._check_team_options()
        if self.team is not None:
            raise ValueError("team: settings only for systems team-swiss or team-round-robin")
        spec = SYSTEMS[self.system]
        if spec.needs_round_count and rounds is None:
            raise ValueError(f"rounds: a {spec.title} tournament needs its number of rounds")
        for key, options in (("flampark", self.flampark), ("swiss", self.swiss)):
            if options is not None and spec.options_key != key:
                owners = [n.value for n, s in SYSTEMS.items() if s.options_key == key]
                raise ValueError(f"{key}: options only for system {' or '.join(owners)}")
        if self.system == SystemName.FLAMPARK:
            assert rounds is not None  # needs_round_count
            options = self.flampark or FlamparkSettings()
            if options.kinds is not None and len(options.kinds) != rounds:
                raise ValueError(
                    f"flampark.kinds: {len(options.kinds)} kinds given for {rounds} rounds"
                )
            order = options.round_order
            if order is not None and sorted(order) != list(range(1, rounds + 1)):
                raise ValueError(
                    f"flampark.round_order: must be the numbers 1..{rounds} in some order"
                )
        if self.schedule is not None and rounds is not None and len(self.schedule) > rounds:
            raise ValueError(f"schedule: {len(self.schedule)} start times for {rounds} rounds")
        if self.swiss is not None:
            check_swiss_for_system(self.swiss, self.system, rounds)
        return self

    def _check_team_options(self) -> Self:
        """A team system: no individual system's options; a team Swiss needs its rounds
        (a round-robin's follow from the teams); `double` is a round-robin's."""
        for key in ("flampark", "swiss"):
            if getattr(self, key) is not None:
                raise ValueError(f"{key}: options not for a team system")
        if self.team is None:
            self.team = TeamSettings()
        if self.system == TeamPairingSystem.SWISS:
            if self.rounds is None:
                raise ValueError("rounds: a team Swiss needs its number of rounds")
            if self.team.double:
                raise ValueError("team.double: only a team round-robin goes twice around")
        elif self.team.acceleration is not None:
            raise ValueError("team.acceleration: only a team Swiss is accelerated")
        elif self.rounds is not None:
            raise ValueError("rounds: a team round-robin's rounds follow from the teams")
        rounds = self.rounds
        if self.schedule is not None and rounds is not None and len(self.schedule) > rounds:
            raise ValueError(f"schedule: {len(self.schedule)} start times for {rounds} rounds")
        return self


class TournamentPublic(BaseModel):
    """A tournament as anyone may see it."""

    id: str
    name: str
    system: str
    status: TournamentStatus
    rounds: int | None
    current_round: int
    points: PointsSettings
    tiebreaks: list[str]
    players: int
    created_at: datetime
    schedule: list[datetime] | None = None
    time_control: TimeControl | None = None
    flampark: FlamparkSettings | None = None
    swiss: SwissSettings | None = None
    team: TeamSettings | None = None
    visibility: Visibility = "public"
    publish_personal_data: bool = False
    prizes: PrizeSettings | None = None
    norms: NormSettingsIn | None = None
    city: str | None = None
    federation: str | None = None
    officials: Officials | None = None


class TournamentCreated(TournamentPublic):
    """The creation response: the organizer token (and a private tournament's viewer
    token) are shown only this once."""

    organizer_token: str
    viewer_token: str | None = Field(
        default=None, description="A private tournament's read-only token, shown once."
    )


class PlayerToken(BaseModel):
    """A player's token for reporting the results of their own games."""

    start_number: int
    name: str
    token: str


class TournamentStarted(TournamentPublic):
    """The start-list-closing response: every player's token, shown only this once."""

    player_tokens: list[PlayerToken]
    warnings: list[str] = Field(default_factory=list)


class CaptainToken(BaseModel):
    """A team captain's token (team tournaments: docs/teams.md)."""

    team: int
    name: str
    token: str


class TournamentImported(TournamentStarted):
    """The import response: organizer and player tokens, shown only this once."""

    organizer_token: str
    captain_tokens: list[CaptainToken] | None = Field(
        default=None, description="A team file: each team captain's token, shown once."
    )
