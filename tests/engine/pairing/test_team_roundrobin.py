"""Team round-robins on the Berger tables (FIDE C.05 Annex 1)."""

from __future__ import annotations

import pytest

from service.engine.pairing.round_pairing import PairingError
from service.engine.pairing.team_roundrobin import team_round_robin

# C.05 Annex 1, the printed Berger tables for 5-6 and 7-8 participants.
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
BERGER_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


def test_six_teams_follow_the_printed_table() -> None:
    rounds = team_round_robin(6)
    assert [list(r.matches) for r in rounds] == BERGER_6
    assert all(r.free is None for r in rounds)


def test_seven_teams_use_the_eight_table_and_the_dummy_opponent_is_free() -> None:
    rounds = team_round_robin(7)
    assert len(rounds) == 7
    for rnd, printed in zip(rounds, BERGER_8, strict=True):
        (dummy_match,) = [m for m in printed if 8 in m]
        assert rnd.free == (dummy_match[0] if dummy_match[1] == 8 else dummy_match[1])
        assert list(rnd.matches) == [m for m in printed if 8 not in m]
    # every team meets every other once, and is free once
    met = {frozenset(m) for r in rounds for m in r.matches}
    assert len(met) == 21
    assert sorted(r.free for r in rounds if r.free is not None) == list(range(1, 8))


def test_double_round_robin_reverses_the_colours_in_the_second_cycle() -> None:
    rounds = team_round_robin(6, double=True)
    assert len(rounds) == 10
    # first cycle: Berger rounds 1, 2, 3, 5, 4 (the last two swapped)
    assert [list(r.matches) for r in rounds[:5]] == [
        BERGER_6[0],
        BERGER_6[1],
        BERGER_6[2],
        BERGER_6[4],
        BERGER_6[3],
    ]
    for rnd, printed in zip(rounds[5:], BERGER_6, strict=True):
        assert list(rnd.matches) == [(b, a) for a, b in printed]


def test_double_round_robin_gives_each_pair_both_first_named_turns() -> None:
    rounds = team_round_robin(7, double=True)
    ordered = [m for r in rounds for m in r.matches]
    assert len(ordered) == len(set(ordered)) == 42


@pytest.mark.parametrize("count", [0, 1, -3])
def test_too_few_teams_are_refused(count: int) -> None:
    with pytest.raises(PairingError):
        team_round_robin(count)
