"""The team Baku acceleration (FIDE C.04.5.1 read for teams; docs/teams.md#baku-acceleration)."""

from __future__ import annotations

from fractions import Fraction

from service.engine.pairing.team_swiss.model import TeamState
from service.engine.teams.baku import TeamAcceleration, accelerated_states, team_baku
from service.engine.teams.model import TeamScoring


def test_eight_teams_five_rounds() -> None:
    """Group A: 2 x ceil(8 / 4) = teams 1-4; accelerated rounds ceil(5 / 2) = 3, the
    first ceil(3 / 2) = 2 with a won match (2 MP, all 4 boards), round 3 a drawn one
    (1 MP, 2 boards)."""
    assert team_baku(8, 5, TeamScoring(boards=4)) == (
        TeamAcceleration(1, 2, 1, 4, Fraction(2), Fraction(4)),
        TeamAcceleration(3, 3, 1, 4, Fraction(1), Fraction(2)),
    )


def test_the_match_points_of_the_settings_and_small_fields() -> None:
    """3/1/0 match points: a won match is 3; seven teams: group A is 2 x ceil(7 / 4) = 4;
    three teams: 2; two rounds: one accelerated round, a full one."""
    three = TeamScoring(boards=6, match_win=Fraction(3))
    assert team_baku(7, 4, three) == (
        TeamAcceleration(1, 1, 1, 4, Fraction(3), Fraction(6)),
        TeamAcceleration(2, 2, 1, 4, Fraction(1), Fraction(3)),
    )
    assert team_baku(3, 2, TeamScoring(boards=2)) == (
        TeamAcceleration(1, 1, 1, 2, Fraction(2), Fraction(2)),
    )


def test_the_virtual_points_enter_the_pairing_score_of_their_rounds() -> None:
    records = team_baku(8, 5, TeamScoring(boards=4))
    states = [TeamState(1, 2.0, 3.0), TeamState(5, 2.0, 3.0)]
    assert [(s.match_points, s.game_points) for s in accelerated_states(states, records, 3)] == [
        (3.0, 5.0),
        (2.0, 3.0),
    ]
    assert accelerated_states(states, records, 4) == states
