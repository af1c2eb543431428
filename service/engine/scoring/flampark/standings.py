"""A FLAMPARK standings table's order and variants (Formuła FLAMPARK; docs/rules/flampark.md).

The table is ordered by PF, players of every distance together; the team variant adds a
team classification, the group variant each player's group ("Warianty").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from service.engine.pairing.flampark.kinds import group_bounds
from service.engine.ranking import shared_places

__all__ = ["TeamLine", "groups_of", "pf_places", "team_of", "team_table"]


def pf_places(pfs: Iterable[tuple[int, Fraction | None]]) -> list[tuple[int, int]]:
    """`(place, start number)` by PF descending, given `(start number, PF)`: equal PF
    share a place; players without a counted game (PF None) come last, each in a place
    of their own."""
    keyed = list(pfs)
    # PF values are fractions with small denominators, so their float images order them
    # exactly; ties are still decided on the exact values below
    keyed.sort(key=lambda item: (item[1] is None, -float(item[1] or 0), item[0]))
    # players without a counted game never share a place: each gets a key of its own
    places = shared_places([object() if pf is None else pf for _, pf in keyed])
    return [(place, number) for place, (number, _) in zip(places, keyed, strict=True)]


def team_of(start_number: int) -> int:
    """The team variant's team of a player: odd start numbers play for team 1, even
    ones for team 2 (every game of the variant is a cross-team game)."""
    return 2 - start_number % 2


def groups_of(numbers: Iterable[int], player_count: int, rounds: int) -> dict[int, int]:
    """The group variant's group (1, 2, ...) of each start number in `numbers`: groups of
    2 x rounds consecutive start numbers (`group_bounds`)."""
    bounds = group_bounds(player_count, rounds)
    return {
        number: next(i for i, (first, size) in enumerate(bounds, 1) if number < first + size)
        for number in numbers
    }


@dataclass(frozen=True, slots=True)
class TeamLine:
    """One team's line of the team classification."""

    rank: int
    team: int
    players: int
    points: float
    """The members' points summed, as the table shows them."""
    pf: float | None
    """The mean of the members' PF (None: no member has a counted game)."""


def team_table(members: Iterable[tuple[int, float, float | None]]) -> list[TeamLine]:
    """The team classification from `(start number, points, PF)` of every player, in the
    table's order: teams by points (equal points share a place, team 1 first)."""
    by_team: dict[int, list[tuple[float, float | None]]] = {1: [], 2: []}
    for number, points, pf in members:
        by_team[team_of(number)].append((points, pf))
    teams: list[tuple[int, int, float, float | None]] = []
    for team, lines in by_team.items():
        results = [pf for _, pf in lines if pf is not None]
        total = sum(points for points, _ in lines)
        teams.append((team, len(lines), total, sum(results) / len(results) if results else None))
    teams.sort(key=lambda line: (-line[2], line[0]))
    places = shared_places([points for _, _, points, _ in teams])
    return [
        TeamLine(place, team, players, points, pf)
        for place, (team, players, points, pf) in zip(places, teams, strict=True)
    ]
