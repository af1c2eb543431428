"""JCA Swiss rules 5.1-5.4 (docs/rules/swiss.md): one group paired by halves (parents and
children), the fewest exchanges when the natural halves cannot be paired, and the
pairing that ignores the halves when no arrangement works."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from math import comb

from service.engine.pairing.matching.cardinality import Neighbours, perfectly_matchable
from service.engine.pairing.round_pairing import PairingError

__all__ = ["pair_inside"]

_Compatible = Callable[[int, int], bool]

_MAX_SPLITS = 2000
"""Half arrangements tried per group before pairing it ignoring the halves (5.4)."""

_MAX_EXCHANGE_LAYER = 20_000
"""Exchanges of one size are only listed (and sorted) when there are at most this many."""


def pair_inside(members: list[int], compatible: _Compatible) -> list[tuple[int, int]]:
    """Pair an even, pairable set: halves (5.1), exchanges (5.2, 5.3), else 5.4."""
    for tried, (parents, children) in enumerate(_splits(members)):
        if tried >= _MAX_SPLITS:
            break
        choice = _first_assignment(parents, children, compatible)
        if choice is not None:
            return list(zip(parents, choice, strict=True))
    return _pair_ignoring_halves(members, compatible)


def _splits(members: Sequence[int]) -> Iterator[tuple[list[int], list[int]]]:
    """Top/bottom halves: natural first, then exchanges in the order of 5.3."""
    half = len(members) // 2
    top, bottom = range(half), range(half, len(members))
    yield list(members[:half]), list(members[half:])
    for count in range(1, half + 1):
        if comb(half, count) ** 2 > _MAX_EXCHANGE_LAYER:
            return
        moves = [
            (out, into) for out in combinations(top, count) for into in combinations(bottom, count)
        ]
        moves.sort(key=lambda m: (sum(m[1]) - sum(m[0]), [-i for i in reversed(m[0])], m[1]))
        for out, into in moves:
            upper = sorted((set(top) - set(out)) | set(into))
            lower = sorted((set(bottom) - set(into)) | set(out))
            yield [members[i] for i in upper], [members[i] for i in lower]


def _first_assignment(
    parents: Sequence[int], children: Sequence[int], compatible: _Compatible
) -> list[int] | None:
    """Lexicographically first perfect parent->child assignment (5.2), or None.

    A perfect matching is found first; then each parent in turn takes the first child
    it can have while the parents after it can still be matched (one augmenting path).
    """
    size = len(parents)
    options = Neighbours(parents, children, compatible)
    of_parent = [-1] * size
    of_child = [-1] * size
    for i in range(size):  # start from the basic pairing 1-5 2-6 ... where it is legal
        if compatible(parents[i], children[i]):
            of_parent[i], of_child[i] = i, i
    for i in range(size):
        if of_parent[i] == -1 and not _augment_bipartite(i, options, of_parent, of_child, 0, set()):
            return None
    for i in range(size):
        for j in range(size):
            if of_child[j] < i:
                continue  # held by an earlier, fixed parent
            if of_parent[i] == j:
                break
            if not compatible(parents[i], children[j]):
                continue
            saved = (of_parent[:], of_child[:])
            owner, previous = of_child[j], of_parent[i]
            of_parent[i], of_child[j] = j, i
            of_parent[owner], of_child[previous] = -1, -1
            if _augment_bipartite(owner, options, of_parent, of_child, i + 1, set()):
                break
            of_parent, of_child = saved
    return [children[j] for j in of_parent]


def _augment_bipartite(
    parent: int,
    options: Neighbours,
    of_parent: list[int],
    of_child: list[int],
    first_free: int,
    seen: set[int],
) -> bool:
    """Kuhn's augmenting path from `parent`, moving only parents >= `first_free`.

    A depth-first search with an explicit stack (no recursion limit on long paths):
    `stack` holds the parents on the path with their remaining options, `via` the
    child each of them would take.
    """
    stack: list[tuple[int, Iterator[int]]] = [(parent, iter(options[parent]))]
    via: list[int] = []
    while stack:
        rest = stack[-1][1]
        for child in rest:
            if child in seen:
                continue
            seen.add(child)
            owner = of_child[child]
            if owner == -1:
                via.append(child)
                for (p, _), c in zip(stack, via, strict=True):
                    of_parent[p], of_child[c] = c, p
                return True
            if owner >= first_free:
                via.append(child)
                stack.append((owner, iter(options[owner])))
                break
        else:
            stack.pop()
            if via:
                via.pop()
    return False


def _pair_ignoring_halves(members: list[int], compatible: _Compatible) -> list[tuple[int, int]]:
    """JCA rules 5.4: the highest player takes the partner nearest half the group below."""
    left = list(members)
    pairs: list[tuple[int, int]] = []
    while left:
        head, others = left[0], left[1:]
        ideal = len(left) // 2 - 1
        order = sorted(range(len(others)), key=lambda i: (abs(i - ideal), i))
        for i in order:
            partner = others[i]
            remaining = [n for n in others if n != partner]
            if compatible(head, partner) and perfectly_matchable(remaining, compatible):
                pairs.append((head, partner))
                left = remaining
                break
        else:  # pragma: no cover - the caller checked that `members` can be paired
            raise PairingError(f"players {members} cannot be paired")
    return pairs
