"""The dynamic maximum-weight matcher against exhaustive search (pairing/matching/weighted.py)."""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.pairing.matching import MatchingError, WeightedMatcher

Weights = tuple[tuple[int, ...], ...]


def _best(n: int, weights: Weights) -> int | None:
    """Best total weight leaving at most n % 2 vertices unmatched (None: impossible)."""

    @functools.cache
    def rec(mask: int, skips: int) -> int | None:
        if mask == 0:
            return 0
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        best = rec(rest, skips - 1) if skips else None
        for j in range(n):
            if rest >> j & 1 and weights[i][j] > 0:
                sub = rec(rest & ~(1 << j), skips)
                if sub is not None and (best is None or sub + weights[i][j] > best):
                    best = sub + weights[i][j]
        return best

    return rec((1 << n) - 1, n & 1)


def _total(matcher: WeightedMatcher, n: int, weights: Weights) -> int:
    mates = matcher.matching()
    total = 0
    for v in range(n):
        u = mates[v]
        assert mates[u] == v
        if u != v:
            assert weights[v][u] > 0, "matched along a missing edge"
            if v < u:
                total += weights[v][u]
    assert sum(1 for v in range(n) if mates[v] == v) == n % 2
    return total


def _dual_slacks(matcher: WeightedMatcher) -> dict[tuple[int, int], int]:
    """The slack the duals leave every edge, reserved ones included: y_v + y_u plus
    the duals of the blossoms holding both ends, less the doubled weight. Read from the
    matcher's own state, so that a test can check the certificate itself and not only
    the matching it happens to give (white box, on purpose)."""
    y, z, parent, adj = matcher._y, matcher._z, matcher._parent, matcher._adj
    flat, potential = matcher._flat, matcher._potential
    slacks: dict[tuple[int, int], int] = {}
    for v in range(len(y)):  # the dummy of an odd graph too
        ancestors: dict[int, int] = {}
        chain = []
        b = parent[v]
        while b >= 0:
            chain.append(b)
            b = parent[b]
        total = 0
        for b in reversed(chain):
            total += z[b]
            ancestors[b] = total
        edges = dict(adj[v])
        edges |= {u: flat - potential[v] - potential[u] for u in matcher._reserve.partners(v)}
        for u, doubled in edges.items():
            if u < v:
                b = parent[u]
                while b >= 0 and b not in ancestors:
                    b = parent[b]
                common = ancestors[b] if b >= 0 else 0
                slacks[u, v] = y[v] + y[u] + common - doubled
    return slacks


def _certified(matcher: WeightedMatcher) -> None:
    """The duals prove the matching optimal (LP duality): every edge feasible, reserved
    ones included, and every matched edge tight (the dummy's too)."""
    mates, z, childs = matcher._mate, matcher._z, matcher._childs
    assert all(z[b] >= 0 for b in range(len(mates), len(z)) if childs[b])
    for (u, v), slack in _dual_slacks(matcher).items():
        assert slack >= 0, f"edge {u}-{v} left infeasible by the duals ({slack})"
        if mates[v] == u:
            assert slack == 0, f"matched edge {u}-{v} not tight ({slack})"


def _solves_to_the_optimum(matcher: WeightedMatcher, n: int, weights: list[list[int]]) -> bool:
    """Solve, compare with brute force and check the duals' certificate; False when no
    matching exists (the matcher must then say so)."""
    frozen = tuple(tuple(row) for row in weights)
    expected = _best(n, frozen)
    if expected is None:
        with pytest.raises(MatchingError):
            matcher.solve()
        return False
    matcher.solve()
    assert _total(matcher, n, frozen) == expected
    _certified(matcher)
    return True


@st.composite
def _graphs(draw: st.DrawFn) -> tuple[int, list[list[int]], list[tuple[int, list[int]]]]:
    n = draw(st.integers(min_value=1, max_value=10))
    top = draw(st.sampled_from([1, 3, 50, 10**30]))
    cell = st.one_of(st.just(0), st.integers(min_value=1, max_value=top))
    weights = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            weights[i][j] = weights[j][i] = draw(cell)
    updates = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.lists(cell, min_size=n, max_size=n)),
            max_size=5,
        )
    )
    return n, weights, updates


@settings(max_examples=300, deadline=None)
@given(_graphs())
def test_optimum_after_every_update(case: tuple[int, list[list[int]], list[Any]]) -> None:
    n, weights, updates = case
    matcher = WeightedMatcher(n)
    for i in range(n):
        for j in range(i + 1, n):
            if weights[i][j]:
                matcher.set_weight(i, j, weights[i][j])
    for step in range(len(updates) + 1):
        if not _solves_to_the_optimum(matcher, n, weights):
            return
        if step < len(updates):
            v, row = updates[step]
            for u in range(n):
                if u != v:
                    weights[v][u] = weights[u][v] = row[u]
                    matcher.set_weight(v, u, row[u])


def test_odd_cycle_needs_a_blossom() -> None:
    # A triangle with a pendant path: the optimum uses an odd-cycle (blossom) step.
    matcher = WeightedMatcher(6)
    for a, b, w in [(0, 1, 6), (1, 2, 6), (0, 2, 6), (2, 3, 7), (3, 4, 1), (4, 5, 6)]:
        matcher.set_weight(a, b, w)
    matcher.solve()
    assert matcher.matching() == [1, 0, 3, 2, 5, 4]


def test_unmatched_vertex_reports_itself_and_rejects_bad_input() -> None:
    matcher = WeightedMatcher(3)
    matcher.set_weight(0, 1, 5)
    matcher.solve()
    assert matcher.mate(2) == 2
    assert matcher.weight(0, 1) == 5
    with pytest.raises(ValueError):
        matcher.set_weight(1, 1, 3)
    with pytest.raises(ValueError):
        matcher.set_weight(0, 1, -1)


@settings(max_examples=200, deadline=None)
@given(_graphs(), st.integers(min_value=0, max_value=4))
def test_an_extended_matcher_keeps_every_edge_and_adds_free_vertices(
    case: tuple[int, list[list[int]], list[Any]], extra: int
) -> None:
    """`extended(k)`: the same edges, solved from nothing, plus k vertices without edges
    that the caller may join (the 2017 trial's room for unpaired players)."""
    n, weights, _ = case
    matcher = WeightedMatcher(n)
    for v in range(n):
        matcher.set_weights(v, [(u, weights[v][u]) for u in range(v)])
    with contextlib.suppress(MatchingError):
        matcher.solve()  # a solved matcher's state (blossoms, duals) is not carried over
    grown = matcher.extended(extra)
    assert grown.size == n + extra
    for v in range(n):
        for u in range(n):
            if u != v:
                assert grown.weight(v, u) == weights[v][u]
        for sink in range(n, n + extra):
            assert grown.weight(v, sink) == 0
    if extra == 0:
        try:
            grown.solve()
        except MatchingError:
            assert _best(n, tuple(map(tuple, weights))) is None
        else:
            assert _total(grown, n, tuple(map(tuple, weights))) == _best(
                n, tuple(map(tuple, weights))
            )


def test_bulk_rows_and_fixed_pairs() -> None:
    matcher = WeightedMatcher(4)
    matcher.set_weights(0, [(1, 5), (2, 1), (3, 1)])
    matcher.set_weights(1, [(2, 1), (3, 1)])
    matcher.set_weights(2, [(3, 5)])
    matcher.solve()
    assert matcher.matching() == [1, 0, 3, 2]
    # Fixing {0, 2} drops every other edge of 0 and 2; 1 and 3 must pair.
    matcher.fix_pair(0, 2, 7)
    matcher.solve()
    assert matcher.matching() == [2, 3, 0, 1]
    assert matcher.weight(0, 1) == 0
    assert matcher.weight(0, 2) == 7
    matcher.set_weights(1, [(3, 0)])
    with pytest.raises(MatchingError):
        matcher.solve()
    with pytest.raises(ValueError):
        matcher.fix_pair(1, 1, 3)
    with pytest.raises(ValueError):
        matcher.set_weights(1, [(1, 2)])


class _DepthProbe(WeightedMatcher):
    """Records how deeply blossoms nest (to show the case below really is deep)."""

    deepest = 0

    def _add_blossom(self, base: int, v: int, w: int) -> None:
        super()._add_blossom(base, v, w)
        top = self._inblossom[base]
        depth, c = 0, base
        while c != top:
            c = self._parent[c]
            depth += 1
        self.deepest = max(self.deepest, depth)


def _flower_chain(levels: int) -> tuple[int, list[tuple[int, int, int]], list[int]]:
    """A graph whose search nests `levels` blossoms, and its unique perfect matching.

    Level i is a triangle: a_i = b_i matched, both joined to the exit of level i - 1
    (the root r for level 1), the exit of level i being a_i. A second exposed vertex e
    holds a heavy edge to a pendant pair x = x' and a light edge to a_k. The tree of r
    grows by one blossom per level (a_i only turns outer inside the blossom); after
    the last level a dual change makes e - a_k tight, and the augmentation rebases
    every nested blossom. The only perfect matching: e - a_k, b_k - a_(k-1), ...,
    b_2 - a_1, b_1 - r, x - x'.
    """
    a = [2 * i for i in range(levels)]
    b = [2 * i + 1 for i in range(levels)]
    x, x2, e, r = 2 * levels, 2 * levels + 1, 2 * levels + 2, 2 * levels + 3
    heavy, light = 10, 2
    edges = [(a[i], b[i], heavy) for i in range(levels)] + [(x, x2, heavy)]
    edges += [(r, a[0], heavy), (r, b[0], heavy)]
    for i in range(1, levels):
        edges += [(a[i - 1], a[i], heavy), (a[i - 1], b[i], heavy)]
    edges += [(e, x, heavy), (e, a[-1], light)]
    mates = list(range(2 * levels + 4))
    pairs = [(e, a[-1]), (b[0], r), (x, x2)]
    pairs += [(b[i], a[i - 1]) for i in range(1, levels)]
    for p, q in pairs:
        mates[p], mates[q] = q, p
    return 2 * levels + 4, edges, mates


@pytest.mark.slow
def test_blossoms_nested_deeper_than_the_recursion_limit() -> None:
    """Nesting depth is bounded by memory, not by the interpreter's recursion limit."""
    import sys

    levels = sys.getrecursionlimit() + 500
    size, edges, expected = _flower_chain(levels)
    matcher = _DepthProbe(size)
    for v, u, w in edges:
        matcher.set_weight(v, u, w)
    matcher.solve()
    assert matcher.deepest >= levels - 1
    assert matcher.matching() == expected


@st.composite
def _reserved_graphs(
    draw: st.DrawFn,
) -> tuple[int, int, list[int], list[list[str]], list[list[int]], list[tuple[int, list[int]]]]:
    """A graph whose edges are absent, explicit, or reserved (weight F - p_v - p_u),
    then updates of one vertex's explicit weights."""
    n = draw(st.integers(min_value=2, max_value=11))
    flat = draw(st.integers(min_value=12, max_value=40))
    potential = draw(st.lists(st.integers(-3, 5), min_size=n, max_size=n))
    kind = [["none"] * n for _ in range(n)]
    weights = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            k = draw(st.sampled_from(["none", "explicit", "reserved", "reserved"]))
            kind[i][j] = kind[j][i] = k
            if k == "explicit":
                # near the flat weight, so that tight odd cycles (blossoms) form
                near = flat - potential[i] - potential[j] + draw(st.integers(-3, 3))
                weights[i][j] = weights[j][i] = max(1, near)
            elif k == "reserved":
                weights[i][j] = weights[j][i] = flat - potential[i] - potential[j]
    cell = st.one_of(st.just(0), st.integers(min_value=1, max_value=flat + 10))
    updates = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.lists(cell, min_size=n, max_size=n)),
            max_size=4,
        )
    )
    return n, flat, potential, kind, weights, updates


@settings(max_examples=500, deadline=None)
@given(_reserved_graphs())
def test_reserved_edges_count_as_if_they_were_in_the_graph(case: Any) -> None:
    """Edges held in reserve are not scanned, yet the optimum is the optimum over
    every edge, after every update: the duals are checked against them (blossom
    duals included) and an infeasible one is moved into the graph.

    The certificate check catches the exact edge check of `_short_edges` loosened by
    two units. Loosened by one it changes nothing for an edge inside a common blossom:
    the vertices of one blossom share a dual parity and every other term is doubled,
    so such an edge has an even slack. For the other edges it repeats the first filter
    (whose loosening fails this test), so only an edge of slack exactly -1 between
    vertices of different dual parity could slip through; these graphs have not
    produced one."""
    n, flat, potential, kind, weights, updates = case
    matcher = WeightedMatcher(n)
    matcher.set_flat_weights(flat, potential)
    for i in range(n):
        matcher.set_weights(i, [(j, weights[i][j]) for j in range(i) if kind[i][j] == "explicit"])
        matcher.reserve(i, [j for j in range(i) if kind[i][j] == "reserved"])
    for step in range(len(updates) + 1):
        for i in range(n):
            for j in range(n):
                if i != j:
                    assert matcher.weight(i, j) == weights[i][j]
        if not _solves_to_the_optimum(matcher, n, weights):
            return
        if step < len(updates):
            v, row = updates[step]
            matcher.set_weights(v, [(u, row[u]) for u in range(n) if u != v])
            for u in range(n):
                if u != v:
                    weights[v][u] = weights[u][v] = row[u]


def test_reserved_edges_rejected_when_they_weigh_nothing() -> None:
    matcher = WeightedMatcher(3)
    matcher.set_flat_weights(4, [2, 2, 1])
    with pytest.raises(ValueError, match="more than nothing"):
        matcher.reserve(1, [0])
    matcher.reserve(2, [0])
    assert matcher.weight(0, 2) == 1
    with pytest.raises(ValueError, match="fixed once"):
        matcher.set_flat_weights(5, [0, 0, 0])


def test_equal_weights_share_one_stored_integer() -> None:
    """A large bracket's dense rows hold few distinct weights (a first round's are all
    alike), each a few hundred bits wide: one integer object per edge and direction
    took a 5,000-player first round to 3.3 GB. A row set at once, and a run of equal
    weights set one edge at a time, store one integer per distinct value, and every
    edge still reads back its own weight."""
    n = 40
    wide = 3 << 300
    matcher = WeightedMatcher(n)
    row = [(u, wide + (u & 1)) for u in range(n - 1)]  # a new integer on every edge
    matcher.set_weights(n - 1, row)
    stored = matcher._adj[n - 1]  # white box: the matcher's doubled weights
    assert len({id(w) for w in stored.values()}) == 2
    assert {id(matcher._adj[u][n - 1]) for u in range(n - 1)} == {id(w) for w in stored.values()}
    for v in range(0, 38, 2):
        matcher.set_weight(v, v + 1, wide * 5)  # a new integer on every call
    assert len({id(matcher._adj[v][v + 1]) for v in range(0, 38, 2)}) == 1
    assert all(matcher.weight(n - 1, u) == wide + (u & 1) for u in range(n - 1))
    assert all(matcher.weight(v + 1, v) == wide * 5 for v in range(0, 38, 2))
    matcher.set_weight(0, 1, wide)
    assert matcher.weight(0, 1) == wide and matcher.weight(2, 3) == wide * 5


def test_a_copy_shares_no_state_with_its_original() -> None:
    """The 2017 trial pairs a bracket on a copy (`WeightedMatcher.copy`): nothing done
    to the copy, reserved edges included, may reach the original."""
    n = 6
    matcher = WeightedMatcher(n)
    matcher.set_flat_weights(10, [0, 1, 0, 2, 0, 1])
    for v, u in ((0, 1), (2, 3), (4, 5)):
        matcher.set_weight(v, u, 20)
    matcher.reserve(3, [0, 1])
    matcher.reserve(5, [0, 2])
    matcher.solve()
    weights = [[matcher.weight(i, j) for j in range(n)] for i in range(n)]
    assert weights[3][1] == 10 - 2 - 1 and weights[5][0] == 10 - 1
    mates = matcher.matching()
    assert mates == [1, 0, 3, 2, 5, 4]

    trial = matcher.copy()
    trial.fix_pair(3, 0, 1)
    trial.set_weight(1, 2, 5)
    trial.solve()
    assert trial.weight(3, 1) == 0 and trial.weight(5, 0) == 0 and trial.weight(5, 2) == 9
    assert trial.matching() == [3, 2, 1, 0, 5, 4]

    assert [[matcher.weight(i, j) for j in range(n)] for i in range(n)] == weights
    matcher.solve()
    assert matcher.matching() == mates


@st.composite
def _banded_graphs(
    draw: st.DrawFn,
) -> tuple[int, int, list[int], int, list[tuple[int, int]], list[list[int]]]:
    """A field as the Dutch engine lays it out: explicit weights between vertices at
    most `near` apart, the flat weight F - p_v - p_u between the others, but the
    excluded pairs, which weigh nothing."""
    n = draw(st.integers(min_value=2, max_value=11))
    flat = draw(st.integers(min_value=12, max_value=40))
    potential = draw(st.lists(st.integers(-3, 5), min_size=n, max_size=n))
    near = draw(st.integers(0, 3))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1])
    excluded = draw(st.lists(pairs, max_size=6))
    parted = {frozenset(pair) for pair in excluded}
    weights = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i):
            if i - j <= near:
                weight = flat - potential[i] - potential[j] + draw(st.integers(-3, 3))
                weights[i][j] = weights[j][i] = draw(st.sampled_from([0, max(1, weight)]))
            elif frozenset((i, j)) not in parted:
                weights[i][j] = weights[j][i] = flat - potential[i] - potential[j]
    return n, flat, potential, near, excluded, weights


@settings(max_examples=300, deadline=None)
@given(_banded_graphs())
def test_a_reserved_band_is_the_reserve_laid_vertex_by_vertex(case: Any) -> None:
    """`reserve_band` holds the same edges as `reserve` called for each vertex with its
    partners more than `near` above it, and solves to the same optimum and matching."""
    n, flat, potential, near, excluded, weights = case
    parted = {frozenset(pair) for pair in excluded}
    banded, one_by_one = WeightedMatcher(n), WeightedMatcher(n)
    for matcher in (banded, one_by_one):
        matcher.set_flat_weights(flat, potential)
    for i in range(n):
        close = [(j, weights[i][j]) for j in range(max(0, i - near), i)]
        banded.set_weights(i, close)
        one_by_one.set_weights(i, close)
        one_by_one.reserve(i, [j for j in range(i - near) if frozenset((i, j)) not in parted])
    banded.reserve_band(near, excluded)
    for i in range(n):
        for j in range(n):
            if i != j:
                assert banded.weight(i, j) == one_by_one.weight(i, j) == weights[i][j]
    if _solves_to_the_optimum(banded, n, weights):
        one_by_one.solve()
        assert banded.matching() == one_by_one.matching()


def test_a_reserved_band_rejected_when_its_edges_weigh_nothing() -> None:
    matcher = WeightedMatcher(4)
    matcher.set_flat_weights(4, [2, 0, 0, 2])
    with pytest.raises(ValueError, match="more than nothing"):
        matcher.reserve_band(1, [])


@settings(max_examples=300, deadline=None)
@given(_graphs())
def test_an_edge_with_slack_is_in_no_optimal_matching(
    case: tuple[int, list[list[int]], list[Any]],
) -> None:
    """`tight` reads the duals' slack on an edge, blossom duals included, and after a
    solve an edge it finds slack on is in no optimal matching (complementary
    slackness): the best matching through that edge weighs less than the optimum. The
    Dutch engine relies on it to answer an S1 player's question without a solve
    (`_pair_s1`)."""
    n, weights, _ = case
    matcher = WeightedMatcher(n)
    for i in range(n):
        matcher.set_weights(i, [(j, weights[i][j]) for j in range(i)])
    if not _solves_to_the_optimum(matcher, n, weights):
        return
    optimum = _best(n, tuple(tuple(row) for row in weights))
    assert optimum is not None
    slacks = _dual_slacks(matcher)
    for v in range(n):
        for u in range(v):
            if not weights[v][u]:
                continue
            assert matcher.tight(v, u) == (slacks[u, v] == 0)
            if matcher.tight(v, u):
                continue
            others = [k for k in range(n) if k not in (u, v)]
            rest = tuple(tuple(weights[k][m] for m in others) for k in others)
            through = _best(n - 2, rest)  # the others, as many left over as before
            assert through is None or through + weights[v][u] < optimum
