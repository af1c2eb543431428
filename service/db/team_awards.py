"""How `teams.awarded` holds the points the organizer gave a team for a round it has no
match in (an absence, a late team's missed round; docs/teams.md#absent-teams): round
number (as text) -> [match points, game points] as decimal text ("1.5")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from service.engine.teams.model import Award, TeamRound

__all__ = ["award_entry", "awards_by_round", "awards_by_team"]


def award_entry(match_points: Fraction, game_points: Fraction) -> list[str]:
    """The stored form of one round's award."""
    return [str(float(match_points)), str(float(game_points))]


def awards_by_round(
    teams: Iterable[tuple[int, Mapping[str, list[str]] | None]],
) -> dict[int, list[Award]]:
    """Round -> the awards of (team number, stored `awarded`) pairs."""
    found: dict[int, list[Award]] = {}
    for number, awarded in teams:
        for round_text, (mp, gp) in (awarded or {}).items():
            found.setdefault(int(round_text), []).append(Award(number, Fraction(mp), Fraction(gp)))
    return found


def awards_by_team(rounds: Iterable[TeamRound]) -> dict[int, dict[str, list[str]]]:
    """Team -> its stored `awarded`, from rounds carrying awards (an imported file's 299)."""
    found: dict[int, dict[str, list[str]]] = {}
    for rnd in rounds:
        for award in rnd.awarded:
            found.setdefault(award.team, {})[str(rnd.number)] = award_entry(
                award.match_points, award.game_points
            )
    return found
