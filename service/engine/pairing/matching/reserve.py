"""The edges a `WeightedMatcher` holds in reserve: a symmetric set of vertex pairs.

The Dutch engine reserves nearly every pair of the field (the completion fields
outside the bracket), so this is a dense relation: a pair set would spend tens of
bytes per pair (a 5,000-player round holds 12.5 million pairs, twice, over a
gigabyte), where one byte per ordered pair does (25 MB). Rows are allocated when a
vertex first holds a reserved edge; a vertex's partners are listed at C speed
(`itertools.compress` over its row), which is all the matcher's checks need.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import compress

__all__ = ["ReservedPairs"]


class ReservedPairs:
    """A symmetric relation over vertices 0..size-1, one byte per ordered pair."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._rows: list[bytearray | None] = [None] * size
        self._counts = [0] * size
        self._total = 0

    def __bool__(self) -> bool:
        return self._total > 0

    def holds(self, v: int, u: int) -> bool:
        """Whether {v, u} is reserved."""
        row = self._rows[v]
        return row is not None and row[u] == 1

    def row(self, v: int) -> bytearray | None:
        """The row of `v` (1 where the pair is reserved), None when it holds none; for
        fast membership tests in a loop. Read only: change it through `add`/`discard`."""
        return self._rows[v]

    def partners(self, v: int) -> Iterator[int]:
        """The vertices reserved with `v`, in increasing order."""
        row = self._rows[v]
        return compress(range(self._size), row) if row is not None else iter(())

    def holders(self) -> list[int]:
        """The vertices holding at least one reserved edge."""
        return list(compress(range(self._size), self._counts))

    def add(self, v: int, partners: Iterable[int]) -> None:
        """Reserve {v, u} for every u in `partners` (u != v)."""
        rows = self._rows
        counts = self._counts
        mine = self._row(v)
        added = 0
        for u in partners:
            if not mine[u]:
                mine[u] = 1
                theirs = rows[u]
                if theirs is None:
                    theirs = self._row(u)
                theirs[v] = 1
                counts[u] += 1
                added += 1
        counts[v] += added
        self._total += added

    def add_band(self, near: int, size: int, excluded: Iterable[tuple[int, int]]) -> None:
        """Reserve every pair {u, v} of vertices below `size` more than `near` apart,
        but the `excluded` pairs, on a relation that holds none yet: each row is
        filled by slices and counted at C speed, where `add` costs a Python step
        per pair (a whole field's outside pairs, row by row)."""
        if self._total:
            raise ValueError("a band is laid on an empty relation")
        width = self._size
        ones = b"\x01" * width
        band: list[bytearray] = []
        for v in range(size):
            row = bytearray(width)
            above = v - near
            if above > 0:
                row[:above] = ones[:above]
            below = v + near + 1
            if below < size:
                row[below:size] = ones[below:size]
            band.append(row)
        for a, b in excluded:
            if a < size and b < size:
                band[a][b] = band[b][a] = 0
        counts = self._counts
        for v, row in enumerate(band):
            self._rows[v] = row
            counts[v] = row.count(1)
        self._total = sum(counts) // 2

    def discard(self, v: int, u: int) -> bool:
        """Drop {v, u}; whether it was reserved."""
        row = self._rows[v]
        if row is None or not row[u]:
            return False
        row[u] = 0
        theirs = self._rows[u]
        assert theirs is not None
        theirs[v] = 0
        self._counts[v] -= 1
        self._counts[u] -= 1
        self._total -= 1
        return True

    def clear(self, v: int) -> None:
        """Drop every reserved edge of `v`."""
        row = self._rows[v]
        if row is None or not self._counts[v]:
            return
        rows = self._rows
        counts = self._counts
        for u in compress(range(self._size), row):
            theirs = rows[u]
            assert theirs is not None
            theirs[v] = 0
            counts[u] -= 1
        row[:] = bytes(self._size)
        self._total -= counts[v]
        counts[v] = 0

    def copy(self) -> ReservedPairs:
        """An independent copy."""
        clone = ReservedPairs(self._size)
        clone._rows = [None if row is None else row.copy() for row in self._rows]
        clone._counts = self._counts.copy()
        clone._total = self._total
        return clone

    def _row(self, v: int) -> bytearray:
        row = self._rows[v]
        if row is None:
            row = self._rows[v] = bytearray(self._size)
        return row
