"""Team Swiss pairing (FIDE C.04.6): order, PAB, upfloaters, bracket pairing, colours
and table order, with worked numbers; readings in docs/rules/team-swiss.md."""

from __future__ import annotations

import pytest

from service.engine.model import Colour
from service.engine.pairing.round_pairing import PairingError
from service.engine.pairing.team_swiss import (
    ColourPreferenceType,
    PrimaryScore,
    TeamState,
    TeamSwissSettings,
    pair_team_round,
    pairing_order,
)

W, B = Colour.WHITE, Colour.BLACK
SETTINGS = TeamSwissSettings(rounds=9)


def t(
    number: int,
    mp: float = 0,
    *,
    gp: float = 0,
    met: tuple[int, ...] = (),
    colours: tuple[Colour | None, ...] = (),
    pab: bool = False,
    forfeit_win: bool = False,
) -> TeamState:
    return TeamState(number, mp, gp, frozenset(met), colours, pab, forfeit_win)


def pairs(pairing_round: object) -> list[tuple[int, int]]:
    from service.engine.pairing.team_swiss import TeamPairing

    assert isinstance(pairing_round, TeamPairing)
    return [(m.white, m.black) for m in pairing_round.matches]


def unordered(pairing_round: object) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs(pairing_round)}


def test_order_is_score_then_tpn_and_game_points_can_lead() -> None:
    teams = [t(1, 2, gp=5), t(2, 4, gp=6), t(3, 2, gp=7), t(4, 4, gp=4)]
    assert [x.number for x in pairing_order(teams, SETTINGS)] == [2, 4, 1, 3]
    by_game = TeamSwissSettings(rounds=9, primary_score=PrimaryScore.GAME)
    assert [x.number for x in pairing_order(teams, by_game)] == [3, 2, 1, 4]


def test_first_round_pairs_top_half_against_bottom_half_with_alternating_colours() -> None:
    result = pair_team_round([t(n) for n in range(1, 9)], 1, SETTINGS)
    # 1-5, 2-6, 3-7, 4-8; odd first-team TPNs take the initial colour (White)
    assert pairs(result) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert result.bye is None


def test_first_round_with_an_odd_count_gives_the_bye_to_the_last_team() -> None:
    result = pair_team_round([t(n) for n in range(1, 8)], 1, SETTINGS)
    assert result.bye == 7
    assert unordered(result) == {frozenset(p) for p in [(1, 4), (2, 5), (3, 6)]}


def test_pab_lowest_score_then_most_matches_then_largest_tpn() -> None:
    teams = [
        t(1, 2, colours=(W,)),
        t(2, 0, colours=(B,)),
        t(3, 0, colours=(None,)),  # fewer matches played than team 2
        t(4, 2, colours=(B,)),
        t(5, 2, colours=(W,)),
    ]
    assert pair_team_round(teams, 2, SETTINGS).bye == 2
    teams[2] = t(3, 0, colours=(W,))
    assert pair_team_round(teams, 2, SETTINGS).bye == 3  # equal: the larger TPN


def test_pab_skips_teams_that_already_scored_without_playing() -> None:
    teams = [t(1), t(2), t(3, pab=True), t(4), t(5, forfeit_win=True)]
    assert pair_team_round(teams, 2, SETTINGS).bye == 4


def test_pab_must_leave_a_complete_pairing() -> None:
    # the bye would go to 3, but then 1 and 2 (who met) would have to meet again
    teams = [t(1, met=(2,)), t(2, met=(1,)), t(3)]
    result = pair_team_round(teams, 2, SETTINGS)
    assert result.bye == 2
    assert unordered(result) == {frozenset((1, 3))}


def test_c1_a_transposition_avoids_a_second_meeting() -> None:
    teams = [t(1, 2, met=(3,)), t(2, 2), t(3, 2, met=(1,)), t(4, 2)]
    assert unordered(pair_team_round(teams, 2, SETTINGS)) == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }


def test_forbidden_pairs_are_avoided() -> None:
    settings = TeamSwissSettings(rounds=9, forbidden=frozenset({frozenset((1, 3))}))
    teams = [t(n, 2) for n in range(1, 5)]
    assert frozenset((1, 3)) not in unordered(pair_team_round(teams, 2, settings))


def test_odd_score_group_takes_one_upfloater_the_smallest_tpn_below() -> None:
    teams = [t(1, 2), t(2, 2), t(3, 2)] + [t(n, 0) for n in range(4, 9)]
    result = pair_team_round(teams, 2, SETTINGS)
    # 3.5.3/3.5.4: {4} is the first set; bracket 1, 2, 3, 4 pairs 1-3, 2-4
    assert unordered(result) == {frozenset(p) for p in [(1, 3), (2, 4), (5, 7), (6, 8)]}
    assert "bracket 2: upfloaters 4" in result.notes


def test_c5_upfloaters_come_from_the_highest_score_first() -> None:
    teams = [t(1, 4), t(2, 4), t(3, 4), t(4, 2), t(5, 0), t(6, 0), t(7, 0), t(8, 0)]
    result = pair_team_round(teams, 3, SETTINGS)
    assert "bracket 4: upfloaters 4" in result.notes
    assert frozenset((2, 4)) in unordered(result)


def test_c3_an_upfloater_that_would_break_the_rest_is_passed_over() -> None:
    # 4 would float first, but 8 has met 5, 6 and 7 and could then not be paired
    teams = [
        t(1, 2),
        t(2, 2),
        t(3, 2),
        t(4, 0),
        t(5, 0, met=(8,)),
        t(6, 0, met=(8,)),
        t(7, 0, met=(8,)),
        t(8, 0, met=(5, 6, 7)),
    ]
    result = pair_team_round(teams, 2, SETTINGS)
    assert "bracket 2: upfloaters 5" in result.notes
    assert frozenset((4, 8)) in unordered(result)


def test_c4_a_bracket_that_cannot_pair_inside_takes_two_upfloaters() -> None:
    teams = [t(1, 2, met=(2,)), t(2, 2, met=(1,)), t(3, 0), t(4, 0), t(5, 0), t(6, 0)]
    result = pair_team_round(teams, 2, SETTINGS)
    assert "bracket 2: upfloaters 3, 4" in result.notes
    assert unordered(result) == {frozenset(p) for p in [(1, 3), (2, 4), (5, 6)]}


def test_3_5_4_example_upfloater_sets_2_6_8_then_2_6_1() -> None:
    # The text's example: 2, 6, 8 have 3 points, 1, 3, 5 have 2.5, three upfloaters
    # are needed (the top-scoregroup 4, 7, 9 has met within itself); sets are ordered
    # {2,6,8} < {2,6,1} < {2,6,3} < ...; 8 has met 4, 7 and 9, so {2,6,8} cannot be
    # paired and [C5] takes {2,6,1}.
    top = (4, 7, 9)
    teams = [
        t(4, 4, met=(7, 9, 8)),
        t(7, 4, met=(4, 9, 8)),
        t(9, 4, met=(4, 7, 8)),
        t(2, 3),
        t(6, 3),
        t(8, 3, met=top),
        t(1, 2.5),
        t(3, 2.5),
        t(5, 2.5),
        t(10, 0),
    ]
    result = pair_team_round(teams, 4, SETTINGS)
    assert result.notes[0] == "bracket 4: upfloaters 2, 6, 1"
    # bracket 1, 2, 4, 6, 7, 9: tops 1, 2, 4 (4-9 met, so 4 takes 6), then 3 + 8, 5 + 10
    assert unordered(result) == {frozenset(p) for p in [(1, 7), (2, 9), (4, 6), (3, 8), (5, 10)]}


def test_c6_keeps_the_following_scoregroup_pairable() -> None:
    # {4} comes first, but would leave 5 and 6 (who met) as the 2-point scoregroup
    teams = [
        t(1, 4),
        t(2, 4),
        t(3, 4),
        t(4, 2),
        t(5, 2, met=(6,)),
        t(6, 2, met=(5,)),
        t(7, 0),
        t(8, 0),
    ]
    result = pair_team_round(teams, 3, SETTINGS)
    assert result.notes[0] == "bracket 4: upfloaters 5"


@pytest.mark.parametrize(("round_number", "upfloater"), [(3, 5), (8, 4), (9, 4)])
def test_c7_avoids_an_upfloater_that_floated_last_round(round_number: int, upfloater: int) -> None:
    teams = [t(1, 4), t(2, 4), t(3, 4), t(4, 2), t(5, 2), t(6, 0), t(7, 0)]
    teams[3] = TeamState(4, 2, floated_last_round=True)
    teams.append(t(8, 0))
    # not in the last two rounds (8 and 9 of 9): there [C7] does not apply
    assert pair_team_round(teams, round_number, SETTINGS).notes[0] == (
        f"bracket 4: upfloaters {upfloater}"
    )


@pytest.mark.parametrize(
    ("round_number", "expected"), [(3, [(1, 4), (2, 3)]), (8, [(1, 3), (2, 4)])]
)
def test_c10_an_upfloater_avoids_an_opponent_that_floated(
    round_number: int, expected: list[tuple[int, int]]
) -> None:
    teams = [
        t(1, 4),
        TeamState(2, 4, floated_last_round=True),
        t(3, 4),
        t(4, 2),
        t(5, 0),
        t(6, 0),
        t(7, 0),
        t(8, 0),
    ]
    result = pair_team_round(teams, round_number, SETTINGS)
    top_bracket = {frozenset(p) for p in expected}
    assert top_bracket <= unordered(result)


def test_3_6_identifier_orders_all_top_members_before_bottom_members() -> None:
    # 6 has met 1, 2 and 3, so the tops cannot be 1, 2, 3; the first identifier is
    # 1 2 4 | 3 5 6 (1-3, 2-5, 4-6), ahead of 1 2 5 | 4 3 6 (1-4, 2-3, 5-6)
    teams = [
        t(1, met=(6,)),
        t(2, met=(6,)),
        t(3, met=(6,)),
        t(4),
        t(5),
        t(6, met=(1, 2, 3)),
    ]
    result = pair_team_round(teams, 2, SETTINGS)
    assert unordered(result) == {frozenset(p) for p in [(1, 3), (2, 5), (4, 6)]}


def test_c8_colour_preferences_choose_between_candidates() -> None:
    # 1, 2 prefer White (BB), 3, 4 prefer Black (WW): the fold 1-3, 2-4 has no clash
    teams = [
        t(1, 2, colours=(B, B)),
        t(2, 2, colours=(B, B)),
        t(3, 2, colours=(W, W)),
        t(4, 2, colours=(W, W)),
    ]
    assert pairs(pair_team_round(teams, 3, SETTINGS)) == [(1, 3), (2, 4)]
    # 1, 3 prefer White, 2, 4 Black: the fold clashes twice; the next identifier,
    # 1 2 | 4 3 (1-4, 2-3), not at all, so it is taken
    teams[1] = t(2, 2, colours=(W, W))
    teams[2] = t(3, 2, colours=(B, B))
    assert pairs(pair_team_round(teams, 3, SETTINGS)) == [(1, 4), (3, 2)]
    # 1, 3, 4 prefer White, 2 Black: every pairing has one clash, so the fold stays
    teams[3] = t(4, 2, colours=(B, B))
    assert unordered(pair_team_round(teams, 3, SETTINGS)) == {frozenset((1, 3)), frozenset((2, 4))}


def test_colour_preferences_off_keeps_the_fold() -> None:
    settings = TeamSwissSettings(rounds=9, colour_preferences=ColourPreferenceType.NONE)
    teams = [t(n, 2, colours=(B, B)) for n in range(1, 5)]
    assert unordered(pair_team_round(teams, 3, settings)) == {frozenset((1, 3)), frozenset((2, 4))}


def test_c9_type_b_spares_strong_preferences_first() -> None:
    settings = TeamSwissSettings(rounds=9, colour_preferences=ColourPreferenceType.B)
    # 1, 3 strong White (BB); 2, 4 mild White (WB then... CD 0, last Black)
    teams = [
        t(1, 2, colours=(B, B)),
        t(2, 2, colours=(W, B)),
        t(3, 2, colours=(B, B)),
        t(4, 2, colours=(W, B)),
    ]
    result = pair_team_round(teams, 3, settings)
    # every pairing has two clashes; only 1-3 in a pair would lose a strong preference
    assert frozenset((1, 3)) not in unordered(result)
    assert unordered(result) == {frozenset((1, 4)), frozenset((2, 3))}
    # strong teams get White
    assert {m.white for m in result.matches} == {1, 3}


def test_tables_by_higher_score_then_smaller_tpn() -> None:
    teams = [t(1, 0), t(2, 0), t(3, 2), t(4, 2), t(5, 1), t(6, 1)]
    result = pair_team_round(teams, 2, SETTINGS)
    assert [sorted((m.white, m.black)) for m in result.matches] == [[3, 4], [5, 6], [1, 2]]
    assert [m.table for m in result.matches] == [1, 2, 3]


@pytest.mark.parametrize(
    ("teams", "round_number", "message"),
    [
        ([t(1), t(1)], 1, "unique"),
        ([t(0), t(1)], 1, "start at 1"),
        ([t(1), t(2)], 10, "outside"),
        ([t(1)], 1, "at least two"),
        ([t(1, met=(2,)), t(2, met=(1,))], 2, "no complete pairing"),
    ],
)
def test_bad_input_is_refused(teams: list[TeamState], round_number: int, message: str) -> None:
    with pytest.raises(PairingError, match=message):
        pair_team_round(teams, round_number, SETTINGS)
