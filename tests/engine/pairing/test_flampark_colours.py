"""FLAMPARK colours: alternation in basic rounds, no three-in-a-row in mixes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import Colour
from service.engine.pairing.flampark import flampark_schedule
from service.engine.pairing.flampark.colours import _Colouring, assign_colours, sequence_cost

FK6_KINDS = ["basic"] * 5 + ["x2"] * 3 + ["x4", "x8"]


def _sequences(rounds: list[list[tuple[int, int]]]) -> dict[int, list[bool]]:
    seqs: dict[int, list[bool]] = {}
    for games in rounds:
        for white, black in games:
            seqs.setdefault(white, []).append(True)
            seqs.setdefault(black, []).append(False)
    return seqs


def _runs_of_three(seq: list[bool]) -> int:
    return sum(1 for i in range(2, len(seq)) if seq[i] == seq[i - 1] == seq[i - 2])


def test_sequence_cost() -> None:
    assert sequence_cost([True, False, True, False]) == 0
    assert sequence_cost([True, True, False, False]) == 2  # two repeats
    assert sequence_cost([True, True, True, False]) == 1000 + 10 * 2 + 2
    assert sequence_cost([True, False, True]) == 0  # one surplus white is forced


def test_fk6_colours() -> None:
    schedule = flampark_schedule(56, 10, kinds=FK6_KINDS)
    for player in range(1, 57):
        colours = [e.colour for e in schedule.card(player) if e.colour is not None]
        assert _runs_of_three([c is Colour.WHITE for c in colours]) == 0
        assert abs(colours.count(Colour.WHITE) - colours.count(Colour.BLACK)) <= 2


@pytest.mark.parametrize(
    "kinds",
    [
        ["basic", "x2", "x4", "basic", "x8", "basic"],
        ["x8", "x4", "x2", "basic", "x2", "x4"],
        ["x2", "x2", "x2", "x4", "x4", "x8", "x8"],
    ],
)
@pytest.mark.parametrize("players", [32, 48, 97])
def test_consecutive_narrowing_rounds(kinds: list[str], players: int) -> None:
    """Narrowing rounds back to back: a fixed colour pattern per class would give a
    quarter of the field three in a row; the schedule gives nobody one."""
    schedule = flampark_schedule(players, len(kinds), kinds=kinds)
    rounds = [[(g.white, g.black) for g in rnd.games] for rnd in schedule.rounds]
    assert all(_runs_of_three(seq) == 0 for seq in _sequences(rounds).values())


def test_greedy_alone_keeps_basic_alternation() -> None:
    rounds = [[(2, 1), (4, 3)], [(2, 3), (4, 1)]]
    coloured = assign_colours(rounds)
    assert coloured[0] == [(1, 2), (3, 4)]  # odd players white in round 1
    assert coloured[1] == [(2, 3), (4, 1)]
    black_first = assign_colours(rounds, Colour.BLACK)
    assert black_first[0] == [(2, 1), (4, 3)]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 8), st.integers(1, 8)).filter(lambda p: p[0] != p[1]),
        min_size=1,
        max_size=40,
    ),
    st.data(),
)
def test_swap_cost_matches_full_cost(pairs: list[tuple[int, int]], data: st.DataObject) -> None:
    """The O(1) change of a swap equals the change of the two players' full costs."""
    choices = data.draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    evens = [a for a, _ in pairs]
    odds = [b for _, b in pairs]
    colouring = _Colouring(evens, odds, list(choices))
    for game in range(len(pairs)):
        players = {evens[game], odds[game]}
        before = sum(sequence_cost(colouring.sequences[p]) for p in players)
        triples_before = sum(_runs_of_three(colouring.sequences[p]) for p in players)
        triples, cost = colouring.change(game)
        colouring.swap(game)
        after = sum(sequence_cost(colouring.sequences[p]) for p in players)
        triples_after = sum(_runs_of_three(colouring.sequences[p]) for p in players)
        assert cost == after - before
        assert triples == triples_after - triples_before
        assert colouring.total_triples == sum(
            _runs_of_three(seq) for seq in colouring.sequences.values()
        )
