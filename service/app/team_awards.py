"""Points the organizer gives a team for a round it has no match in, an absence or a
late team's missed round (docs/teams.md#absent-teams): at most a won match's match
points and every board's game point (FIDE C.07 Art. 11), in halves."""

from __future__ import annotations

from fractions import Fraction

from service.db.tournament_config import TeamOptions
from service.errors import InvalidInput

__all__ = ["check_award", "points_of"]


def points_of(match_points: float, game_points: float) -> tuple[Fraction, Fraction]:
    """The body's numbers (multiples of 0.5, checked by the schema) as fractions."""
    return Fraction(match_points).limit_denominator(2), Fraction(game_points).limit_denominator(2)


def check_award(options: TeamOptions, points: tuple[Fraction, Fraction], prefix: str = "") -> None:
    """Refused (422 naming the field): more than a won match or than the boards give."""
    match_points, game_points = points
    if match_points > Fraction(options.match_win):
        raise InvalidInput(
            f"at most {float(options.match_win):g} match points (a won match)",
            field=f"{prefix}match_points",
        )
    if game_points > options.boards:
        raise InvalidInput(
            f"at most {options.boards} game points (one a board)", field=f"{prefix}game_points"
        )
