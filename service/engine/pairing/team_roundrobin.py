"""Team round-robins on the Berger tables (FIDE C.05 Annex 1; docs/rules/team-swiss.md).

The schedule is the individual one (`roundrobin.round_robin_rounds`) with a team face:
each game becomes a match whose first-named team is the table's "white" (the team with
White on board 1, C.04.6 art. 1.6.1 reading; its other boards follow
`team_swiss.board_colours`). With an odd count the team drawn against the dummy is
free that round. A double round-robin keeps the individual reading: the first cycle
swaps its last two rounds, the second cycle repeats the Berger rounds with every
match's colours reversed.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.engine.pairing.roundrobin import round_robin_rounds

__all__ = ["TeamRoundRobinRound", "team_round_robin"]


@dataclass(frozen=True, slots=True)
class TeamRoundRobinRound:
    round: int
    matches: tuple[tuple[int, int], ...]
    """(first-named team, second team) by table, the first-named with White on board 1."""
    free: int | None = None
    """The team without a match (odd counts)."""


def team_round_robin(team_count: int, *, double: bool = False) -> tuple[TeamRoundRobinRound, ...]:
    """Every round for teams numbered 1..team_count (raises `PairingError` below 2)."""
    result = []
    for rnd in round_robin_rounds(team_count, double=double):
        matches = tuple((g.white, g.black) for g in rnd.games)
        free = rnd.byes[0].player if rnd.byes else None
        result.append(TeamRoundRobinRound(rnd.number, matches, free))
    return tuple(result)
