"""The Baku acceleration for a team Swiss (FIDE C.04.5.1 read for teams; C.04.6 pairs
on the primary score, art. 1.2).

Reading: C.04.5.1 is written for players scoring 1 / ½ / 0. For teams, group A is the
first 2 x ceil(n / 4) team pairing numbers of the field paired in round 1 (n teams; a
late team takes a higher number and joins group B); the accelerated rounds are the
first half of the rounds, rounded up; group A gets a won match's points in the first
half of those (rounded up) and a drawn match's in the others: the match points of a
win (draw), and as game points every board (half the boards), which is what TRF-26 250
records carry for a team (match points, game points). The virtual points only enter
the pairing score; the standings never see them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil

from service.engine.pairing.team_swiss.model import TeamState
from service.engine.teams.model import TeamEvent, TeamScoring
from service.engine.teams.pairing_input import present_teams

__all__ = [
    "TeamAcceleration",
    "accelerated_states",
    "event_baku",
    "record_250",
    "team_baku",
]


@dataclass(frozen=True, slots=True)
class TeamAcceleration:
    """Virtual points for teams first..last in rounds first_round..last_round (a TRF-26
    250 record for teams)."""

    first_round: int
    last_round: int
    first_team: int
    last_team: int
    match_points: Fraction
    game_points: Fraction


def team_baku(teams: int, rounds: int, scoring: TeamScoring) -> tuple[TeamAcceleration, ...]:
    """The Baku acceleration of a field of `teams` teams over `rounds` rounds (see the
    module's reading)."""
    group_a = min(2 * ceil(teams / 4), teams)
    accelerated = ceil(rounds / 2)
    full = ceil(accelerated / 2)
    if group_a < 1 or accelerated < 1:
        return ()
    boards = Fraction(scoring.boards)
    found = [TeamAcceleration(1, full, 1, group_a, scoring.match_win, boards)]
    if accelerated > full:
        found.append(
            TeamAcceleration(full + 1, accelerated, 1, group_a, scoring.match_draw, boards / 2)
        )
    return tuple(found)


def accelerated_states(
    states: Sequence[TeamState], records: Sequence[TeamAcceleration], round_number: int
) -> list[TeamState]:
    """The states with the virtual points of `round_number` added to their scores."""
    out = []
    for state in states:
        mp = gp = Fraction(0)
        for record in records:
            in_round = record.first_round <= round_number <= record.last_round
            if in_round and record.first_team <= state.number <= record.last_team:
                mp += record.match_points
                gp += record.game_points
        if mp or gp:
            state = dataclasses.replace(
                state,
                match_points=state.match_points + float(mp),
                game_points=state.game_points + float(gp),
            )
        out.append(state)
    return out


def event_baku(event: TeamEvent, rounds: int) -> tuple[TeamAcceleration, ...]:
    """The Baku acceleration of `event` over `rounds` rounds: group A is drawn from the
    teams of round 1 (every team before it is paired; a late team takes a higher number
    and joins group B), as the individual Swiss reads C.04.5.1."""
    field = len(event.teams)
    if event.rounds:
        first = event.rounds[0]
        field = len(present_teams(first) | set(first.unpaired))
    return team_baku(field, rounds, event.scoring)


def record_250(record: TeamAcceleration) -> tuple[str, str]:
    """TRF-26 250 for teams (code, rest): match points (cols 5-8), game points (10-13),
    rounds first..last (15-17, 19-21), team numbers first..last (23-26, 28-31)."""
    return (
        "250",
        f"{_points(record.match_points):>4} {_points(record.game_points):>4} "
        f"{record.first_round:>3} {record.last_round:>3} "
        f"{record.first_team:>4} {record.last_team:>4}",
    )


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}" if (value * 2).denominator == 1 else f"{float(value):.2f}"
