"""JCA Swiss rules, sections 4-5 (docs/rules/swiss.md): score groups, the order they are
paired in (5.6), and one group's floaters (4.3, 5.4, 5.5); the halves of a group are
paired in `halves.py`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from itertools import combinations, product
from math import comb

from service.engine.pairing.jca.halves import pair_inside
from service.engine.pairing.matching import (
    maximum_matching,
    maximum_matching_size,
    perfectly_matchable,
)
from service.engine.pairing.round_pairing import PairingError

__all__ = ["Compatible", "pair_groups", "score_groups"]

Compatible = Callable[[int, int], bool]
"""Whether two players may meet (JCA rules 4.2)."""

_MAX_FLOATER_SETS = 3000
"""Candidate floater sets tried per group before the fallback search (5.4)."""


def score_groups(ranked: Sequence[int], score: dict[int, Fraction]) -> list[list[int]]:
    groups: list[list[int]] = []
    for number in ranked:
        if groups and score[groups[-1][0]] == score[number]:
            groups[-1].append(number)
        else:
            groups.append([number])
    return groups


def _middle_index(groups: Sequence[Sequence[int]], score: dict[int, Fraction]) -> int:
    """JCA rules 5.6: the group nearest the midpoint of the score range (ties: higher)."""
    values = [score[group[0]] for group in groups]
    target = (values[0] + values[-1]) / 2
    return min(range(len(values)), key=lambda i: (abs(values[i] - target), i))


def pair_groups(
    groups: list[list[int]],
    score: dict[int, Fraction],
    compatible: Compatible,
    reverse_from_middle: bool,
    notes: list[str],
) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    if not groups:
        return pairs
    middle = _middle_index(groups, score) if reverse_from_middle else len(groups) - 1
    down: list[int] = []
    for index in range(middle):
        group = down + groups[index]
        rest = _flatten(groups[index + 1 :])
        done, down = _pair_group(group, rest, compatible)
        pairs.extend(done)
        _note(notes, score[groups[index][0]], group, done, down, "down")
    up: list[int] = []
    for index in range(len(groups) - 1, middle, -1):
        group = groups[index] + up
        rest = down + _flatten(groups[middle:index])
        done, up = _pair_group(group, rest, compatible)
        pairs.extend(done)
        _note(notes, score[groups[index][0]], group, done, up, "up")
    group = down + groups[middle] + up
    done = _pair_middle(group, set(down), set(up), compatible, notes)
    pairs.extend(done)
    _note(notes, score[groups[middle][0]], group, done, [], "down")
    return pairs


def _pair_middle(
    group: list[int], down: set[int], up: set[int], compatible: Compatible, notes: list[str]
) -> list[tuple[int, int]]:
    """The last group: everyone left must be paired (5.6: floaters down and up apart)."""
    if down and up:

        def strict(a: int, b: int) -> bool:
            crossing = (a in down and b in up) or (a in up and b in down)
            return not crossing and compatible(a, b)

        if perfectly_matchable(group, strict):
            return _pair_group(group, [], strict)[0]
        notes.append("a floater from above meets a floater from below: no other way")
    done, left = _pair_group(group, [], compatible)
    if left:  # pragma: no cover - excluded by the feasibility checks before
        raise PairingError(f"players {left} cannot be paired")
    return done


def _note(
    notes: list[str],
    score: Fraction,
    group: Sequence[int],
    done: Sequence[tuple[int, int]],
    floaters: Sequence[int],
    direction: str,
) -> None:
    text = f"group {_fmt(score)}: {' '.join(map(str, group))}"
    text += " | pairs " + (" ".join(f"{a}-{b}" for a, b in done) or "none")
    if floaters:
        text += f" | float {direction}: {' '.join(map(str, floaters))}"
    notes.append(text)


def _fmt(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def _flatten(groups: Iterable[Sequence[int]]) -> list[int]:
    return [number for group in groups for number in group]


def _pair_group(
    group: list[int], rest: list[int], compatible: Compatible
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair one group; return its pairs and the floaters it passes on (in group order).

    Floaters: fewest first (4.3), nearest the middle first (5.4, 5.5), and only when the
    floaters together with every player still below can be paired. The fewest possible
    is at least what the group cannot pair among itself and at least what the players
    below cannot pair among themselves.
    """
    size = len(group)
    inside_shortfall = size - 2 * maximum_matching_size(group, compatible)
    below_shortfall = len(rest) - 2 * maximum_matching_size(rest, compatible)
    budget = _MAX_FLOATER_SETS
    for count in range(max(size % 2, inside_shortfall, below_shortfall), size + 1, 2):
        if comb(size, count) > budget:
            break
        budget -= comb(size, count)
        for floating in _floater_sets(size, count):
            if _floaters_work(group, floating, rest, compatible):
                return _split_off(group, floating, compatible)
    return _split_off(group, _fallback_floaters(group, rest, compatible), compatible)


def _floaters_work(
    group: Sequence[int], floating: frozenset[int], rest: Sequence[int], compatible: Compatible
) -> bool:
    inside = [n for i, n in enumerate(group) if i not in floating]
    if not perfectly_matchable(inside, compatible):
        return False
    return perfectly_matchable([group[i] for i in sorted(floating)] + list(rest), compatible)


def _split_off(
    group: Sequence[int], floating: frozenset[int], compatible: Compatible
) -> tuple[list[tuple[int, int]], list[int]]:
    inside = [n for i, n in enumerate(group) if i not in floating]
    return pair_inside(inside, compatible), [group[i] for i in sorted(floating)]


def _fallback_floaters(
    group: Sequence[int], rest: Sequence[int], compatible: Compatible
) -> frozenset[int]:
    """Floaters for a group too constrained to try every candidate set.

    Start from a pairing of the whole remainder that keeps a maximum matching of the
    group where it can and float the group's players it pairs below. Then bring
    floaters back two at a time (nearest the middle first) while that stays pairable;
    when no two can come back, exchange one floater for one player of the group and
    try again from there (each set visited once). This finds the fewest floaters in
    nearly every case, not provably in all.
    """
    size = len(group)
    start = maximum_matching(group, compatible) + [-1] * len(rest)
    mate = maximum_matching([*group, *rest], compatible, start)
    floating = frozenset(i for i in range(size) if mate[i] >= size)

    def works(candidate: frozenset[int]) -> bool:
        return _floaters_work(group, candidate, rest, compatible)

    def smaller(candidate: frozenset[int]) -> frozenset[int] | None:
        order = sorted(candidate, key=lambda i: (abs(2 * i + 1 - size), i), reverse=True)
        for a, b in combinations(order, 2):
            if works(candidate - {a, b}):
                return candidate - {a, b}
        return None

    seen = {floating}
    while True:
        reduced = smaller(floating)
        if reduced is None:
            for out, back in product(sorted(floating), range(size)):
                trial = (floating - {out}) | {back}
                if back in floating or trial in seen:
                    continue
                seen.add(trial)
                if works(trial):
                    reduced = smaller(trial)
                    if reduced is not None:
                        break
        if reduced is None:
            return floating
        floating = reduced
        seen.add(floating)


def _floater_sets(size: int, count: int) -> Iterator[frozenset[int]]:
    """Index sets of `count` floaters, nearest the middle of the group first."""
    if count == 0:
        yield frozenset()
        return

    def key(chosen: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        return (sum(abs(2 * i + 1 - size) for i in chosen), chosen)

    for chosen in sorted(combinations(range(size), count), key=key):
        yield frozenset(chosen)
