"""Stateless compute bodies: a whole tournament in JSON (or TRF text)."""

from __future__ import annotations

import enum
from typing import Annotated, Literal, Self

from pydantic import BaseModel, BeforeValidator, Field, StrictInt, model_validator

from service.api.schemas.common import ApiModel, PointsSettings
from service.engine.model import MAX_PLAYER_ROUNDS, ByeKind, GameResult
from service.engine.systems import SystemName

__all__ = [
    "ComputeBye",
    "ComputeGame",
    "ComputePairing",
    "ComputePairingSystem",
    "ComputePlayer",
    "ComputeStandingRow",
    "ComputeStandings",
    "ComputeTeamBoard",
    "ComputeTeamBye",
    "ComputeTeamMatch",
    "ComputeTeamPairing",
    "ComputeTeamStandingRow",
    "ComputeTournament",
    "PairingOut",
    "VarmaPlayer",
    "VarmaRequest",
    "VarmaResponse",
]

PlayerId = StrictInt | str

TournamentSystem = SystemName
"""The tournament systems' names (as `POST /v1/tournaments` takes them; engine/systems.py)."""


class ComputePlayer(ApiModel):
    """A player; the list order is the start-number (pairing-number) order."""

    id: PlayerId
    name: str = Field(default="", max_length=200)
    rating: Annotated[StrictInt, BeforeValidator(lambda v: 0 if v is None else v)] = Field(
        default=0, ge=0, le=4000, description="Rating; null, omitted or 0 = unrated."
    )


class ComputeGame(ApiModel):
    """A game; `result` null while unfinished."""

    round: StrictInt = Field(ge=1, le=1000)
    white: PlayerId
    black: PlayerId
    result: GameResult | None = None


class ComputeBye(ApiModel):
    """A round without an opponent."""

    round: StrictInt = Field(ge=1, le=1000)
    player: PlayerId
    type: ByeKind


class ComputeTournament(ApiModel):
    """A whole tournament for the compute endpoints (nothing is stored)."""

    points: PointsSettings = Field(default_factory=PointsSettings)
    players: list[ComputePlayer] = Field(min_length=1, max_length=20_000)
    games: list[ComputeGame] = Field(default_factory=list, max_length=500_000)
    byes: list[ComputeBye] = Field(default_factory=list, max_length=500_000)
    rounds: StrictInt | None = Field(default=None, ge=1, le=1000, description="Total rounds (XXR).")
    initial_colour: Literal["white", "black"] | None = None
    tiebreaks: list[str] | None = Field(default=None, max_length=20)
    edition: Literal["2026", "2024"] = "2026"
    system: TournamentSystem | None = Field(
        default=None,
        description=(
            "The tournament system: decides how FIDE C.07 counts unplayed rounds "
            "(Swiss systems: art. 16; round-robins: pre-determined pairings, 2026 art. "
            "15.2) and the default tie-breaks. Omitted: inferred from the games."
        ),
    )

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise ValueError("players: player ids must be unique")
        return self

    @model_validator(mode="after")
    def _bounded_span(self) -> Self:
        """Players times the last round named: at most MAX_PLAYER_ROUNDS, as for a TRF
        file (20,000 players and one game in round 1,000 would span 20 million)."""
        last = max(
            max((game.round for game in self.games), default=0),
            max((bye.round for bye in self.byes), default=0),
        )
        span = len(self.players) * last
        if span > MAX_PLAYER_ROUNDS:
            raise ValueError(
                f"games: {len(self.players):,} players over {last:,} rounds span {span:,} "
                f"player-rounds; at most {MAX_PLAYER_ROUNDS:,} are computed"
            )
        return self


class ComputeStandingRow(BaseModel):
    """One row of computed standings."""

    rank: int
    id: PlayerId
    points: float
    tiebreaks: dict[str, float | None] = Field(
        description="Values by code; null where undefined (ARO without a game played)."
    )


class ComputeTeamStandingRow(BaseModel):
    """One team of a team file's standings (FIDE C.07 Art. 11-13; docs/rules/teams.md)."""

    rank: int = Field(description="Shared by teams the tie-breaks leave tied (1, 2, 2, 4).")
    team: int = Field(description="The team's pairing number (TRF-26 record 310).")
    name: str
    match_points: float
    game_points: float
    tiebreaks: dict[str, float] = Field(
        description="Values by team tie-break code, in the order applied (PTS first). "
        "For DE, EDE, TBR and BBE the place they give (0: not separated)."
    )


class StandingsReading(BaseModel):
    """Which reading of FIDE C.07 the standings took, and who decided it."""

    reading: Literal["swiss", "round-robin"] = Field(
        description="How unplayed rounds were counted: Swiss (art. 16) or "
        "pre-determined pairings (2026 art. 15.2)."
    )
    system: str | None = Field(
        description="The tournament system named or declared; null when inferred."
    )
    source: Literal["request", "trf-092", "inferred"] = Field(
        description="The request's `system`, the TRF file's 092 record, or the shape "
        "of the games (only when nothing was said)."
    )


class ComputeStandings(BaseModel):
    """Computed standings. For a TRF-26 team file (310 records) `teams` ranks the teams
    and `tiebreaks` is the team list; `rows` still ranks the players by their own games
    (the 001 records, with `player_tiebreaks`, the reading's individual defaults)."""

    tiebreaks: list[str] = Field(
        description="The codes applied: the request's, else (a team file) its 212 record, "
        "else the system's defaults."
    )
    edition: str
    reading: StandingsReading
    rows: list[ComputeStandingRow]
    explanation: dict[str, object] | None = None
    teams: list[ComputeTeamStandingRow] | None = Field(
        default=None,
        description="A team file only: the teams ranked by match points and `tiebreaks` "
        "(team codes such as MPVGP, EDE, EMGSB, BH:MP, BC; C.07 2026). Null otherwise.",
    )
    team_system: Literal["swiss", "round-robin"] | None = Field(
        default=None,
        description="A team file only: how the team tie-breaks read it (the request's "
        "`system`, else records 192/092). Null otherwise.",
    )
    player_tiebreaks: list[str] | None = Field(
        default=None,
        description="A team file only: the individual codes of `rows` (the reading's "
        "defaults; the request's list applies to the teams). Null otherwise.",
    )


class PairingOut(BaseModel):
    """A game of a computed pairing, players by id (start number for TRF input)."""

    table: int
    white: PlayerId
    black: PlayerId


class ComputePairing(BaseModel):
    """The next round's pairing (the `arbiter pair` JSON shape: docs/cli.md)."""

    round: int
    pairings: list[PairingOut]
    byes: list[dict[str, PlayerId | str]]
    notes: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


class ComputePairingSystem(enum.StrEnum):
    """The systems `POST /v1/compute/pairings` pairs: the individual next-round systems
    and, for a TRF-26 team file, the team Swiss (FIDE C.04.6) and the team round-robin
    (Berger tables)."""

    DUTCH = "dutch"
    JCA = "jca"
    FLAMPARK = "flampark"
    TEAM_SWISS = "team-swiss"
    TEAM_ROUND_ROBIN = "team-round-robin"


class ComputeTeamBoard(BaseModel):
    """One board of a team match: the players with White and Black (start numbers from
    the teams' lineups, board k = the k-th player of the 310 record; null when a lineup
    is shorter than the boards)."""

    board: int
    white: int | None
    black: int | None


class ComputeTeamMatch(BaseModel):
    """A team match: `home` is the first-named team, with White on board 1."""

    match: int = Field(description="The table (match) number, in C.04.6 art. 4 order.")
    home: int = Field(description="Pairing number of the first-named team.")
    away: int
    boards: list[ComputeTeamBoard]


class ComputeTeamBye(BaseModel):
    """A team without a match: the team Swiss's pairing-allocated bye, or the free team
    of a round-robin with an odd number of teams."""

    team: int
    type: Literal["pairing-allocated", "free"]


class ComputeTeamPairing(BaseModel):
    """The next round of a team file (the `arbiter pair` JSON shape for teams)."""

    round: int
    system: Literal["team-swiss", "team-round-robin"]
    matches: list[ComputeTeamMatch]
    byes: list[ComputeTeamBye]
    notes: list[str] = Field(default_factory=list)


class VarmaPlayer(ApiModel):
    """A round-robin entrant with a federation."""

    id: str = Field(min_length=1, max_length=64)
    federation: str = Field(pattern=r"^[A-Z]{3}$")


class VarmaRequest(ApiModel):
    """A Varma draw (FIDE C.05 Annex 2): 9 to 24 players."""

    players: list[VarmaPlayer] = Field(min_length=9, max_length=24)
    seed: StrictInt = Field(description="Seed of the draw: the same seed gives the same numbers.")


class VarmaResponse(BaseModel):
    """Start numbers drawn, and the sets used."""

    start_numbers: dict[str, int]
    sets: dict[str, list[int]]
