"""Maximum-weight matching with cheap re-optimisation after local weight changes.

The Swiss systems that encode their pairing criteria in edge weights (FIDE C.04.3 as
paired by the endorsed weighted-matching engines) ask the same question many times
over: "what is the best matching now that the edges of *this* player changed?". This
module answers it with Edmonds' primal-dual blossom algorithm, kept alive between
questions:

- The problem is solved as a maximum-weight *perfect* matching. An odd vertex count
  gets one dummy vertex joined to every real vertex by a zero-weight edge, so "matched
  to the dummy" means "left unmatched". Real edges of weight 0 do not exist. In the
  perfect-matching linear programme the vertex duals are free in sign, so any vertex
  can be released and re-inserted with a dual that restores feasibility.
- `set_weight(v, u, w)` marks `v` dirty. At the next `solve()`, a dirty vertex whose
  pair is still optimal is only re-priced (its dual set so that the pair is tight;
  this is checked against every edge of the vertex). Otherwise every blossom that
  contains it is dissolved (its dual is spread over its vertices, which keeps every
  edge feasible; the blossom's base loses its now non-tight mate), the vertex is
  unmatched, and its dual is raised until its edges are feasible. The primal-dual
  stages then only have to re-match the few exposed vertices: after k dirty
  vertices a solve costs O(k n^2) instead of O(n^3).
- Within a stage, an edge that would form a blossom inside one alternating tree is
  held back until the queue is empty, because an augmenting path to another tree
  often turns up first; this keeps blossom creation (the costly step) rare.
- A stage does not end at its first augmentation: the two trees the path went through
  are retired, and the other trees keep growing and augmenting along tight edges (no
  dual change) until nothing more is found. The labels of the untouched trees still
  describe alternating paths of tight edges, so each further path is a valid tight
  augmentation and the duals stay a certificate of optimality; only the number of
  stages falls (a re-solve that leaves most vertices exposed took one stage, a full
  scan of the forest, per augmentation).
- Edges can be held in reserve (`reserve`): edges of the form F - p_v - p_u that
  the stages never scan. After each solve the duals are checked against them (a
  bound per vertex from one walk down the blossom tree, `_promote_violated`); an
  edge left infeasible moves into the graph and the matching is re-solved, so the
  optimum is the optimum over every edge. The Dutch engine reserves the pairs
  outside the bracket, whose weights (the completion fields, FIDE C.04.3 C4, with
  the PAB's C2, C5 and C9) all have that form, so its stages scan a sparse graph
  where the field below is all alike.

Integer arithmetic only: weights are doubled internally, and every exposed vertex is
given an even dual at the start of a solve, so that all labelled vertices share a
parity and half-slacks stay integral.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from heapq import nsmallest
from operator import sub

from service.engine.pairing.matching.reserve import ReservedPairs
from service.engine.pairing.round_pairing import PairingError

__all__ = ["MatchingError", "WeightedMatcher"]

_INF = float("inf")

_FREE = 0
_S = 1
_T = 2
_MARK = 4


def _below(lowest: tuple[float, int] | None, second: float | None, branch: int) -> float:
    """The lowest level under a blossom outside its child `branch`."""
    if lowest is None:
        return _INF
    if lowest[1] != branch:
        return lowest[0]
    return _INF if second is None else second


def _copied(item: object) -> object:
    if isinstance(item, (list, dict, set)):
        return item.copy()
    return item


class MatchingError(PairingError):
    """No matching leaves at most the dummy's partner unmatched (no perfect matching)."""


class WeightedMatcher:
    """A maximum-weight matching over `size` vertices that can be re-solved cheaply.

    Vertices are 0..size-1. Weights are non-negative integers; 0 means "no edge".
    The optimum is the maximum total weight over matchings that leave at most one
    vertex unmatched (exactly one when `size` is odd) - the engines that use this
    keep every useful vertex matchable, which makes the two notions coincide.
    """

    def __init__(self, size: int) -> None:
        if size < 0:
            raise ValueError("size must be non-negative")
        self.size = size
        n = size + (size & 1)
        self._n = n
        self._dummy = size if size & 1 else -1
        # Doubled weights; absent edges are missing from the dicts.
        self._adj: list[dict[int, int]] = [{} for _ in range(n)]
        if self._dummy >= 0:
            for v in range(size):
                self._adj[v][self._dummy] = 0
                self._adj[self._dummy][v] = 0
        self._mate = [-1] * n
        self._y = [0] * n
        # Blossom ids are n..2n-1; vertex ids double as trivial blossoms.
        total = 2 * n
        self._z = [0] * total
        self._parent = [-1] * total
        self._childs: list[list[int]] = [[] for _ in range(total)]
        self._cycle: list[list[tuple[int, int]]] = [[] for _ in range(total)]
        self._base = list(range(n)) + [-1] * n
        self._inblossom = list(range(n))
        self._leafs: list[list[int]] = [[v] for v in range(n)] + [[] for _ in range(n)]
        self._free_ids = list(range(total - 1, n - 1, -1))
        self._dirty: set[int] = set(range(n))
        # Edges held in reserve (`reserve`): not scanned by the stages, checked after.
        self._reserve = ReservedPairs(n)
        self._potential = [0] * n
        self._flat = 0
        # Whether a vertex dual may have fallen (or an edge been reserved) since the
        # reserve was last checked: only a fall can leave a reserved edge infeasible.
        self._duals_fell = True
        # Per-stage state.
        self._label = [_FREE] * total
        self._labelend: list[tuple[int, int] | None] = [None] * total
        self._bestedge: list[tuple[int, int] | None] = [None] * total
        self._bestkey = [0] * total
        self._dsum = 0
        self._blossombest: list[list[tuple[int, int]] | None] = [None] * total
        self._queue: list[int] = []
        self._root = [0] * total
        self._forest: set[int] = set()
        self._d2: list[int] = []
        # The last weight `set_weight` stored, and its doubled value.
        self._last_doubled = (0, 0)

    # ------------------------------------------------------------------ public API

    def set_weight(self, v: int, u: int, weight: int) -> None:
        """Set the weight of edge {v, u} (0 removes it); `v` is re-optimised next solve."""
        if v == u:
            raise ValueError("no loops")
        if weight < 0:
            raise ValueError("weights must be non-negative")
        self._reserve.discard(v, u)
        if weight:
            # callers set runs of equal weights: they share one stored integer
            last, doubled = self._last_doubled
            if weight != last:
                doubled = 2 * weight
                self._last_doubled = (weight, doubled)
            self._adj[v][u] = self._adj[u][v] = doubled
        else:
            self._adj[v].pop(u, None)
            self._adj[u].pop(v, None)
        self._dirty.add(v)

    def set_weights(self, v: int, items: Iterable[tuple[int, int]]) -> None:
        """`set_weight(v, u, w)` for every (u, w) in `items` (one dirty vertex).

        Equal weights in one call share one stored integer: a dense row of a large
        bracket holds few distinct weights (all alike in a first round), and a weight
        of a few hundred bits costs tens of bytes as its own object."""
        adj = self._adj
        row = adj[v]
        reserve = self._reserve
        held = reserve.row(v)
        touched = False
        doubled: dict[int, int] = {}
        for u, weight in items:
            if u == v or weight < 0:
                raise ValueError("no loops, and weights must be non-negative")
            touched = True
            if held is not None and held[u]:
                reserve.discard(v, u)
            if weight:
                stored = doubled.get(weight)
                if stored is None:
                    stored = doubled[weight] = 2 * weight
                row[u] = adj[u][v] = stored
            elif u in row:
                del row[u]
                del adj[u][v]
        if touched:
            self._dirty.add(v)

    def fix_pair(self, v: int, u: int, weight: int) -> None:
        """Keep only edge {v, u} (with `weight`) among the real edges of v and u."""
        if v == u or weight <= 0:
            raise ValueError("a fixed pair needs two vertices and a positive weight")
        adj = self._adj
        dummy = self._dummy
        for a in (v, u):
            for x in [x for x in adj[a] if x != dummy]:
                del adj[a][x]
                del adj[x][a]
            self._reserve.clear(a)
        adj[v][u] = adj[u][v] = 2 * weight
        self._dirty.add(v)
        self._dirty.add(u)

    def copy(self) -> WeightedMatcher:
        """An independent copy, solved state and all (the 2017 trial pairs a bracket on
        a copy). The state is containers of containers of numbers and tuples, so two
        levels of copying do, far cheaper than `copy.deepcopy`."""
        clone = object.__new__(type(self))
        for name, value in vars(self).items():
            if isinstance(value, list):
                value = [_copied(item) for item in value]
            elif isinstance(value, (dict, set, ReservedPairs)):
                value = value.copy()
            setattr(clone, name, value)
        return clone

    def extended(self, extra: int) -> WeightedMatcher:
        """A new, unsolved matcher with `extra` more vertices (numbered from `size`,
        without edges) and every edge of this one."""
        grown = WeightedMatcher(self.size + extra)
        dummy = self._dummy
        potential = [p // 2 for p in self._potential[: self.size]] + [0] * extra
        grown.set_flat_weights(self._flat // 2, potential)
        for v in range(self.size):
            row = {u: w // 2 for u, w in self._adj[v].items() if u != dummy and u < v}
            if row:
                grown.set_weights(v, row.items())
            held = [u for u in self._reserve.partners(v) if u < v]
            if held:
                grown.reserve(v, held)
        return grown

    def tight(self, v: int, u: int) -> bool:
        """Whether edge {v, u} has no slack under the duals of the last solve, blossom
        duals included. Duals that certify an optimum leave slack on every edge that
        no optimal matching uses (complementary slackness)."""
        parent = self._parent
        above: set[int] = set()
        b = parent[v]
        while b >= 0:
            above.add(b)
            b = parent[b]
        slack = self._y[v] + self._y[u] - self._adj[v][u]
        b = parent[u]
        while b >= 0:
            if b in above:
                slack += self._z[b]
            b = parent[b]
        return slack == 0

    def weight(self, v: int, u: int) -> int:
        """The current weight of edge {v, u} (0 when absent)."""
        if u == self._dummy or v == self._dummy:
            return 0
        if self._reserve.holds(v, u):
            return self._reserved_weight(v, u) // 2
        return self._adj[v].get(u, 0) // 2

    def set_flat_weights(self, constant: int, potential: Sequence[int]) -> None:
        """The weights of reserved edges: {v, u} weighs `constant - potential[v] -
        potential[u]` (see `reserve`). Set before reserving any edge."""
        if len(potential) != self.size:
            raise ValueError("one potential per vertex")
        if self._reserve:
            raise ValueError("the flat weights are fixed once an edge is reserved")
        self._flat = 2 * constant
        self._potential = [2 * p for p in potential] + [0] * (self._n - self.size)
        self._duals_fell = True

    def reserve(self, v: int, partners: Iterable[int]) -> None:
        """Add edges {v, u} for every u in `partners`, of the weight `set_flat_weights`
        gives them, held in reserve: the stages do not scan them; after each solve the
        vertex duals are checked against them and any edge they leave infeasible is
        moved into the graph and the matching re-solved, so the result is optimal over
        every edge. Meant for the many interchangeable edges of a region where any
        matching weighs the same (the Swiss completion fields)."""
        added = set(partners)
        if not added:
            return
        if v in added:
            raise ValueError("no loops")
        lightest = max(added, key=self._potential.__getitem__)
        if self._reserved_weight(v, lightest) <= 0:
            raise ValueError("a reserved edge must weigh more than nothing")
        adj = self._adj
        row = adj[v]
        for u in row.keys() & added:
            del row[u]
            del adj[u][v]
        self._reserve.add(v, added)
        self._dirty.add(v)
        self._duals_fell = True

    def reserve_band(self, near: int, excluded: Iterable[tuple[int, int]]) -> None:
        """`reserve` every pair of vertices more than `near` apart but the `excluded`
        ones, before any other edge is reserved: the interchangeable pairs of a whole
        field at once (a band of the vertex order, the pairs close to the diagonal
        left to the graph)."""
        size = self.size
        potential = self._potential
        heaviest_above = None  # the largest potential more than `near` above v
        for v in range(near + 1, size):
            p = potential[v - near - 1]
            if heaviest_above is None or p > heaviest_above:
                heaviest_above = p
            if self._flat - potential[v] - heaviest_above <= 0:
                raise ValueError("a reserved edge must weigh more than nothing")
        reserve = self._reserve
        reserve.add_band(near, size, excluded)
        adj = self._adj
        for v in range(size):
            row = adj[v]
            held = reserve.row(v)
            assert held is not None
            for u in [u for u in row if u < size and held[u]]:
                del row[u]
                del adj[u][v]
        self._dirty.update(range(size))
        self._duals_fell = True

    def _reserved_weight(self, v: int, u: int) -> int:
        """The doubled weight of reserved edge {v, u}."""
        return self._flat - self._potential[v] - self._potential[u]

    def _admit(self, v: int, u: int) -> int:
        """Move reserved edge {v, u} into the graph; its doubled weight."""
        self._reserve.discard(v, u)
        weight = self._adj[v][u] = self._adj[u][v] = self._reserved_weight(v, u)
        return weight

    def solve(self) -> None:
        """Re-optimise the matching for the current weights."""
        while True:
            if self._dirty:
                self._release_dirty()
            for v in self._exposed():
                if self._y[v] & 1:
                    self._make_even(self._inblossom[v], v)
            try:
                while True:
                    exposed = self._exposed()
                    if not exposed:
                        break
                    self._stage(exposed)
            except MatchingError:
                # The graph without the reserve has no perfect matching: take it all.
                if not self._reserve:
                    raise
                self._promote_all()
                continue
            if not self._promote_violated():
                return

    def _exposed(self) -> list[int]:
        """The unmatched vertices, in order: found by C-level `index` scans, as a solve
        leaves few of them and asks after every stage."""
        mate = self._mate
        found: list[int] = []
        v = -1
        try:
            while True:
                v = mate.index(-1, v + 1)
                found.append(v)
        except ValueError:
            return found

    def _promote_violated(self) -> bool:
        """Move every reserved edge the duals leave infeasible into the graph.

        Reserved edge {v, u} weighs F - p_v - p_u; its slack is (y_v + p_v) + (y_u +
        p_u) - F plus the duals of the blossoms holding both ends. Call y_v + p_v the
        level of v. Checked edge by edge, that would scan every reserved edge after
        every solve; bounds come first. Two vertices whose lowest common blossom is B
        lie in different children of B, so the slack of their edge is at least v's
        level, plus the lowest level in B's other children, plus the duals of B and
        the blossoms above it, less F (`_lowest_levels`). One walk down the blossom
        tree carries the least such bound to every vertex; only a vertex some bound
        fails has its edges checked one by one. No edge moved means the duals are
        feasible for every edge, reserved ones included, so the matching is optimal
        (LP duality). Blossom duals are never negative, so when the two lowest levels
        of all reach F no edge can fall short, and the walk is not needed."""
        if not self._duals_fell:
            return False
        self._duals_fell = False
        holders = self._reserve.holders()
        if not holders:
            return False
        y = self._y
        potential = self._potential
        flat = self._flat
        levels = [y[v] + potential[v] for v in holders]
        lowest_two = nsmallest(2, levels)
        if len(lowest_two) < 2 or lowest_two[0] + lowest_two[1] >= flat:
            return False
        level = dict(zip(holders, levels, strict=True))
        inside, lowest, second = self._lowest_levels(level)
        parent = self._parent
        z = self._z
        childs = self._childs
        n = self._n
        top_first, top_other = lowest[-1], second.get(-1)
        stack = [
            (node, _below(top_first, top_other, node), 0)
            for node in inside
            if node >= 0 and parent[node] < 0
        ]
        failing: list[int] = []
        while stack:
            node, bound, above = stack.pop()
            if node < n:
                if bound + level[node] < flat:
                    failing.append(node)
                continue
            above += z[node]
            first, other = lowest[node], second.get(node)
            for child in childs[node]:
                if child in inside:
                    reach = min(bound, _below(first, other, child) + above)
                    stack.append((child, reach, above))
        moved = False
        for v in failing:
            short = self._short_edges(v, flat - level[v])
            for u in short:
                self._admit(v, u)
            if short:
                self._dirty.add(v)
                moved = True
        return moved

    def _promote_all(self) -> None:
        """Move every reserved edge into the graph; the ends of an edge the duals
        leave infeasible are re-optimised at the next solve."""
        y = self._y
        reserve = self._reserve
        for v in reserve.holders():
            for u in list(reserve.partners(v)):
                if y[v] + y[u] < self._admit(v, u):
                    self._dirty.update((v, u))

    def _lowest_levels(
        self, level: dict[int, int]
    ) -> tuple[dict[int, float], dict[int, tuple[float, int]], dict[int, float]]:
        """The lowest level inside each blossom or vertex holding a vertex of `level`;
        then for each blossom among them (and -1 for the whole graph, whose children
        are the top-level blossoms) the lowest level inside it with the child it lies
        in, and the lowest inside its other children."""
        parent = self._parent
        inside: dict[int, float] = {}
        for v, value in level.items():
            node = v
            while node >= 0 and inside.get(node, _INF) > value:
                inside[node] = value
                node = parent[node]
        lowest: dict[int, tuple[float, int]] = {}
        second: dict[int, float] = {}
        for node, low in inside.items():
            b = parent[node]
            first = lowest.get(b)
            if first is None or low < first[0]:
                if first is not None:
                    second[b] = first[0]
                lowest[b] = (low, node)
            elif low < second.get(b, _INF):
                second[b] = low
        return inside, lowest, second

    def _short_edges(self, v: int, need: int) -> list[int]:
        """The reserved partners u of v whose level, with the duals of the blossoms
        holding both, falls short of `need`."""
        y = self._y
        potential = self._potential
        short = [u for u in self._reserve.partners(v) if y[u] + potential[u] < need]
        parent = self._parent
        if not short or parent[v] < 0:
            return short
        z = self._z
        chain = []
        b = parent[v]
        while b >= 0:
            chain.append(b)
            b = parent[b]
        above: dict[int, int] = {}
        total = 0
        for b in reversed(chain):
            total += z[b]
            above[b] = total
        kept = []
        for u in short:
            b = parent[u]
            while b >= 0 and b not in above:
                b = parent[b]
            common = above[b] if b >= 0 else 0
            if y[u] + potential[u] + common < need:
                kept.append(u)
        return kept

    def mate(self, v: int) -> int:
        """The vertex matched to `v`, or `v` itself when it is unmatched."""
        m = self._mate[v]
        if m < 0 or m == self._dummy:
            return v
        return m

    def matching(self) -> list[int]:
        """`mate(v)` for every vertex.

        A copy of the mates (the dummy's left out) with the few unmatched vertices
        (`_exposed`, or the dummy's partner) set to themselves: after a solve there is
        at most one, and the engines ask after every solve."""
        size = self.size
        mates = self._mate[:size]
        for v in self._exposed():
            if v < size:
                mates[v] = v
        if self._dummy >= 0 and (alone := self._mate[self._dummy]) >= 0:
            mates[alone] = alone
        return mates

    # ------------------------------------------------------------ dynamic release

    def _leaves(self, b: int) -> list[int]:
        """The vertices inside blossom `b` (cached; do not modify)."""
        return self._leafs[b]

    def _dissolve(self, b: int) -> None:
        """Remove top-level blossom `b`, spreading its dual over its vertices."""
        half = self._z[b] // 2
        y = self._y
        for v in self._leaves(b):
            y[v] += half
        for c in self._childs[b]:
            self._parent[c] = -1
            for v in self._leaves(c):
                self._inblossom[v] = c
        base = self._base[b]
        m = self._mate[base]
        if m >= 0:
            self._mate[base] = -1
            self._mate[m] = -1
        self._free_blossom(b)

    def _make_even(self, b: int, base: int) -> None:
        """Give the exposed blossom `b` (base `base`) even vertex duals, keeping feasibility.

        All vertices of a blossom share a dual parity. Raising them all by one and
        lowering the blossom dual by two keeps its inner edges tight; a blossom with
        a zero dual is dissolved instead and the child holding the base is fixed.
        """
        while True:
            if b < self._n:
                self._y[b] += 1
                return
            if self._z[b] >= 2:
                for v in self._leaves(b):
                    self._y[v] += 1
                self._z[b] -= 2
                return
            self._dissolve(b)
            b = self._inblossom[base]

    def _free_blossom(self, b: int) -> None:
        self._childs[b] = []
        self._cycle[b] = []
        self._leafs[b] = []
        self._base[b] = -1
        self._z[b] = 0
        self._parent[b] = -1
        self._label[b] = _FREE
        self._labelend[b] = None
        self._bestedge[b] = None
        self._blossombest[b] = None
        self._free_ids.append(b)

    def _keep_if_still_optimal(self, dirty: list[int]) -> list[int]:
        """Re-price dirty vertices whose pair stays optimal; return the others.

        A trivial vertex v matched to m keeps its pair when the dual
        y_v = w(v, m) - y_m covers every other edge of v: then all edges are
        feasible and the matched ones tight, so the matching is still optimal.
        """
        mate = self._mate
        y = self._y
        adj = self._adj
        inblossom = self._inblossom
        kept: list[int] = []
        for v in dirty:
            m = mate[v]
            if m < 0 or inblossom[v] != v or m not in adj[v]:
                continue
            yv = adj[v][m] - y[m]
            for u, w in adj[v].items():
                if w - y[u] > yv:
                    break
            else:
                if yv < y[v]:
                    self._duals_fell = True
                y[v] = yv
                kept.append(v)
        kept_set = set(kept)
        # Later re-pricings may have lowered the dual of an earlier vertex's neighbour.
        bad = {
            v
            for v in kept
            if any(y[v] + y[u] < w for u, w in adj[v].items())
            or y[v] + y[mate[v]] != adj[v][mate[v]]
        }
        return [v for v in dirty if v not in kept_set or v in bad]

    def _release_dirty(self) -> None:
        dirty = sorted(self._dirty)
        self._dirty = set()
        dirty = self._keep_if_still_optimal(dirty)
        if not dirty:
            return
        if all(m < 0 for m in self._mate):
            self._restart()
            return
        mate = self._mate
        for v in dirty:
            while self._inblossom[v] != v:
                self._dissolve(self._inblossom[v])
            m = mate[v]
            if m >= 0:
                mate[v] = -1
                mate[m] = -1
        y = self._y
        adj = self._adj
        self._duals_fell = True
        # Two sweeps: the second lowers each dual to the least feasible value given
        # the others' new duals, which leaves every vertex with a tight edge.
        need = y.__getitem__
        for _ in range(2):
            for v in dirty:
                row = adj[v]
                y[v] = max(map(sub, row.values(), map(need, row)), default=0)
        self._greedy(dirty)

    def _restart(self) -> None:
        """Start from scratch: no blossoms, no pairs, duals lowered until tight.

        Each dual starts at half its heaviest edge (feasible), then one sweep lowers
        every dual to the least value its edges allow given the others' current duals
        (still feasible, and every vertex gets a tight edge). When the weights are
        sums of per-vertex parts plus a few fine fields, as the Swiss criteria make
        them, the sweep finds those parts and the greedy pass pairs almost everybody,
        so the stages have few exposed vertices left to match.
        """
        n = self._n
        for b in range(n, 2 * n):
            if self._base[b] >= 0:
                self._free_blossom(b)
        self._inblossom = list(range(n))
        self._parent = [-1] * (2 * n)
        self._mate = [-1] * n
        adj = self._adj
        self._duals_fell = True
        y = self._y = [max(a.values(), default=0) // 2 for a in adj]
        need = y.__getitem__
        for v in range(n):
            row = adj[v]
            y[v] = max(map(sub, row.values(), map(need, row)), default=0)
        self._greedy(range(n))

    def _greedy(self, vertices: Iterable[int]) -> None:
        """Pair exposed trivial vertices along tight edges (a cheap head start)."""
        mate = self._mate
        y = self._y
        inblossom = self._inblossom
        for v in vertices:
            if mate[v] >= 0 or inblossom[v] != v:
                continue
            yv = y[v]
            for u, w in self._adj[v].items():
                if mate[u] < 0 and inblossom[u] == u and yv + y[u] == w:
                    mate[v] = u
                    mate[u] = v
                    break
        # Augmenting paths of length three along tight edges: v - u = x - t.
        adj = self._adj
        for v in vertices:
            if mate[v] >= 0 or inblossom[v] != v:
                continue
            yv = y[v]
            done = False
            for u, w in adj[v].items():
                x = mate[u]
                if x < 0 or inblossom[u] != u or inblossom[x] != x or yv + y[u] != w:
                    continue
                yx = y[x]
                for t, w2 in adj[x].items():
                    if t != v and mate[t] < 0 and inblossom[t] == t and yx + y[t] == w2:
                        mate[v] = u
                        mate[u] = v
                        mate[x] = t
                        mate[t] = x
                        done = True
                        break
                if done:
                    break

    # ------------------------------------------------------------------- a stage

    def _slack(self, v: int, u: int) -> int:
        return self._y[v] + self._y[u] - self._adj[v][u]

    def _assign_label(self, w: int, t: int, p: tuple[int, int] | None) -> None:
        b = self._inblossom[w]
        self._label[w] = self._label[b] = t
        self._labelend[w] = self._labelend[b] = p
        self._root[b] = b if p is None else self._root[self._inblossom[p[0]]]
        self._forest.add(b)
        self._bestedge[w] = self._bestedge[b] = None
        if t == _S:
            self._queue.extend(self._leaves(b))
        else:
            base = self._base[b]
            m = self._mate[base]
            self._assign_label(m, _S, (base, m))

    def _scan_blossom(self, v: int, w: int) -> int:
        """Trace from v and w to the roots; the base of the new blossom, or -1."""
        label = self._label
        labelend = self._labelend
        inblossom = self._inblossom
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            if v != -1:
                b = inblossom[v]
                if label[b] & _MARK:
                    base = self._base[b]
                    break
                path.append(b)
                label[b] = _S | _MARK
                le = labelend[b]
                if le is None:
                    v = -1
                else:
                    t = le[0]
                    le_t = labelend[inblossom[t]]
                    assert le_t is not None
                    v = le_t[0]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = _S
        return base

    def _add_blossom(self, base: int, v: int, w: int) -> None:
        inblossom = self._inblossom
        labelend = self._labelend
        parent = self._parent
        bb = inblossom[base]
        b = self._free_ids.pop()
        self._base[b] = base
        parent[b] = -1
        parent[bb] = b
        side_v: list[int] = []
        bv = inblossom[v]
        while bv != bb:
            parent[bv] = b
            side_v.append(bv)
            le = labelend[bv]
            assert le is not None
            bv = inblossom[le[0]]
        side_w: list[int] = []
        bw = inblossom[w]
        while bw != bb:
            parent[bw] = b
            side_w.append(bw)
            le = labelend[bw]
            assert le is not None
            bw = inblossom[le[0]]
        side_v.reverse()
        childs = [bb, *side_v, *side_w]
        cycle: list[tuple[int, int]] = []
        for c in side_v:
            le = labelend[c]
            assert le is not None
            cycle.append(le)
        cycle.append((v, w))
        for c in side_w:
            le = labelend[c]
            assert le is not None
            cycle.append((le[1], le[0]))
        self._childs[b] = childs
        self._cycle[b] = cycle
        leafs = self._leafs
        leafs[b] = [x for c in childs for x in leafs[c]]
        self._label[b] = _S
        self._root[b] = self._root[bb]
        forest = self._forest
        for c in childs:
            forest.discard(c)
        forest.add(b)
        labelend[b] = labelend[bb]
        self._z[b] = 0
        label = self._label
        queue = self._queue
        leaves = self._leaves(b)
        for x in leaves:
            if label[inblossom[x]] == _T:
                queue.append(x)
            inblossom[x] = b
        # Least-slack edges from the new blossom to other S-blossoms.
        best_to: dict[int, tuple[int, int]] = {}
        best_slack: dict[int, int] = {}
        y = self._y
        adj = self._adj
        for c in childs:
            lists = self._blossombest[c]
            if lists is None:
                for x in leafs[c]:
                    yx = y[x]
                    for u, wt in adj[x].items():
                        bu = inblossom[u]
                        if bu != b and label[bu] == _S:
                            s = yx + y[u] - wt
                            old = best_slack.get(bu)
                            if old is None or s < old:
                                best_slack[bu] = s
                                best_to[bu] = (x, u)
            else:
                for x, u in lists:
                    bu = inblossom[u]
                    if bu != b and label[bu] == _S:
                        s = y[x] + y[u] - adj[x][u]
                        old = best_slack.get(bu)
                        if old is None or s < old:
                            best_slack[bu] = s
                            best_to[bu] = (x, u)
            self._blossombest[c] = None
            self._bestedge[c] = None
        self._blossombest[b] = list(best_to.values())
        best: tuple[int, int] | None = None
        bs = 0
        for bu, e in best_to.items():
            if best is None or best_slack[bu] < bs:
                best = e
                bs = best_slack[bu]
        self._bestedge[b] = best
        self._bestkey[b] = bs + 2 * self._dsum

    def _expand_blossom(self, b: int, endstage: bool) -> None:
        """Dissolve blossom `b` into its children (at the end of a stage, also every
        sub-blossom with a zero dual, through a work list rather than recursion)."""
        n = self._n
        parent = self._parent
        inblossom = self._inblossom
        label = self._label
        labelend = self._labelend
        z = self._z
        if endstage:
            work = [b]
            while work:
                top = work.pop()
                for c in self._childs[top]:
                    parent[c] = -1
                    if c < n:
                        inblossom[c] = c
                    elif z[c] == 0:
                        work.append(c)
                    else:
                        for x in self._leaves(c):
                            inblossom[x] = c
                self._free_blossom(top)
            return
        for c in self._childs[b]:
            parent[c] = -1
            if c < n:
                inblossom[c] = c
            else:
                for x in self._leaves(c):
                    inblossom[x] = c
        if label[b] == _T:
            self._forest.discard(b)
            le_b = labelend[b]
            assert le_b is not None
            childs = self._childs[b]
            for c in childs:
                self._root[c] = self._root[b]
            cycle = self._cycle[b]
            k = len(childs)
            entry = inblossom[le_b[1]]
            j = childs.index(entry)
            step = 1 if j & 1 else -1
            p = le_b
            while j % k != 0:
                # Child j gets T through p; its partner along the path gets S.
                label[p[1]] = _FREE
                if step == 1:
                    q = cycle[j % k]
                    nxt = q[1]
                else:
                    q = cycle[(j - 1) % k]
                    nxt = q[0]
                label[nxt] = _FREE
                self._assign_label(p[1], _T, p)
                j += step
                if step == 1:
                    e = cycle[j % k]
                    p = (e[0], e[1])
                else:
                    e = cycle[(j - 1) % k]
                    p = (e[1], e[0])
                j += step
            bv = childs[0]
            label[p[1]] = label[bv] = _T
            labelend[p[1]] = labelend[bv] = p
            self._bestedge[bv] = None
            self._forest.add(bv)
            j += step
            while childs[j % k] != entry:
                bv = childs[j % k]
                if label[bv] == _S:
                    j += step
                    continue
                found = -1
                for x in self._leaves(bv):
                    if label[x] != _FREE:
                        found = x
                        break
                if found >= 0:
                    label[found] = _FREE
                    label[self._mate[self._base[bv]]] = _FREE
                    self._assign_label(found, _T, labelend[found])
                j += step
        self._free_blossom(b)

    def _augment_blossom(self, b: int, v: int) -> None:
        """Make `v` the base of blossom `b`, flipping the matching inside.

        Iterative (a work list instead of recursion), so blossoms nested thousands
        of levels deep need no interpreter recursion limit. The sub-blossoms that a
        step rebases are disjoint and the new base of each is never matched inside
        it, so the order in which the work list is done does not change the result.
        """
        parent = self._parent
        n = self._n
        mate = self._mate
        child_of = self._child_of
        work = [(b, v)]
        while work:
            b, v = work.pop()
            t = v
            while parent[t] != b:
                t = parent[t]
            if t >= n:
                work.append((t, v))
            childs = self._childs[b]
            cycle = self._cycle[b]
            k = len(childs)
            i = childs.index(t)
            # Odd i: forward i -> ... -> k-1 -> 0, matching edges i+1, i+3, ..., k-1.
            # Even i: backward i -> ... -> 0, matching edges i-2, i-4, ..., 0.
            idxs = range(i + 1, k, 2) if i & 1 else range(i - 2, -1, -2)
            for j in idxs:
                x, u = cycle[j]
                cx = child_of(b, x)
                cu = child_of(b, u)
                if cx >= n:
                    work.append((cx, x))
                if cu >= n:
                    work.append((cu, u))
                mate[x] = u
                mate[u] = x
            self._childs[b] = childs[i:] + childs[:i]
            self._cycle[b] = cycle[i:] + cycle[:i]
            self._base[b] = v

    def _child_of(self, b: int, v: int) -> int:
        t = v
        parent = self._parent
        while parent[t] != b:
            t = parent[t]
        return t

    def _augment_matching(self, v: int, w: int) -> None:
        n = self._n
        inblossom = self._inblossom
        labelend = self._labelend
        mate = self._mate
        for s, j in ((v, w), (w, v)):
            while True:
                bs = inblossom[s]
                if bs >= n:
                    self._augment_blossom(bs, s)
                mate[s] = j
                le = labelend[bs]
                if le is None:
                    break
                t = le[0]
                bt = inblossom[t]
                le_t = labelend[bt]
                assert le_t is not None
                u, w2 = le_t
                if bt >= n:
                    self._augment_blossom(bt, w2)
                mate[w2] = u
                s, j = u, w2

    def _stage(self, exposed: list[int]) -> None:
        """One primal-dual stage: grow alternating trees until an augmentation, then
        augment along tight edges between the trees not yet used in this stage.

        Least-slack edges are compared by keys that dual changes leave alone (the
        duals of S-vertices fall by the stage's running total of deltas, `dsum`): an
        edge from S-vertex s into a vertex outside the S-blossoms has the key
        y_s + dsum - w (edges into one vertex differ in slack as in key), an edge
        between two S-blossoms has its slack + 2 dsum."""
        n = self._n
        total = 2 * n
        inblossom = self._inblossom
        parent = self._parent
        base_of = self._base
        adj = self._adj
        y = self._y
        z = self._z
        label = [_FREE] * total
        labelend: list[tuple[int, int] | None] = [None] * total
        bestedge: list[tuple[int, int] | None] = [None] * total
        self._label, self._labelend, self._bestedge = label, labelend, bestedge
        bestkey = self._bestkey
        self._blossombest = [None] * total
        self._queue = []
        self._dsum = dsum = 0
        forest: set[int] = set()
        d2: list[int] = []
        self._forest = forest
        self._d2 = d2
        for v in exposed:
            if label[inblossom[v]] == _FREE:
                self._assign_label(v, _S, None)
        root = self._root
        # Roots of the trees an augmentation went through in this stage: their labels
        # no longer describe alternating paths, so no edge into them is used again.
        dead: set[int] = set()
        while True:
            augmented = False
            queue = self._queue
            deferred: list[tuple[int, int]] = []
            while True:
                while queue:
                    v = queue.pop()
                    bv = inblossom[v]
                    yv = y[v]
                    if augmented:
                        # After an augmentation only tight edges between live trees
                        # are followed; the duals stay as they are.
                        if root[bv] in dead:
                            continue
                        for w, wt in adj[v].items():
                            if yv + y[w] != wt:
                                continue
                            bw = inblossom[w]
                            if bw == bv:
                                continue
                            lbw = label[bw]
                            if lbw == _FREE:
                                self._assign_label(w, _T, (v, w))
                            elif root[bw] in dead:
                                continue
                            elif lbw == _S:
                                if root[bw] != root[bv]:
                                    dead.add(root[bv])
                                    dead.add(root[bw])
                                    self._augment_matching(v, w)
                                    break
                                deferred.append((v, w))
                            elif label[w] == _FREE:
                                label[w] = _T
                                labelend[w] = (v, w)
                        continue
                    key_out = yv + dsum
                    key_ss = 2 * dsum
                    for w, wt in adj[v].items():
                        bw = inblossom[w]
                        if bw == bv:
                            continue
                        kslack = yv + y[w] - wt
                        lbw = label[bw]
                        if kslack <= 0:
                            if lbw == _FREE:
                                self._assign_label(w, _T, (v, w))
                            elif lbw == _S:
                                if root[bw] != root[bv]:
                                    dead.add(root[bv])
                                    dead.add(root[bw])
                                    self._augment_matching(v, w)
                                    augmented = True
                                    break
                                # Same tree: form the blossom later, an augmenting
                                # path may turn up first.
                                deferred.append((v, w))
                            elif label[w] == _FREE:
                                label[w] = _T
                                labelend[w] = (v, w)
                        elif lbw == _S:
                            key = kslack + key_ss
                            if bestedge[bv] is None or key < bestkey[bv]:
                                bestedge[bv] = (v, w)
                                bestkey[bv] = key
                        elif label[w] == _FREE:
                            key = key_out - wt
                            if bestedge[w] is None:
                                bestedge[w] = (v, w)
                                bestkey[w] = key
                                d2.append(w)
                            elif key < bestkey[w]:
                                bestedge[w] = (v, w)
                                bestkey[w] = key
                if not deferred:
                    break
                v, w = deferred.pop()
                bv, bw = inblossom[v], inblossom[w]
                if dead and (root[bv] in dead or root[bw] in dead):
                    continue
                if bv != bw and label[bv] == _S and label[bw] == _S:
                    base = self._scan_blossom(v, w)
                    if base >= 0:
                        self._add_blossom(base, v, w)
                    else:
                        dead.add(root[bv])
                        self._augment_matching(v, w)
                        augmented = True
            if augmented:
                break
            # Dual adjustment.
            delta = 0
            dtype = 0
            dedge: tuple[int, int] | None = None
            dblossom = -1
            for v in d2:
                be = bestedge[v]
                if be is not None and label[inblossom[v]] == _FREE:
                    d = bestkey[v] - dsum + y[v]
                    if dtype == 0 or d < delta:
                        delta, dtype, dedge = d, 2, be
            key_ss = 2 * dsum
            for b in forest:
                lb = label[b]
                if lb == _S:
                    be = bestedge[b]
                    if be is not None:
                        d = (bestkey[b] - key_ss) // 2
                        if dtype == 0 or d < delta:
                            delta, dtype, dedge = d, 3, be
                elif lb == _T and b >= n:
                    d = z[b] // 2
                    if dtype == 0 or d < delta:
                        delta, dtype, dblossom = d, 4, b
            if dtype == 0:
                raise MatchingError("no perfect matching exists")
            if delta:
                self._duals_fell = True
                leafs = self._leafs
                for b in forest:
                    if label[b] == _S:
                        for v in leafs[b]:
                            y[v] -= delta
                        if b >= n:
                            z[b] += 2 * delta
                    else:
                        for v in leafs[b]:
                            y[v] += delta
                        if b >= n:
                            z[b] -= 2 * delta
                dsum += delta
                self._dsum = dsum
            if dtype == 4:
                self._expand_blossom(dblossom, False)
            else:
                assert dedge is not None
                self._queue.append(dedge[0])
        for b in range(n, total):
            if base_of[b] >= 0 and parent[b] == -1 and label[b] == _S and z[b] == 0:
                self._expand_blossom(b, True)
