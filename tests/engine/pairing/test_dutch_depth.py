"""A Dutch round needs no deep call stack: no recursion-depth limit
(docs/decisions/matcher-stages.md)."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from service.engine.pairing.checker import generate_tournament
from service.engine.pairing.dutch import pair_round

_HEADROOM = 80
"""Frames allowed above the caller: enough for the library calls, far below any field size."""


@contextmanager
def _shallow_stack() -> Iterator[None]:
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + _HEADROOM)
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


@pytest.mark.slow
def test_a_generated_round_pairs_within_a_fixed_stack_depth() -> None:
    """Pairing 200 players stays within 80 frames, so the stack does not grow with the
    field (before the matcher was made iterative, nested blossoms recursed once a level).
    """
    field = generate_tournament(200, 3, seed=15, pair=lambda t, byes: pair_round(t))
    tournament = replace(field, total_rounds=9)
    with _shallow_stack():
        pairing = pair_round(tournament)
    paired = sorted(p for g in pairing.games for p in (g.white, g.black))
    assert paired == list(range(1, 201))
    met = {frozenset((g.white, g.black)) for r in tournament.rounds for g in r.games}
    assert not met & {frozenset((g.white, g.black)) for g in pairing.games}


@pytest.mark.slow
def test_a_2000_player_round_pairs_with_default_interpreter_settings() -> None:
    """A 2,000-player field pairs with the default recursion limit (before
    the matcher was made iterative it stopped with RecursionError at this size)."""
    players = 2000
    field = generate_tournament(players, 1, seed=2000, pair=lambda t, byes: pair_round(t))
    tournament = replace(field, total_rounds=9)
    pairing = pair_round(tournament)
    paired = sorted(p for g in pairing.games for p in (g.white, g.black))
    assert paired == list(range(1, players + 1))
    met = {frozenset((g.white, g.black)) for r in tournament.rounds for g in r.games}
    assert not met & {frozenset((g.white, g.black)) for g in pairing.games}
