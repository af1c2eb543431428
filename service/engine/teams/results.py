"""Each team's result in each round: match points, game points and the board points
(FIDE C.07 Art. 11-12), the one table every team tie-break reads.

Readings taken:

* A match is won by the team with more game points (C.07 Art. 11); equal game points
  draw it.
* Board forfeits count as ordinary wins and losses of the board (1 and 0); a double
  forfeit gives both boards 0.
* A pairing-allocated bye gives the match points and game points `TeamScoring` says,
  and counts as a win on every board for the board tie-breaks (C.07 Art. 12: "game
  points ... same as those assigned to a standard win").
* A match forfeited as a whole (TRF-26 record 330) gives the winner a won match and
  every board won, the loser nothing; a double forfeit gives both nothing.
* An unpaired team (the idle team of a round-robin with an odd number of teams, an
  absent team) has no opponent and scores nothing, unless the organizer gave it points
  (an absence, a late team's missed round: TRF-26 299); its boards stay at 0.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from service.engine.teams.model import Match, MatchForfeit, TeamEvent, TeamScoring, board_points

__all__ = ["RoundKind", "TeamRoundResult", "TeamTable", "match_points", "team_table"]


class RoundKind(enum.StrEnum):
    """What a team's round was."""

    PLAYED = "played"
    """A match with at least one board (board forfeits included)."""
    PAB = "pab"
    """The pairing-allocated bye."""
    FORFEIT_WIN = "forfeit-win"
    """A whole match won by forfeit (record 330)."""
    FORFEIT_LOSS = "forfeit-loss"
    """A whole match lost by forfeit, or both sides forfeited."""
    UNPAIRED = "unpaired"
    """No opponent, no points."""


@dataclass(frozen=True, slots=True)
class TeamRoundResult:
    """One team's round."""

    round: int
    kind: RoundKind
    opponent: int | None
    match_points: Fraction
    game_points: Fraction
    boards: tuple[Fraction, ...]
    """Game points per board, board 1 first (a PAB: 1 on every board)."""
    pending: bool = False
    """A board has no result yet: the match is not decided."""

    @property
    def has_opponent(self) -> bool:
        """A match was paired (played or forfeited)."""
        return self.opponent is not None


def match_points(own: Fraction, other: Fraction, scoring: TeamScoring) -> Fraction:
    """Match points of a team with `own` game points against `other` (C.07 Art. 11)."""
    if own > other:
        return scoring.match_win
    if own == other:
        return scoring.match_draw
    return scoring.match_loss


@dataclass(frozen=True, slots=True)
class TeamTable:
    """Every team's rounds, and its totals."""

    event: TeamEvent
    rounds: Mapping[int, tuple[TeamRoundResult, ...]]

    def match_total(self, team: int) -> Fraction:
        """Final match points (C.07 Art. 11, MPTS)."""
        return sum((r.match_points for r in self.rounds[team]), Fraction(0))

    def game_total(self, team: int) -> Fraction:
        """Final game points (GPTS)."""
        return sum((r.game_points for r in self.rounds[team]), Fraction(0))

    @property
    def numbers(self) -> tuple[int, ...]:
        """Team pairing numbers, ascending."""
        return tuple(sorted(self.rounds))


def _match_results(
    match: Match, round_no: int, scoring: TeamScoring
) -> tuple[TeamRoundResult, TeamRoundResult]:
    boards = scoring.boards
    if match.forfeit is not None:
        full = tuple(Fraction(1) for _ in range(boards))
        empty = tuple(Fraction(0) for _ in range(boards))

        def side(won: bool, opponent: int) -> TeamRoundResult:
            if won:
                return TeamRoundResult(
                    round_no,
                    RoundKind.FORFEIT_WIN,
                    opponent,
                    scoring.match_win,
                    Fraction(boards),
                    full,
                )
            return TeamRoundResult(
                round_no, RoundKind.FORFEIT_LOSS, opponent, scoring.match_loss, Fraction(0), empty
            )

        return (
            side(match.forfeit is MatchForfeit.HOME_WINS, match.away),
            side(match.forfeit is MatchForfeit.AWAY_WINS, match.home),
        )
    home_boards = [Fraction(0)] * boards
    away_boards = [Fraction(0)] * boards
    pending = False
    for board in match.boards:
        pending = pending or board.result is None
        home_boards[board.board - 1] += board_points(board.outcome(home=True))
        away_boards[board.board - 1] += board_points(board.outcome(home=False))
    home_gp, away_gp = sum(home_boards, Fraction(0)), sum(away_boards, Fraction(0))
    home_mp = Fraction(0) if pending else match_points(home_gp, away_gp, scoring)
    away_mp = Fraction(0) if pending else match_points(away_gp, home_gp, scoring)
    return (
        TeamRoundResult(
            round_no, RoundKind.PLAYED, match.away, home_mp, home_gp, tuple(home_boards), pending
        ),
        TeamRoundResult(
            round_no, RoundKind.PLAYED, match.home, away_mp, away_gp, tuple(away_boards), pending
        ),
    )


def team_table(event: TeamEvent) -> TeamTable:
    """Each team's result in every round of `event` (a team in no match, not the PAB
    team and not listed unpaired is unpaired that round)."""
    scoring = event.scoring
    per_team: dict[int, list[TeamRoundResult]] = {t.number: [] for t in event.teams}
    zero = tuple(Fraction(0) for _ in range(scoring.boards))
    for rnd in event.rounds:
        seen: set[int] = set()
        for match in rnd.matches:
            home, away = _match_results(match, rnd.number, scoring)
            per_team[match.home].append(home)
            per_team[match.away].append(away)
            seen.update(match.teams())
        if rnd.pab is not None:
            per_team[rnd.pab].append(
                TeamRoundResult(
                    rnd.number,
                    RoundKind.PAB,
                    None,
                    scoring.pab_match,
                    scoring.pab_game,
                    tuple(Fraction(1) for _ in range(scoring.boards)),
                )
            )
            seen.add(rnd.pab)
        awarded = {a.team: a for a in rnd.awarded}
        for number, results in per_team.items():
            if number not in seen:
                award = awarded.get(number)
                mp, gp = (award.match_points, award.game_points) if award else (0, 0)
                results.append(
                    TeamRoundResult(
                        rnd.number, RoundKind.UNPAIRED, None, Fraction(mp), Fraction(gp), zero
                    )
                )
    return TeamTable(event, {n: tuple(r) for n, r in per_team.items()})
