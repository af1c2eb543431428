"""Team tournaments (docs/teams.md): the team settings, teams and their lineups, team
rounds with their boards, and the team standings."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, Field, StrictBool, StrictInt, model_validator

from service.api.schemas.common import ApiModel, Name, Points
from service.api.schemas.players import PlayerCreate, PlayerRegistered
from service.api.schemas.rounds import GameStatus, ResultText

__all__ = [
    "BoardPlayerLine",
    "BoardPrizes",
    "BoardPublic",
    "LineupPublic",
    "LineupSet",
    "MatchForfeitSubmit",
    "MatchPoints",
    "MatchPublic",
    "MissedRounds",
    "TeamAbsencePublic",
    "TeamAbsenceSet",
    "TeamAwardPublic",
    "TeamBye",
    "TeamCreate",
    "TeamEdited",
    "TeamPublic",
    "TeamRegistered",
    "TeamRoundPublic",
    "TeamSettings",
    "TeamStandingRow",
    "TeamUpdate",
]

MAX_BOARDS = 20
MAX_TEAM_PLAYERS = 40


class MatchPoints(ApiModel):
    """Match points of a won, drawn and lost match (C.07 Art. 11: 2/1/0 by default,
    3/1/0 where the regulations say so)."""

    win: Points = 2
    draw: Points = 1
    loss: Points = 0

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if not self.win > self.draw >= self.loss:
            raise ValueError("a win must score more than a draw, a draw at least a loss")
        return self


class TeamSettings(ApiModel):
    """A team tournament's settings (systems `team-swiss`, `team-round-robin`)."""

    boards: StrictInt = Field(default=4, ge=1, le=MAX_BOARDS, description="Boards per match.")
    match_points: MatchPoints = Field(default_factory=MatchPoints)
    ranking: Literal["match-points", "game-points"] = Field(
        default="match-points",
        description="The primary score: pairing (C.04.6 art. 1.2) and the standings' first "
        "tie-break when the organizer names none.",
    )
    colours: Literal["A", "B", "none"] = Field(
        default="A", description="Team Swiss colour preferences (C.04.6 art. 1.7)."
    )
    secondary_for_colours: StrictBool = Field(
        default=True,
        description="Team Swiss: the secondary score decides the first-team of a match "
        "when the primary scores are equal (C.04.6 4.2.2); false where the competition's "
        "rules say not to use it.",
    )
    double: StrictBool = Field(
        default=False, description="Team round-robin only: twice around (colours reversed)."
    )
    pab_match_points: Points | None = Field(
        default=None,
        description="Match points of the pairing-allocated bye (C.07 16.2.1: as the "
        "regulations say); null: those of a win.",
    )
    pab_game_points: Points | None = Field(
        default=None,
        description="Game points of the pairing-allocated bye; null: every board won.",
    )
    acceleration: Literal["baku"] | None = Field(
        default=None,
        description="Team Swiss only: `baku`, the Baku acceleration read for teams (FIDE "
        "C.04.5.1; docs/teams.md#baku-acceleration): virtual match and game points for "
        "the top teams in the first rounds' pairing.",
    )


class MissedRounds(ApiModel):
    """The points a late team gets for each round paired before it entered."""

    match_points: Points = Field(default=0.0, description="At most a won match's.")
    game_points: Points = Field(default=0.0, description="At most the boards.")


class TeamCreate(ApiModel):
    """A team to register: its players in board order, reserves after the boards."""

    name: Name
    players: list[PlayerCreate] = Field(
        min_length=1,
        max_length=MAX_TEAM_PLAYERS,
        description="Board order; at least as many players as the tournament has boards.",
    )
    missed_rounds: MissedRounds | None = Field(
        default=None,
        description="A late team only (organizer): the match and game points it gets for "
        "each round paired before it entered; zero when left out "
        "(docs/teams.md#late-entries).",
    )


class TeamUpdate(ApiModel):
    """A change of a team (docs/teams.md#team-edits); every field optional."""

    name: Name | None = None
    players: list[StrictInt] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_TEAM_PLAYERS,
        description="The team's own player ids in their new board order; a player left "
        "out leaves the list (start list open only). Once the team has been paired the "
        "order is fixed: the current list or nothing.",
    )
    reserves: list[PlayerCreate] = Field(
        default_factory=list,
        max_length=MAX_TEAM_PLAYERS,
        description="New players added at the end of the list (after the start each gets "
        "the next start number and a token, shown once).",
    )


class TeamAbsenceSet(ApiModel):
    """A team announced as not playing a coming team Swiss round."""

    type: Literal["zero-point"] = Field(
        description="`zero-point`: the team is not paired in the round and scores no match "
        "or game point there, unless the organizer states points."
    )
    match_points: Points = Field(
        default=0.0,
        description="Match points the organizer gives the absent team (at most a won "
        "match's); a captain may only announce 0.",
    )
    game_points: Points = Field(
        default=0.0,
        description="Game points the organizer gives the absent team (at most the "
        "boards); a captain may only announce 0.",
    )


class TeamAbsencePublic(BaseModel):
    """An announced absence of a team."""

    round: int
    type: str | None = Field(description="null: no absence announced (taken back).")
    match_points: float = Field(default=0.0, description="The organizer's match points.")
    game_points: float = Field(default=0.0, description="The organizer's game points.")


class TeamAwardPublic(BaseModel):
    """Points the organizer gave a team for a round it has no match in (an absence, a
    late team's missed round; TRF-26 299)."""

    round: int
    match_points: float
    game_points: float


class TeamPublic(BaseModel):
    """A team as anyone may see it."""

    id: int = Field(description="The team's number: 1, 2, 3 in registration order.")
    name: str
    players: list[int] = Field(description="The players' ids in board order.")
    absences: list[TeamAbsencePublic] = Field(
        default_factory=list, description="Rounds the team announced it will not play."
    )
    awarded: list[TeamAwardPublic] = Field(
        default_factory=list,
        description="Points the organizer gave the team for rounds without a match "
        "(absences, a late team's missed rounds).",
    )


class TeamRegistered(TeamPublic):
    """The registration response: the captain's token is shown only this once."""

    captain_token: str
    roster: list[PlayerRegistered] = Field(
        description="The players; a late team's (registered after the start) with their "
        "tokens, shown only this once."
    )


class TeamEdited(TeamPublic):
    """The team after a change, and the reserves it added (with their tokens when added
    after the start)."""

    added: list[PlayerRegistered]


class LineupSet(ApiModel):
    """The players a team fields in a round, board 1 first."""

    players: list[StrictInt] = Field(
        min_length=1,
        max_length=MAX_BOARDS,
        description="Player ids, one per board from board 1, in the team's board order; "
        "fewer than the boards leave the last boards empty, each lost by default.",
    )


class LineupPublic(BaseModel):
    """A team's lineup for a round (the first players of its list unless set)."""

    round: int
    team: int
    players: list[int]
    set: bool = Field(description="False: the default lineup (the first players).")


class BoardPublic(BaseModel):
    """One board of a match: players by start number (a match read from a team file
    lists the boards it was played on, with their colours as played)."""

    board: int
    table: int = Field(description="The board's game table (the individual result route's).")
    white: int = Field(description="Start number; 0: an empty seat (a board won by default).")
    black: int = Field(description="Start number; 0: an empty seat (a board won by default).")
    home: Literal["w", "b"] = Field(
        description="The first-named team's colour on this board: White on the odd boards "
        "as Arbiter seats a match; as played in a match read from a team file."
    )
    result: str | None
    status: GameStatus
    reports: dict[str, str] = Field(default_factory=dict)


class MatchPublic(BaseModel):
    """A match of a team round; `home` is the first-named team (White on board 1)."""

    match: int
    home: int
    away: int
    boards: list[BoardPublic]
    forfeit: str | None = Field(default=None, description="A whole-match forfeit.")
    match_points: list[float] | None = Field(
        default=None, description="[home, away] once every board is confirmed."
    )
    game_points: list[float] = Field(description="[home, away] of the confirmed boards.")


class TeamBye(BaseModel):
    """A team without a match this round."""

    team: int
    type: Literal["pairing-allocated", "free"]


class TeamRoundPublic(BaseModel):
    """One team round's matches and byes."""

    round: int
    matches: list[MatchPublic]
    byes: list[TeamBye]


class MatchForfeitSubmit(ApiModel):
    """A whole match forfeited (organizer): every board gets the forfeit."""

    forfeit: Literal["+-", "-+", "--"] = Field(
        description='"+-": the home team wins, "-+": the away team, "--": both lose.'
    )


class BoardResultSubmit(ApiModel):
    """A board's result, White's score first."""

    result: ResultText


class TeamStandingRow(BaseModel):
    """One team's line (C.07 Art. 11-13)."""

    rank: int = Field(description="Shared by teams the tie-breaks leave tied (1, 2, 2, 4).")
    team: int
    name: str
    match_points: float
    game_points: float
    tiebreaks: dict[str, float] = Field(
        description="Values by team code in the order applied; for DE, EDE, TBR and BBE "
        "the place they give (0: not separated)."
    )


class BoardPlayerLine(BaseModel):
    """A player's score on one board (board prizes)."""

    rank: int
    player: int = Field(description="Start number.")
    name: str
    team: int
    points: float
    games: int = Field(description="Games with a result on this board, forfeits included.")
    percentage: float
    performance: int | None = Field(
        description="Average rating of the opponents faced over the board plus the FIDE "
        "dp of the score over those games (C.07 10.2 table); null without a game played."
    )


class BoardPrizes(BaseModel):
    """The players who sat on one board, best percentage first."""

    board: int
    players: list[BoardPlayerLine]
