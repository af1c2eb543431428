"""Art. 3.6 by its own definition: on small brackets, enumerate every pairing, order by
identifier (top members ascending, then their bottom members), keep those with [C1]
and the least cost, and the engine must return the first."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from service.engine.pairing.team_swiss.brackets import pair_bracket


def all_pairings(teams: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not teams:
        yield []
        return
    first, rest = teams[0], teams[1:]
    for i, other in enumerate(rest):
        for tail in all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def identifier(pairing: list[tuple[int, int]]) -> tuple[int, ...]:
    ordered = sorted(pairing)
    return tuple(a for a, _ in ordered) + tuple(b for _, b in ordered)


@pytest.mark.parametrize("seed", range(300))
def test_engine_returns_the_first_best_identifier(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice([2, 4, 6, 8])
    teams = sorted(rng.sample(range(1, 40), size))
    met = {frozenset(p) for p in itertools.combinations(teams, 2) if rng.random() < 0.3}
    costs = {frozenset(p): rng.choice([0, 0, 0, 1, 10]) for p in itertools.combinations(teams, 2)}

    def compatible(a: int, b: int) -> bool:
        return frozenset((a, b)) not in met

    def cost(a: int, b: int) -> int:
        return costs[frozenset((a, b))]

    legal = [p for p in all_pairings(teams) if all(compatible(a, b) for a, b in p)]
    if not legal:
        return
    least = min(sum(cost(a, b) for a, b in p) for p in legal)
    best = min((p for p in legal if sum(cost(a, b) for a, b in p) == least), key=identifier)
    got = pair_bracket(teams, compatible, cost)
    assert sorted(got) == sorted(best)
