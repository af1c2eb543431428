"""Team Swiss colours: preferences (C.04.6 art. 1.7), first-team (art. 4.2), the nine
allocation steps (art. 4.3) and the board sequence (art. 1.6); readings in
docs/rules/team-swiss.md."""

from __future__ import annotations

import pytest

from service.engine.model import Colour
from service.engine.pairing.team_swiss import (
    ColourPreferenceType,
    Preference,
    PrimaryScore,
    Strength,
    TeamState,
    allocate,
    board_colours,
    colour_difference,
    colour_preference,
    first_team,
)

W, B = Colour.WHITE, Colour.BLACK
A, BT, NONE = ColourPreferenceType.A, ColourPreferenceType.B, ColourPreferenceType.NONE


def team(number: int, *colours: Colour | None, mp: float = 0, gp: float = 0) -> TeamState:
    return TeamState(number, mp, gp, colours=colours)


@pytest.mark.parametrize(
    ("colours", "expected"),
    [
        ((), None),
        ((W, B), None),  # CD 0, alternating
        ((B, B), Preference(W, Strength.SIMPLE)),  # CD -2
        ((W, W), Preference(B, Strength.SIMPLE)),  # CD +2
        ((W, W, B, B), Preference(W, Strength.SIMPLE)),  # CD 0, last two Black
        ((W, B, B), Preference(W, Strength.SIMPLE)),  # CD -1, last two Black
        ((B, W, W), Preference(B, Strength.SIMPLE)),  # CD +1, last two White
        ((B, W), None),  # CD 0, type A knows no mild preference
        ((W, B, W), None),  # CD +1, last two differ
        ((B, None, B), Preference(W, Strength.SIMPLE)),  # a round without a match is skipped
    ],
)
def test_type_a_preferences(
    colours: tuple[Colour | None, ...], expected: Preference | None
) -> None:
    assert colour_preference(team(1, *colours), A, last_round=False) == expected


@pytest.mark.parametrize(
    ("colours", "last_round", "expected"),
    [
        ((B, B), False, Preference(W, Strength.STRONG)),
        ((W, W, B, B), True, Preference(W, Strength.STRONG)),
        ((B,), False, Preference(W, Strength.MILD)),  # CD -1
        ((W, B, W), True, Preference(B, Strength.MILD)),  # CD +1, even in the last round
        ((W, B), False, Preference(W, Strength.MILD)),  # CD 0, last Black
        ((B, W), False, Preference(B, Strength.MILD)),  # CD 0, last White
        ((B, W), True, None),  # CD 0 in the last round: no preference
    ],
)
def test_type_b_preferences(
    colours: tuple[Colour, ...], last_round: bool, expected: Preference | None
) -> None:
    assert colour_preference(team(1, *colours), BT, last_round=last_round) == expected


def test_no_preferences_when_colours_carry_no_weight() -> None:
    assert colour_preference(team(1, B, B, B), NONE, last_round=False) is None


def test_colour_difference_counts_played_matches_only() -> None:
    assert colour_difference(team(1, W, None, W, B, W)) == 2


def test_first_team_by_score_then_secondary_then_tpn() -> None:
    match = PrimaryScore.MATCH
    assert first_team(team(5, mp=4), team(2, mp=3), match)[0].number == 5
    assert first_team(team(5, mp=3, gp=9), team(2, mp=3, gp=8), match)[0].number == 5
    assert first_team(team(5, mp=3, gp=8), team(2, mp=3, gp=8), match)[0].number == 2
    # game points as the primary score swap the roles
    game = PrimaryScore.GAME
    assert first_team(team(5, mp=4, gp=7), team(2, mp=3, gp=8), game)[0].number == 2


def colours_of(
    a: TeamState, b: TeamState, kind: ColourPreferenceType = A, **kw: object
) -> tuple[int, int]:
    initial = kw.get("initial", W)
    assert isinstance(initial, Colour)
    return allocate(
        a,
        b,
        kind=kind,
        primary=PrimaryScore.MATCH,
        initial_colour=initial,
        last_round=bool(kw.get("last_round", False)),
    )


def test_step_1_no_history_odd_tpn_takes_the_initial_colour() -> None:
    assert colours_of(team(1), team(5)) == (1, 5)
    assert colours_of(team(2), team(6)) == (6, 2)  # even first-team TPN: the other colour
    assert colours_of(team(1), team(5), initial=B) == (5, 1)
    assert colours_of(team(2), team(6), initial=B) == (2, 6)


def test_step_2_only_one_preference_is_granted() -> None:
    # team 1 (first-team) has none (WB), team 2 prefers White (BB)
    assert colours_of(team(1, W, B), team(2, B, B)) == (2, 1)


def test_step_3_opposite_preferences_are_both_granted() -> None:
    assert colours_of(team(1, W, W), team(2, B, B)) == (2, 1)


def test_step_4_type_b_grants_the_only_strong_preference() -> None:
    # 1: mild White (CD -1), 2: strong White (BB)
    assert colours_of(team(1, B), team(2, B, B), BT) == (2, 1)


def test_step_5_lower_colour_difference_takes_white() -> None:
    # both prefer White (type A); team 2's CD -2 is below team 1's CD 0
    assert colours_of(team(1, W, W, B, B), team(2, B, B)) == (2, 1)
    # colours carry no weight: CD still decides (1: +1, 2: -1)
    assert colours_of(team(1, W), team(2, B), NONE) == (2, 1)


def test_step_6_alternate_from_the_latest_round_with_different_colours() -> None:
    # equal CD 0; in round 2 team 1 had Black and team 2 White: team 1 now White
    assert colours_of(team(1, W, B), team(2, B, W), NONE) == (1, 2)
    assert colours_of(team(1, B, W), team(2, W, B), NONE) == (2, 1)


def test_step_7_first_team_preference() -> None:
    # both prefer White, equal CD, same colours every round: the first-team gets it
    assert colours_of(team(1, B, B), team(2, B, B)) == (1, 2)
    assert colours_of(team(1, W, W), team(2, W, W)) == (2, 1)


def test_step_8_alternate_the_first_team_last_colour() -> None:
    # never both played in one round; equal CD +1; no preferences
    assert colours_of(team(1, None, W), team(2, W, None), NONE) == (2, 1)


def test_step_9_alternate_the_other_team_last_colour() -> None:
    # the first-team has never played; the other team's last colour was Black
    assert colours_of(team(1, None, None), team(2, W, B), NONE) == (2, 1)
    assert colours_of(team(1, None, None), team(2, B, W), NONE) == (1, 2)


def test_board_colour_sequence_of_the_first_named_team() -> None:
    assert board_colours(4) == (W, B, W, B)
    assert board_colours(5, B) == (B, W, B, W, B)
    with pytest.raises(ValueError, match="board"):
        board_colours(0)


def test_step_6_compares_the_played_matches_from_their_end() -> None:
    # 4.3.6 with C.04.2 art. 3.4: 1 (-, B, W) and 2 (B, W, -) both read B W: no
    # difference, so 4.3.8 alternates the first-team's last colour (White): 1 Black
    assert colours_of(team(1, None, B, W), team(2, B, W, None), NONE) == (2, 1)
    # 1 (W, -, B) and 2 (B, W): the last steps are B against W, so 1 has White
    assert colours_of(team(1, W, None, B), team(2, B, W), NONE) == (1, 2)
