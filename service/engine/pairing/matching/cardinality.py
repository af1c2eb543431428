"""Maximum-cardinality matching (Edmonds' blossom algorithm): can a set of players all
be paired, and how many pairs can they make at most?

The systems that settle a round by rules rather than by weights (the JCA Swiss) ask
this many times per group; the greedy start and the short augmenting paths answer most
questions on the dense graphs of a Swiss event before a blossom search is needed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

__all__ = ["Neighbours", "maximum_matching", "maximum_matching_size", "perfectly_matchable"]

_Compatible = Callable[[int, int], bool]

_SHORT_SEARCH_LIMIT = 8
"""Free players up to which short augmenting paths are tried before the blossom search."""


class Neighbours:
    """Compatible partners of each row item, as column indices, computed on first use.

    On the dense graphs of a Swiss event most searches touch few rows, so the quadratic
    table is never built in full.
    """

    def __init__(
        self, rows: Sequence[int], columns: Sequence[int], compatible: _Compatible
    ) -> None:
        self.rows = rows
        self.columns = columns
        self.compatible = compatible
        self.cache: dict[int, list[int]] = {}

    def __getitem__(self, row: int) -> list[int]:
        found = self.cache.get(row)
        if found is None:
            me = self.rows[row]
            found = [
                j
                for j, other in enumerate(self.columns)
                if other != me and self.compatible(me, other)
            ]
            self.cache[row] = found
        return found


def maximum_matching(
    players: Sequence[int], compatible: _Compatible, start: Sequence[int] = ()
) -> list[int]:
    """Mate index per player (-1 when unmatched) of a maximum matching.

    `start` is an optional matching to grow (augmenting paths never unmatch a player).
    """
    size = len(players)
    mate = list(start) if start else [-1] * size
    for v in range(size):  # greedy start; near-linear on the dense graphs of a Swiss
        if mate[v] == -1:
            for u in range(v + 1, size):
                if mate[u] == -1 and compatible(players[v], players[u]):
                    mate[v], mate[u] = u, v
                    break
    if mate.count(-1) <= _SHORT_SEARCH_LIMIT:
        _short_augmentations(players, compatible, mate)
    if mate.count(-1) > size % 2:  # otherwise the matching is already maximum
        adjacency = Neighbours(players, players, compatible)
        for v in range(size):
            if mate[v] == -1:
                _Blossom(size, adjacency, mate).augment(v)
    return mate


def _short_augmentations(players: Sequence[int], compatible: _Compatible, mate: list[int]) -> None:
    """Augmenting paths of length three (free v - a = b - free y), the common case."""
    free = [v for v, m in enumerate(mate) if m == -1]
    for v in free:
        for y in free:
            if y == v or mate[v] != -1 or mate[y] != -1:
                continue
            for a, b in enumerate(mate):
                if (
                    b >= 0
                    and compatible(players[v], players[a])
                    and compatible(players[b], players[y])
                ):
                    mate[v], mate[a], mate[b], mate[y] = a, v, y, b
                    break


def maximum_matching_size(players: Sequence[int], compatible: _Compatible) -> int:
    return sum(1 for m in maximum_matching(players, compatible) if m != -1) // 2


def perfectly_matchable(players: Sequence[int], compatible: _Compatible) -> bool:
    if len(players) % 2:
        return False
    return all(m != -1 for m in maximum_matching(players, compatible))


class _Blossom:
    """One search for an augmenting path from a free vertex, contracting odd cycles."""

    def __init__(self, size: int, adjacency: Neighbours, mate: list[int]) -> None:
        self.adjacency = adjacency
        self.mate = mate
        self.parent = [-1] * size
        self.base = list(range(size))
        self.used = [False] * size
        self.queue: deque[int] = deque()

    def augment(self, root: int) -> bool:
        """Find an augmenting path from `root` and flip it; False when none exists."""
        mate, parent, base = self.mate, self.parent, self.base
        self.used[root] = True
        self.queue.append(root)
        while self.queue:
            v = self.queue.popleft()
            for to in self.adjacency[v]:
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    self._contract(v, to)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        self._flip(to)
                        return True
                    self.used[mate[to]] = True
                    self.queue.append(mate[to])
        return False

    def _flip(self, end: int) -> None:
        vertex = end
        while vertex != -1:
            previous = self.parent[vertex]
            following = self.mate[previous]
            self.mate[vertex], self.mate[previous] = previous, vertex
            vertex = following

    def _common_base(self, a: int, b: int) -> int:
        seen = [False] * len(self.base)
        while True:
            a = self.base[a]
            seen[a] = True
            if self.mate[a] == -1:
                break
            a = self.parent[self.mate[a]]
        while True:
            b = self.base[b]
            if seen[b]:
                return b
            b = self.parent[self.mate[b]]

    def _contract(self, v: int, to: int) -> None:
        lowest = self._common_base(v, to)
        in_blossom = [False] * len(self.base)
        self._mark(v, lowest, to, in_blossom)
        self._mark(to, lowest, v, in_blossom)
        for i in range(len(self.base)):
            if in_blossom[self.base[i]]:
                self.base[i] = lowest
                if not self.used[i]:
                    self.used[i] = True
                    self.queue.append(i)

    def _mark(self, v: int, lowest: int, child: int, in_blossom: list[bool]) -> None:
        while self.base[v] != lowest:
            in_blossom[self.base[v]] = True
            in_blossom[self.base[self.mate[v]]] = True
            self.parent[v] = child
            child = self.mate[v]
            v = self.parent[self.mate[v]]
