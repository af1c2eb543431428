"""Pairing one bracket of the team Swiss (FIDE C.04.6 art. 3.6; readings in
docs/rules/team-swiss.md).

In every pair the team with the smaller TPN is the top member (3.6.1). A pairing's
identifier is its top members' TPNs in ascending order followed by their bottom
members' TPNs in the same order (3.6.2); pairings are ordered lexicographically by
identifier (3.6.3) and the first one that complies with [C1] (hard) and best with
[C8], [C9] and [C10] (minimised in that order) is chosen (3.6.4). The first identifier
of all is the natural S1-v-S2 pairing (1 v m+1, 2 v m+2, ...).

Search: no enumeration of the (n-1)!! pairings. The best criteria value is computed
once by a matching (maximum cardinality on the cost-free pairs when that value is 0,
maximum weight otherwise). Then the identifier is fixed position by position: first
the top members (the smallest TPN that can still be a top member of an optimal
pairing), then each top member's bottom member (the smallest that keeps an optimal
pairing). Each "can still" is one matching call on the constrained graph, skipped
when the last matching found already agrees. So at most n^2 matching calls per
bracket, a few in the common case (the first candidate usually works).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from service.engine.pairing.matching import MatchingError, WeightedMatcher, maximum_matching

__all__ = ["Compatible", "Cost", "pair_bracket"]

Compatible = Callable[[int, int], bool]
"""May these two teams (by TPN) meet? ([C1] and forbidden pairs.)"""
Cost = Callable[[int, int], int]
"""The criteria cost of a pair, [C8] > [C9] > [C10] already weighed into one integer."""

_TOP, _BOTTOM = 1, 2


class _Search:
    """Positions 0..n-1 are the bracket's teams in TPN order."""

    def __init__(self, teams: Sequence[int], compatible: Compatible, cost: Cost) -> None:
        self.teams = sorted(teams)
        self.n = len(self.teams)
        self.compatible = compatible
        self.cost = cost
        self.role = [0] * self.n
        self.fixed: dict[int, int] = {}
        self.target = 0
        self.weighted = False
        self.witness: dict[int, int] = {}

    # ------------------------------------------------------------------ edges
    def allowed(self, u: int, v: int) -> bool:
        if u > v:
            u, v = v, u
        if self.role[u] == _BOTTOM or self.role[v] == _TOP:
            return False
        a, b = self.teams[u], self.teams[v]
        if not self.compatible(a, b):
            return False
        return self.weighted or self.cost(a, b) == 0

    def pair_cost(self, u: int, v: int) -> int:
        return self.cost(self.teams[u], self.teams[v])

    # ----------------------------------------------------------------- oracle
    def solve(self) -> dict[int, int] | None:
        """An optimal pairing of the free positions under the current roles, or None."""
        free = [i for i in range(self.n) if i not in self.fixed]
        spent = sum(self.pair_cost(u, v) for u, v in self.fixed.items() if u < v)
        if not self.weighted:
            mate = maximum_matching(free, self.allowed)
            if any(m == -1 for m in mate):
                return None
            return {free[i]: free[m] for i, m in enumerate(mate)}
        found = _min_cost_matching(free, self.allowed, self.pair_cost)
        if found is None or found[0] + spent != self.target:
            return None
        return found[1]

    def agrees(self) -> bool:
        """Does the last witness respect the current roles and fixed pairs?"""
        for u, v in self.witness.items():
            if u < v and not (self.role[u] != _BOTTOM and self.role[v] != _TOP):
                return False
        return all(self.witness.get(u) == v for u, v in self.fixed.items())

    def feasible(self) -> bool:
        if self.agrees():
            return True
        found = self.solve()
        if found is None:
            return False
        self.witness = {**found, **self.fixed}
        return True


def _min_cost_matching(
    free: list[int], allowed: Compatible, pair_cost: Callable[[int, int], int]
) -> tuple[int, dict[int, int]] | None:
    """A perfect matching of `free` with the least total cost, or None.

    Among equally cheap matchings the weights lean toward small top members (a small
    sum of top-member positions), so that the matching found often already has the
    top members the identifier walk wants and confirms them without another call; the
    lean never outweighs one unit of cost.
    """
    size = len(free)
    if not size:
        return 0, {}
    n = max(free) + 2
    unit = n * n + 1  # more than any matching's whole lean
    costs = {}
    for x in range(size):
        for y in range(x + 1, size):
            u, v = free[x], free[y]
            if allowed(u, v):
                costs[(x, y)] = pair_cost(u, v)
    if not costs:
        return None
    top = max(costs.values())
    base = (top * (size + 1) + 1) * unit  # a pair more always outweighs any saving
    matcher = WeightedMatcher(size)
    for (x, y), c in costs.items():
        u, v = free[x], free[y]
        lean = n - u
        matcher.set_weight(x, y, base - c * unit + lean)
    try:
        matcher.solve()
    except MatchingError:
        return None
    mate = matcher.matching()
    if any(m == x for x, m in enumerate(mate)):
        return None
    total = sum(costs[(x, m)] for x, m in enumerate(mate) if x < m)
    return total, {free[x]: free[m] for x, m in enumerate(mate)}


def _fold(search: _Search) -> dict[int, int] | None:
    """The first identifier (1 v m+1, ...), when it is legal and costs nothing."""
    half = search.n // 2
    pairs = [(i, i + half) for i in range(half)]
    for u, v in pairs:
        a, b = search.teams[u], search.teams[v]
        if not search.compatible(a, b) or search.cost(a, b):
            return None
    return {**{u: v for u, v in pairs}, **{v: u for u, v in pairs}}


def pair_bracket(teams: Sequence[int], compatible: Compatible, cost: Cost) -> list[tuple[int, int]]:
    """The bracket's pairs as (top member, bottom member) TPNs, top members ascending.

    `teams` must admit a pairing complying with [C1] (the caller ensures it).
    """
    search = _Search(teams, compatible, cost)
    n, t = search.n, search.teams
    if n == 0:
        return []
    fold = _fold(search)
    if fold is not None:
        return [(t[u], t[v]) for u, v in sorted(fold.items()) if u < v]
    first = search.solve()  # cost-free pairs only
    if first is None:
        search.weighted = True
        best = _min_cost_matching(list(range(n)), search.allowed, search.pair_cost)
        if best is None:
            raise ValueError("bracket cannot be paired")
        search.target, first = best
    search.witness = first
    # Top members, smallest first (3.6.2: the identifier starts with them).
    tops: list[int] = []
    lowest = 0
    for _ in range(n // 2):
        for x in range(lowest, n):
            saved = search.role[:]
            for y in range(lowest, x):
                search.role[y] = _BOTTOM
            search.role[x] = _TOP
            if search.feasible():
                tops.append(x)
                lowest = x + 1
                break
            search.role = saved
        else:  # pragma: no cover - the witness guarantees a top member
            raise ValueError("no top member found")
    for y in range(n):
        if search.role[y] == 0:
            search.role[y] = _BOTTOM
    # Then each top member's bottom member, smallest first.
    for u in tops:
        for v in range(u + 1, n):
            if search.role[v] != _BOTTOM or v in search.fixed or not search.allowed(u, v):
                continue
            search.fixed[u], search.fixed[v] = v, u
            if search.feasible():
                break
            del search.fixed[u], search.fixed[v]
        else:  # pragma: no cover - the witness guarantees a bottom member
            raise ValueError("no bottom member found")
    return [(t[u], t[search.fixed[u]]) for u in tops]
