"""A FLAMPARK table's order and variants (Formuła FLAMPARK, "Warianty";
docs/rules/flampark.md), and the classifications' filter, on plain values."""

from __future__ import annotations

from fractions import Fraction

from service.engine.model import Player
from service.engine.scoring.classification import StandingsFilter
from service.engine.scoring.flampark.standings import (
    TeamLine,
    groups_of,
    pf_places,
    team_of,
    team_table,
)


def test_equal_pf_share_a_place_and_players_without_a_game_come_last_apart() -> None:
    pfs = [(4, None), (1, Fraction(50)), (3, Fraction(120)), (2, Fraction(50)), (5, None)]
    assert pf_places(pfs) == [(1, 3), (2, 1), (2, 2), (4, 4), (5, 5)]


def test_odd_start_numbers_play_for_team_one_and_even_ones_for_team_two() -> None:
    assert [team_of(n) for n in range(1, 6)] == [1, 2, 1, 2, 1]


def test_groups_are_consecutive_start_numbers_and_the_remainder_joins_the_last() -> None:
    groups = groups_of(range(1, 24), 23, 5)  # groups of 2 x 5 players
    assert [groups[n] for n in (1, 10, 11, 20, 21, 23)] == [1, 1, 2, 2, 2, 2]


def test_teams_rank_by_points_and_show_their_members_mean_pf() -> None:
    members = [(1, 2.0, 100.0), (2, 1.5, None), (3, 1.0, 50.0), (4, 1.5, 20.0)]
    assert team_table(members) == [
        TeamLine(rank=1, team=1, players=2, points=3.0, pf=75.0),
        TeamLine(rank=1, team=2, players=2, points=3.0, pf=20.0),
    ]
    assert team_table([(2, 1.0, None)]) == [
        TeamLine(rank=1, team=2, players=1, points=1.0, pf=None),
        TeamLine(rank=2, team=1, players=0, points=0, pf=None),
    ]


def test_a_classification_reads_the_engines_players_as_the_stored_ones() -> None:
    veteran = Player(1, "Ann", 1850, sex="w", birth_year=1950)
    junior = Player(2, "Ben", 0, sex="m", birth_year=2012)
    women_over_1800 = StandingsFilter(rating_min=1800, sex="w")
    assert women_over_1800.as_dict() == {"rating_min": 1800, "sex": "w"}
    assert women_over_1800.keeps(veteran, games=3)
    assert not women_over_1800.keeps(junior, games=3)
    born_since_2010 = StandingsFilter(born_from=2010, rounds_min=4)
    assert not born_since_2010.keeps(junior, games=3)
    assert born_since_2010.keeps(junior, games=4)
