"""Small team events for hand-worked tests.

A match is `(home, away, boards)`: `boards` is one character per board from the home
team's side: `1` won, `=` drawn, `0` lost, `+` won by forfeit, `-` lost by forfeit,
`x` double forfeit. Team t's player on board b has start number 100 t + b; the home
team has White on odd boards.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from service.engine.model import Colour, GameResult
from service.engine.teams.model import (
    Board,
    Match,
    Team,
    TeamEvent,
    TeamRound,
    TeamScoring,
    TeamSystem,
)

_HOME_WHITE = {
    "1": GameResult.WHITE_WINS,
    "=": GameResult.DRAW,
    "0": GameResult.BLACK_WINS,
    "+": GameResult.WHITE_WINS_FORFEIT,
    "-": GameResult.BLACK_WINS_FORFEIT,
    "x": GameResult.DOUBLE_FORFEIT,
}
_HOME_BLACK = {
    "1": GameResult.BLACK_WINS,
    "=": GameResult.DRAW,
    "0": GameResult.WHITE_WINS,
    "+": GameResult.BLACK_WINS_FORFEIT,
    "-": GameResult.WHITE_WINS_FORFEIT,
    "x": GameResult.DOUBLE_FORFEIT,
}

MatchSpec = tuple[int, int, str]


def match(home: int, away: int, boards: str) -> Match:
    """A match from the home team's board results."""
    made = []
    for index, letter in enumerate(boards, 1):
        colour = Colour.WHITE if index % 2 else Colour.BLACK
        table = _HOME_WHITE if colour is Colour.WHITE else _HOME_BLACK
        made.append(Board(index, 100 * home + index, 100 * away + index, colour, table[letter]))
    return Match(home, away, tuple(made))


def event(
    teams: int,
    boards: int,
    rounds: Sequence[Sequence[MatchSpec]],
    *,
    pabs: Sequence[int | None] = (),
    system: TeamSystem = TeamSystem.SWISS,
    win: int = 2,
    pab_match_points: Fraction | None = None,
) -> TeamEvent:
    """A team event: `rounds` of matches, `pabs` the PAB team of each round."""
    made = tuple(
        TeamRound(
            number,
            tuple(match(*spec) for spec in specs),
            pabs[number - 1] if number <= len(pabs) else None,
        )
        for number, specs in enumerate(rounds, 1)
    )
    return TeamEvent(
        teams=tuple(
            Team(t, f"Team {t}", tuple(100 * t + b for b in range(1, boards + 1)))
            for t in range(1, teams + 1)
        ),
        rounds=made,
        scoring=TeamScoring(
            boards=boards, match_win=Fraction(win), pab_match_points=pab_match_points
        ),
        system=system,
    )
