"""The team Swiss pairing checker and random generator (FIDE C.04.A tools for C.04.6):
faults are named by criterion, and every generated round passes the checker."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.engine.model import Colour
from service.engine.pairing.team_swiss import (
    ColourPreferenceType,
    TeamMatch,
    TeamPairing,
    TeamState,
    TeamSwissSettings,
    Violation,
    check_team_round,
    generate_team_tournament,
    pair_team_round,
    states_before,
)

W, B = Colour.WHITE, Colour.BLACK
SETTINGS = TeamSwissSettings(rounds=9)


def proposal(round_number: int, *matches: tuple[int, int], bye: int | None = None) -> TeamPairing:
    return TeamPairing(
        round_number, tuple(TeamMatch(i, w, b) for i, (w, b) in enumerate(matches, 1)), bye
    )


def criteria(found: list[Violation]) -> set[str]:
    return {v.criterion for v in found}


def test_the_engine_pairing_passes() -> None:
    teams = [TeamState(n) for n in range(1, 9)]
    assert check_team_round(teams, pair_team_round(teams, 1, SETTINGS), SETTINGS) == []


def test_missing_and_doubled_teams_and_a_needless_bye() -> None:
    teams = [TeamState(n) for n in range(1, 5)]
    found = check_team_round(teams, proposal(1, (1, 3), (2, 3), bye=9), SETTINGS)
    details = " ".join(v.detail for v in found)
    assert criteria(found) == {"completeness"}
    assert "team 3 appears 2 times" in details
    assert "team 4 is neither paired" in details
    assert "team 9 is not in the round" in details


def test_c1_a_second_meeting() -> None:
    teams = [TeamState(1, opponents=frozenset({2})), TeamState(2, opponents=frozenset({1}))]
    found = check_team_round(teams, proposal(2, (1, 2)), SETTINGS)
    assert criteria(found) == {"C1"}


def test_c2_a_bye_to_a_team_that_scored_without_playing() -> None:
    teams = [TeamState(1), TeamState(2), TeamState(3, received_pab=True)]
    assert criteria(check_team_round(teams, proposal(2, (1, 2), bye=3), SETTINGS)) == {"C2"}


def test_worse_score_differences_are_reported() -> None:
    teams = [TeamState(1, 2), TeamState(2, 2), TeamState(3, 0), TeamState(4, 0)]
    found = check_team_round(teams, proposal(2, (1, 3), (2, 4)), SETTINGS)
    assert {"score", "pairing"} <= criteria(found)


def test_an_avoidable_colour_clash_is_c8() -> None:
    teams = [
        TeamState(1, 2, colours=(B, B)),
        TeamState(2, 2, colours=(W, W)),
        TeamState(3, 2, colours=(B, B)),
        TeamState(4, 2, colours=(W, W)),
    ]
    found = check_team_round(teams, proposal(3, (1, 3), (2, 4)), SETTINGS)
    assert {"C8", "pairing"} <= criteria(found)


def test_wrong_colours_and_wrong_tables() -> None:
    teams = [TeamState(n) for n in range(1, 5)]
    right = pair_team_round(teams, 1, SETTINGS)
    flipped = replace(
        right, matches=(replace(right.matches[0], white=3, black=1), right.matches[1])
    )
    assert criteria(check_team_round(teams, flipped, SETTINGS)) == {"colours"}
    swapped = replace(
        right,
        matches=(replace(right.matches[1], table=1), replace(right.matches[0], table=2)),
    )
    assert criteria(check_team_round(teams, swapped, SETTINGS)) == {"tables"}


@pytest.mark.parametrize("kind", list(ColourPreferenceType))
@pytest.mark.parametrize("teams", [9, 16, 31])
def test_every_generated_round_passes_the_checker(kind: ColourPreferenceType, teams: int) -> None:
    settings = TeamSwissSettings(rounds=min(teams // 2, 7), colour_preferences=kind)
    for seed in range(12):
        event = generate_team_tournament(teams, settings, seed=seed)
        byes: list[int] = []
        met: set[frozenset[int]] = set()
        for played in event.rounds:
            before = states_before(event, played.pairing.round)
            assert check_team_round(before, played.pairing, settings) == []
            pairs = {frozenset((m.white, m.black)) for m in played.pairing.matches}
            assert not pairs & met  # nobody meets twice
            met |= pairs
            if played.pairing.bye is not None:
                byes.append(played.pairing.bye)
        assert len(byes) == len(set(byes))  # no second PAB
        assert len(byes) == (settings.rounds if teams % 2 else 0)
