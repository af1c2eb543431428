"""The team event: teams, rounds of matches, board results, byes and the scoring.

FIDE C.07 Art. 11-13 score a team competition on two levels: each board gives game
points (1, ½, 0), a match gives match points by comparing the two teams' game points
(win, draw, loss; 2/1/0 or 3/1/0 as the regulations say). Everything here is immutable
and free of I/O; teams are identified by their pairing number, players by their start
number (the TRF 001 record).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from service.engine.model import Colour, GameResult, Outcome

__all__ = [
    "EMPTY_SEAT",
    "Award",
    "Board",
    "Match",
    "MatchForfeit",
    "Team",
    "TeamEvent",
    "TeamRound",
    "TeamScoring",
    "TeamSystem",
    "board_points",
]

_HALF = Fraction(1, 2)


class TeamSystem(enum.StrEnum):
    """How the event is paired: it decides which tie-breaks apply (C.07 Art. 8 note:
    no Buchholz in a round-robin) and how Direct Encounter reads unplayed meetings."""

    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its pairing number, name and players in board order (reserves last)."""

    number: int
    name: str
    players: tuple[int, ...]
    """Start numbers in board order; a team fields its available players in this
    order, so a reserve moves up when a regular sits out."""
    nickname: str = ""
    strength: int | None = None
    """Mean rating of the top boards, as the TRF 310 record carries it."""


EMPTY_SEAT = 0
"""Player number of a board left empty (see `Board`)."""


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a match: the home and away players, who had White, the result.

    A player number of `EMPTY_SEAT` (0) is a board the team left empty: the other side
    won it by default (a `0000 - +` cell beside the match in a TRF file), result `+-`
    or `-+` for the side that was there."""

    board: int
    home_player: int
    away_player: int
    home_colour: Colour
    result: GameResult | None
    """None: not played yet."""

    def outcome(self, home: bool) -> Outcome | None:
        """The board's outcome for the home (or away) player."""
        if self.result is None:
            return None
        colour = self.home_colour if home else self.home_colour.other
        return self.result.outcome(colour)


def board_points(outcome: Outcome | None) -> Fraction:
    """Game points of one board (C.07 Art. 11): a win, played or by forfeit, is 1; a
    draw ½; a loss, a forfeit loss and either side of a double forfeit 0."""
    if outcome in (Outcome.WIN, Outcome.FORFEIT_WIN):
        return Fraction(1)
    if outcome is Outcome.DRAW:
        return _HALF
    return Fraction(0)


class MatchForfeit(enum.StrEnum):
    """A whole match not played (TRF-26 record 330): who is given the win."""

    HOME_WINS = "+-"
    AWAY_WINS = "-+"
    DOUBLE = "--"


@dataclass(frozen=True, slots=True)
class Match:
    """Two teams' match in one round: board by board, or forfeited as a whole."""

    home: int
    """The first-named team (its board 1 has the colour record 352 gives)."""
    away: int
    boards: tuple[Board, ...] = ()
    forfeit: MatchForfeit | None = None

    def teams(self) -> tuple[int, int]:
        """(home, away)."""
        return self.home, self.away


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One round: its matches, the pairing-allocated bye and teams left unpaired."""

    number: int
    matches: tuple[Match, ...]
    pab: int | None = None
    """The team given the pairing-allocated bye (C.07 16.2.1), if any."""
    unpaired: tuple[int, ...] = ()
    """Teams without an opponent and without points: the idle team of a round-robin
    with an odd number of teams, or a team absent from the round."""
    awarded: tuple[Award, ...] = ()
    """Points the organizer gave teams that had no match this round (an absence, a late
    team's missed round; TRF-26 299); a team listed here that played is not affected."""


@dataclass(frozen=True, slots=True)
class Award:
    """Match and game points given to a team without a match (TRF-26 299: abnormal
    assignment points; docs/teams.md#absent-teams)."""

    team: int
    match_points: Fraction
    game_points: Fraction


@dataclass(frozen=True, slots=True)
class TeamScoring:
    """Match and game points (C.07 Art. 11; TRF-26 records 362 and 320)."""

    boards: int
    match_win: Fraction = Fraction(2)
    match_draw: Fraction = Fraction(1)
    match_loss: Fraction = Fraction(0)
    pab_match_points: Fraction | None = None
    """Match points of the pairing-allocated bye; None: those of a win."""
    pab_game_points: Fraction | None = None
    """Game points of the pairing-allocated bye; None: every board won (`boards`)."""

    @property
    def pab_match(self) -> Fraction:
        """Match points a PAB gives."""
        return self.match_win if self.pab_match_points is None else self.pab_match_points

    @property
    def pab_game(self) -> Fraction:
        """Game points a PAB gives."""
        return Fraction(self.boards) if self.pab_game_points is None else self.pab_game_points

    @property
    def game_draw(self) -> Fraction:
        """Game points of a drawn match: half the boards (C.07 16.4.2 cap)."""
        return Fraction(self.boards, 2)


@dataclass(frozen=True, slots=True)
class TeamEvent:
    """A team competition: teams, rounds and how it is scored."""

    teams: tuple[Team, ...]
    rounds: tuple[TeamRound, ...]
    scoring: TeamScoring
    system: TeamSystem = TeamSystem.SWISS
    total_rounds: int | None = None
    """Rounds planned (TRF 142); None: the rounds given."""
    name: str = ""

    @property
    def planned_rounds(self) -> int:
        """Rounds of the event: the planned number, else the rounds given."""
        return self.total_rounds if self.total_rounds is not None else len(self.rounds)

    def team(self, number: int) -> Team:
        """The team with pairing number `number`."""
        for team in self.teams:
            if team.number == number:
                return team
        raise KeyError(number)
