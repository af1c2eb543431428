"""Pairing one bracket of the team Swiss (FIDE C.04.6 art. 3.6; readings in
docs/rules/team-swiss.md).

A bracket's teams are in pairing order (score, then TPN) and split into the top half
S1 and the bottom half S2. Candidate pairings are taken in lexicographic order: the
highest unpaired team tries S2 teams first, in order, then the S1 teams below it; so
the first candidate is the natural S1-v-S2 pairing, then the S2 transpositions, then
pairings inside S1. The chosen pairing is the first in that order among those that
satisfy the absolute criterion (no two teams meet twice) and are best by the colour
criteria (fewest teams without their preference, then, type B, fewest without a
strong preference).

Search: greedy with an oracle instead of a blind enumeration. The oracle tells the
best criteria value a partial pairing can still reach (a maximum-cardinality matching
when no colour clash is involved, a maximum-weight matching otherwise), so each
accepted pair keeps the optimum reachable and the walk never backtracks. A matching
the oracle returned is kept as a witness: while the witness already pairs the current
team with the candidate, no new oracle call is needed. At most n/2 steps, each trying
at most n candidates, each oracle call polynomial: O(n^4) worst case per bracket,
near O(n^2) in practice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from service.engine.pairing.matching import MatchingError, WeightedMatcher, maximum_matching

__all__ = ["Clash", "Compatible", "pair_bracket"]

Compatible = Callable[[int, int], bool]
"""May these two teams (by number) meet?"""
Clash = Callable[[int, int], tuple[int, int]]
"""(teams losing a preference, teams losing a strong preference) if they meet."""


def candidate_order(size: int, index: int) -> list[int]:
    """Partners for the team at `index`: S2 teams in order, then lower S1 teams."""
    half = size // 2
    later = range(index + 1, size)
    return [j for j in later if j >= half] + [j for j in later if j < half]


def pair_bracket(
    teams: Sequence[int], compatible: Compatible, clash: Clash
) -> list[tuple[int, int]]:
    """The bracket's pairs (higher-placed team first), in the order they were fixed.

    `teams` is in pairing order and must be perfectly pairable (the caller ensures it).
    """
    size = len(teams)
    if size == 0:
        return []
    clash_free = not any(
        clash(teams[i], teams[j]) != (0, 0)
        for i in range(size)
        for j in range(i + 1, size)
        if compatible(teams[i], teams[j])
    )
    if clash_free:
        return _greedy_cardinality(teams, compatible)

    def without_clash(a: int, b: int) -> bool:
        return compatible(a, b) and clash(a, b) == (0, 0)

    if all(m != -1 for m in maximum_matching(teams, without_clash)):
        return _greedy_cardinality(teams, without_clash)
    return _greedy_weighted(teams, compatible, clash)


def _greedy_cardinality(teams: Sequence[int], compatible: Compatible) -> list[tuple[int, int]]:
    size = len(teams)
    witness = _mates(teams, compatible, list(range(size)))
    if witness is None:
        raise ValueError("bracket cannot be paired")
    paired = [False] * size
    pairs: list[tuple[int, int]] = []
    for a in range(size):
        if paired[a]:
            continue
        for c in candidate_order(size, a):
            if paired[c] or not compatible(teams[a], teams[c]):
                continue
            if witness.get(a) != c:
                rest = [i for i in range(size) if not paired[i] and i not in (a, c)]
                found = _mates(teams, compatible, rest)
                if found is None:
                    continue
                witness = found
            paired[a] = paired[c] = True
            pairs.append((teams[a], teams[c]))
            break
        else:  # pragma: no cover - the witness guarantees a partner
            raise ValueError(f"no partner for team {teams[a]}")
    return pairs


def _mates(teams: Sequence[int], compatible: Compatible, rest: list[int]) -> dict[int, int] | None:
    """A perfect matching of the bracket positions `rest` as a mate map, or None."""
    players = [teams[i] for i in rest]
    mate = maximum_matching(players, compatible)
    if any(m == -1 for m in mate):
        return None
    return {rest[v]: rest[m] for v, m in enumerate(mate)}


def _greedy_weighted(
    teams: Sequence[int], compatible: Compatible, clash: Clash
) -> list[tuple[int, int]]:
    """Greedy with a maximum-weight oracle: weight = criteria value scaled, plus a
    small bonus toward lexicographic order so the witness usually agrees."""
    size = len(teams)
    k9 = 1
    k8 = size + 1
    base = k8 * (size + 1) + 1
    scale = size * size + 1  # tie-break bonuses of a whole matching stay below one unit
    rank: dict[tuple[int, int], int] = {}
    for i in range(size):
        for r, j in enumerate(candidate_order(size, i)):
            rank[(i, j)] = r

    def main_weight(i: int, j: int) -> int:
        c8, c9 = clash(teams[i], teams[j])
        return base - c8 * k8 - c9 * k9

    def solve(rest: list[int]) -> tuple[int, dict[int, int]]:
        matcher = WeightedMatcher(len(rest))
        for x, i in enumerate(rest):
            for y in range(x + 1, len(rest)):
                j = rest[y]
                lo, hi = (i, j) if i < j else (j, i)
                if compatible(teams[lo], teams[hi]):
                    bonus = size - rank[(lo, hi)]
                    matcher.set_weight(x, y, main_weight(lo, hi) * scale + bonus)
        try:
            matcher.solve()
        except MatchingError:
            return -1, {}
        mate = matcher.matching()
        total = 0
        mates: dict[int, int] = {}
        for x, y in enumerate(mate[: len(rest)]):
            if y != x:
                mates[rest[x]] = rest[y]
                if x < y:
                    total += main_weight(min(rest[x], rest[y]), max(rest[x], rest[y]))
        return total, mates

    paired = [False] * size
    target, witness = solve(list(range(size)))
    pairs: list[tuple[int, int]] = []
    for a in range(size):
        if paired[a]:
            continue
        for c in candidate_order(size, a):
            if paired[c] or not compatible(teams[a], teams[c]):
                continue
            if witness.get(a) != c:
                rest = [i for i in range(size) if not paired[i] and i not in (a, c)]
                value, found = solve(rest)
                if value + main_weight(a, c) != target or len(found) != len(rest):
                    continue
                witness = found
            paired[a] = paired[c] = True
            target -= main_weight(a, c)
            pairs.append((teams[a], teams[c]))
            break
        else:  # pragma: no cover - the witness guarantees a partner
            raise ValueError(f"no partner for team {teams[a]}")
    return pairs
