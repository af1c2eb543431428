"""The Japan Chess Association Swiss system (seed 001; SPEC 4).

Rules implemented, with the seed's section numbers:

* 4.1 Score groups. After each round the present players are grouped by score, the
  higher group first; inside a group by rating (then start number). Groups are paired
  from the top.
* 4.2 Nobody meets the same opponent twice. Reading: a forfeited game was not a meeting
  (the domain model's convention, FIDE C.04.1 b); every other game, unfinished ones
  included, was.
* 4.3 Each group keeps as many of its own players paired inside it as possible.
  Reading: a group floats the fewest players that still leave the whole round pairable,
  so the search never paints itself into a corner and no later cancellation is needed.
  Candidate floater sets are tried exactly (at least as many floaters as the group
  cannot pair among itself, and as the players below cannot pair among themselves);
  a group with more than `_MAX_FLOATER_SETS` candidates, which happens only near the
  end of a field that has nearly played itself out, uses a local search instead that
  keeps the round pairable and floats the fewest in every case tested, unproven.
* 5.1 A group splits by rating into a top half ("parents") and a bottom half
  ("children"), paired 1-5, 2-6, 3-7, 4-8.
* 5.2 When that is impossible the children are exchanged as little as possible: the
  parents, in order, each take the first child that still leaves the rest of the halves
  pairable (the seed's 1-6 2-5 3-7 4-8, then 1-6 2-7 3-5 4-8: the lexicographically
  first arrangement).
* 5.3 When no parent/child pairing exists, the lowest parent and the highest child swap
  halves and 5.1-5.2 are retried (the seed's 1-4 2-6 3-7 5-8). The seed says to
  continue "by analogy"; reading: exchanges of one parent with one child come first,
  then of two, and so on; among equal numbers of players exchanged the smaller rank
  distance goes first, then the exchange that moves the lower parent, then the higher
  child. After `_MAX_SPLITS` arrangements the group is paired ignoring the halves
  (5.4): the highest player left takes the partner nearest half the remaining group
  below it. (Exchange layers with more than `_MAX_EXCHANGE_LAYER` candidates are not
  listed either; both limits only matter for large groups that are nearly unpairable.)
* 5.4 When even that leaves two players over, they float to the top of the next group;
  the seed names them as the lowest parent and the highest child. Reading: floaters are
  chosen as near the middle of the group as possible (sum of distances from the
  middle; ties float the higher player).
* 5.5 An odd group floats its middle player (treated as the lowest parent; when the
  group cannot be paired without him, the nearest player to the middle floats instead,
  by the same rule). Floaters keep their order at the top of the next group.
* 5.6 Optionally (`reverse_from_middle`) the groups are paired from the top down to the
  middle score group and from the bottom up to it; floaters from below join the bottom
  of the group above; the middle group is paired last, avoiding a direct pairing of a
  player floated down with a player floated up when it can. Reading: the middle group
  is the group whose pairing score is nearest the midpoint of the highest and lowest
  group scores (ties: the higher group).
* 6 Colours are decided per pair after the pairing and never change an opponent:
  6.3.1 equalise whites and blacks, the player further from balance first; 6.3.2
  alternate with the last round, and when both players had the same colour, look back
  to the last round in which their colours differed and reverse it; identical
  histories are decided by lot. 6.4 Round 1: one lot gives the higher player of board 1
  a colour; the higher players of the odd boards get the same one, of the even boards
  the other. The section is headed "FIDE method", so the FIDE absolute colour rules
  come first: an assignment that would give a player a third consecutive game with one
  colour, or a colour difference beyond two, is avoided when the other one avoids it.
  Reading: the lot is `Tournament.initial_colour` for round 1 when set; otherwise, with
  a `seed`, a draw from a generator seeded with `(seed, round)` (one draw in round 1,
  one per pair later); without either, white. The lot's colour goes to the higher
  player on odd boards and the other colour on even boards, in every round. Only
  games played over the board count for colour history.
* 2.1 The JCA handicap: the field splits by rating into A and B and group A gets +1
  pairing point that never counts in the results (`handicap_split` = size of A, taken
  from the top of the rating order; `handicap_points` = the bonus in wins, 1 by
  default and 0.5 for round 5 of the "Z" scheme of section 10).

The seed is silent on the odd player out. Reading: the pairing-allocated bye goes to the
lowest-ranked present player (pairing score, then rating, then the higher start number)
who has had no pairing-allocated or full-point bye and whose absence leaves the others
pairable; if nobody qualifies the lowest pairable player gets it, with a warning.

Complexity: one perfect-matching test (Edmonds' blossom algorithm, O(V^3) worst case,
near O(V^2) on the dense graphs of a Swiss event) per group and candidate floater set,
plus bipartite augmenting paths inside a group.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from math import comb

from service.engine.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    Outcome,
    PlayerRound,
    Tournament,
)
from service.engine.pairing.result import Pairing, PairingError

__all__ = ["pair_round"]

_MAX_SPLITS = 2000
"""Half arrangements tried per group before pairing it ignoring the halves (5.4)."""

_MAX_FLOATER_SETS = 3000
"""Candidate floater sets tried per group before the fallback search (5.4)."""

_SHORT_SEARCH_LIMIT = 8
"""Free players up to which short augmenting paths are tried before the blossom search."""

_MAX_EXCHANGE_LAYER = 20_000
"""Exchanges of one size are only listed (and sorted) when there are at most this many."""

_Compatible = Callable[[int, int], bool]


# --------------------------------------------------------------------------------------
# Public entry point
# --------------------------------------------------------------------------------------


def pair_round(
    tournament: Tournament,
    *,
    byes: Iterable[Bye] = (),
    seed: int | None = None,
    reverse_from_middle: bool = False,
    handicap_split: int | None = None,
    handicap_points: Fraction | int = 1,
    explain: bool = False,
) -> Pairing:
    """Pair the next round of `tournament` by the JCA Swiss system (seed 001).

    `byes` are announced absences or requested byes for the new round; those players
    are not paired and the byes are returned unchanged. `seed` drives the colour lots
    (see the module docstring). `reverse_from_middle` pairs the lower half of the
    groups from the bottom up (seed 001 5.6). `handicap_split` puts that many players,
    from the top of the rating order, in group A with `handicap_points` wins' worth of
    extra pairing score (seed 001 2.1). `explain` fills `Pairing.notes`.
    """
    round_number = len(tournament.rounds) + 1
    announced = _validate_byes(tournament, byes, round_number)
    histories = tournament.history()
    met = _meetings(tournament)
    bonus = _handicap(tournament, handicap_split, handicap_points)
    real = tournament.scores()
    score = {n: real[n] + bonus.get(n, Fraction(0)) for n in real}
    rating = {p.start_number: p.rating for p in tournament.players}

    def rank_key(number: int) -> tuple[Fraction, int, int]:
        return (-score[number], -rating[number], number)

    present = sorted(
        (p.start_number for p in tournament.players if p.start_number not in announced),
        key=rank_key,
    )

    def compatible(a: int, b: int) -> bool:
        return a != b and b not in met.get(a, ())

    notes: list[str] = []
    warnings = _size_warnings(tournament, len(present))
    all_byes = [announced[n] for n in sorted(announced)]
    if len(present) % 2:
        bye_player, warning = _choose_bye(present, histories, compatible)
        if warning:
            warnings.append(warning)
        present.remove(bye_player)
        all_byes.append(Bye(round_number, bye_player, ByeKind.PAIRING_ALLOCATED))
        notes.append(f"pairing-allocated bye: {bye_player}")
    elif not _perfectly_matchable(present, compatible):
        raise PairingError(f"round {round_number}: no pairing exists without a repeated game")

    groups = _score_groups(present, score)
    pairs = _pair_groups(groups, score, compatible, reverse_from_middle, notes)
    position = {number: index for index, number in enumerate(present)}
    pairs.sort(key=lambda pair: min(position[pair[0]], position[pair[1]]))
    colours = _colour_histories(histories)
    games = _allocate_colours(
        pairs, position, colours, round_number, tournament.initial_colour, seed, notes
    )
    return Pairing(
        round=round_number,
        games=tuple(games),
        byes=tuple(all_byes),
        notes=tuple(notes) if explain else (),
        warnings=tuple(warnings),
    )


# --------------------------------------------------------------------------------------
# Inputs: byes, meetings, handicap, warnings
# --------------------------------------------------------------------------------------


def _validate_byes(
    tournament: Tournament, byes: Iterable[Bye], round_number: int
) -> dict[int, Bye]:
    known = {p.start_number for p in tournament.players}
    announced: dict[int, Bye] = {}
    for bye in byes:
        if bye.round != round_number:
            raise PairingError(f"bye for round {bye.round} given while pairing {round_number}")
        if bye.player not in known:
            raise PairingError(f"bye for unknown player {bye.player}")
        if bye.player in announced:
            raise PairingError(f"two byes for player {bye.player}")
        if bye.kind is ByeKind.PAIRING_ALLOCATED:
            raise PairingError("the pairing-allocated bye is chosen by the pairing")
        announced[bye.player] = bye
    return announced


def _meetings(tournament: Tournament) -> dict[int, set[int]]:
    """Opponents already met (seed 001 4.2); forfeited games are not meetings."""
    met: dict[int, set[int]] = {}
    for rnd in tournament.rounds:
        for game in rnd.games:
            if game.result is not None and game.result.is_forfeit:
                continue
            met.setdefault(game.white, set()).add(game.black)
            met.setdefault(game.black, set()).add(game.white)
    return met


def _handicap(
    tournament: Tournament, split: int | None, points: Fraction | int
) -> dict[int, Fraction]:
    """Pairing bonus of group A (seed 001 2.1): the top `split` players by rating."""
    if split is None:
        return {}
    if not 0 <= split <= len(tournament.players):
        raise PairingError(
            f"handicap_split must be between 0 and {len(tournament.players)}, got {split}"
        )
    amount = Fraction(points)
    if amount < 0:
        raise PairingError(f"handicap_points must not be negative, got {points}")
    by_rating = sorted(tournament.players, key=lambda p: (-p.rating, p.start_number))
    bonus = amount * tournament.points.win
    return {p.start_number: bonus for p in by_rating[:split]}


def _size_warnings(tournament: Tournament, present: int) -> list[str]:
    """Seed 001 section 3: 3 rounds or fewer is no Swiss; 4 rounds suit 15 players at most."""
    warnings: list[str] = []
    total = tournament.total_rounds
    if total is not None and total <= 3:
        warnings.append(f"{total} rounds: a Swiss event needs at least 4 (seed 001, 3)")
    if total == 4 and present > 15:
        warnings.append(f"4 rounds for {present} players: too few rounds (seed 001, 3)")
    return warnings


def _choose_bye(
    present: Sequence[int], histories: dict[int, list[PlayerRound]], compatible: _Compatible
) -> tuple[int, str | None]:
    """The pairing-allocated bye: lowest-ranked eligible player (module docstring)."""
    free_point = (ByeKind.PAIRING_ALLOCATED, ByeKind.FULL_POINT)
    eligible = [n for n in present if not any(e.bye in free_point for e in histories.get(n, []))]
    for pool, warning in ((eligible, None), (list(present), "bye repeated")):
        for candidate in reversed(pool):
            rest = [n for n in present if n != candidate]
            if _perfectly_matchable(rest, compatible):
                if warning is None:
                    return candidate, None
                return candidate, f"player {candidate} receives a second bye: no other way"
    raise PairingError("no pairing exists without a repeated game")


# --------------------------------------------------------------------------------------
# Score groups and the order they are paired in
# --------------------------------------------------------------------------------------


def _score_groups(ranked: Sequence[int], score: dict[int, Fraction]) -> list[list[int]]:
    groups: list[list[int]] = []
    for number in ranked:
        if groups and score[groups[-1][0]] == score[number]:
            groups[-1].append(number)
        else:
            groups.append([number])
    return groups


def _middle_index(groups: Sequence[Sequence[int]], score: dict[int, Fraction]) -> int:
    """Seed 001 5.6: the group nearest the midpoint of the score range (ties: higher)."""
    values = [score[group[0]] for group in groups]
    target = (values[0] + values[-1]) / 2
    return min(range(len(values)), key=lambda i: (abs(values[i] - target), i))


def _pair_groups(
    groups: list[list[int]],
    score: dict[int, Fraction],
    compatible: _Compatible,
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
    group: list[int], down: set[int], up: set[int], compatible: _Compatible, notes: list[str]
) -> list[tuple[int, int]]:
    """The last group: everyone left must be paired (5.6: floaters down and up apart)."""
    if down and up:

        def strict(a: int, b: int) -> bool:
            crossing = (a in down and b in up) or (a in up and b in down)
            return not crossing and compatible(a, b)

        if _perfectly_matchable(group, strict):
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


# --------------------------------------------------------------------------------------
# One group: floaters, halves, exchanges (seed 001 section 5)
# --------------------------------------------------------------------------------------


def _pair_group(
    group: list[int], rest: list[int], compatible: _Compatible
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair one group; return its pairs and the floaters it passes on (in group order).

    Floaters: fewest first (4.3), nearest the middle first (5.4, 5.5), and only when the
    floaters together with every player still below can be paired. The fewest possible
    is at least what the group cannot pair among itself and at least what the players
    below cannot pair among themselves.
    """
    size = len(group)
    inside_shortfall = size - 2 * _maximum_matching_size(group, compatible)
    below_shortfall = len(rest) - 2 * _maximum_matching_size(rest, compatible)
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
    group: Sequence[int], floating: frozenset[int], rest: Sequence[int], compatible: _Compatible
) -> bool:
    inside = [n for i, n in enumerate(group) if i not in floating]
    if not _perfectly_matchable(inside, compatible):
        return False
    return _perfectly_matchable([group[i] for i in sorted(floating)] + list(rest), compatible)


def _split_off(
    group: Sequence[int], floating: frozenset[int], compatible: _Compatible
) -> tuple[list[tuple[int, int]], list[int]]:
    inside = [n for i, n in enumerate(group) if i not in floating]
    return _pair_inside(inside, compatible), [group[i] for i in sorted(floating)]


def _fallback_floaters(
    group: Sequence[int], rest: Sequence[int], compatible: _Compatible
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
    start = _maximum_matching(group, compatible) + [-1] * len(rest)
    mate = _maximum_matching([*group, *rest], compatible, start)
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


def _pair_inside(members: list[int], compatible: _Compatible) -> list[tuple[int, int]]:
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
    options = _Neighbours(parents, children, compatible)
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
    options: _Neighbours,
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
    """Seed 001 5.4: the highest player takes the partner nearest half the group below."""
    left = list(members)
    pairs: list[tuple[int, int]] = []
    while left:
        head, others = left[0], left[1:]
        ideal = len(left) // 2 - 1
        order = sorted(range(len(others)), key=lambda i: (abs(i - ideal), i))
        for i in order:
            partner = others[i]
            remaining = [n for n in others if n != partner]
            if compatible(head, partner) and _perfectly_matchable(remaining, compatible):
                pairs.append((head, partner))
                left = remaining
                break
        else:  # pragma: no cover - the caller checked that `members` can be paired
            raise PairingError(f"players {members} cannot be paired")
    return pairs


# --------------------------------------------------------------------------------------
# General matching (Edmonds' blossom algorithm): can a set of players all be paired?
# --------------------------------------------------------------------------------------


class _Neighbours:
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


def _maximum_matching(
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
        adjacency = _Neighbours(players, players, compatible)
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


def _maximum_matching_size(players: Sequence[int], compatible: _Compatible) -> int:
    return sum(1 for m in _maximum_matching(players, compatible) if m != -1) // 2


def _perfectly_matchable(players: Sequence[int], compatible: _Compatible) -> bool:
    if len(players) % 2:
        return False
    return all(m != -1 for m in _maximum_matching(players, compatible))


class _Blossom:
    """One search for an augmenting path from a free vertex, contracting odd cycles."""

    def __init__(self, size: int, adjacency: _Neighbours, mate: list[int]) -> None:
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


# --------------------------------------------------------------------------------------
# Colours (seed 001 section 6)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _ColourRecord:
    """Colours of a player's games played over the board, oldest first."""

    colours: tuple[Colour, ...]

    @property
    def difference(self) -> int:
        """Whites minus blacks."""
        whites = sum(1 for c in self.colours if c is Colour.WHITE)
        return 2 * whites - len(self.colours)

    def forbidden(self, colour: Colour) -> bool:
        """FIDE absolute rules: no third colour in a row, no difference beyond two."""
        if self.colours[-2:] == (colour, colour):
            return True
        step = 1 if colour is Colour.WHITE else -1
        return abs(self.difference + step) > 2

    def wish(self) -> Colour | None:
        """The colour that equalises whites and blacks (6.3.1), if any."""
        if self.difference > 0:
            return Colour.BLACK
        if self.difference < 0:
            return Colour.WHITE
        return None


def _colour_histories(histories: dict[int, list[PlayerRound]]) -> dict[int, _ColourRecord]:
    unplayed = (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)
    return {
        number: _ColourRecord(
            tuple(e.colour for e in entries if e.colour is not None and e.outcome not in unplayed)
        )
        for number, entries in histories.items()
    }


def _allocate_colours(
    pairs: Sequence[tuple[int, int]],
    position: dict[int, int],
    records: dict[int, _ColourRecord],
    round_number: int,
    initial: Colour | None,
    seed: int | None,
    notes: list[str],
) -> list[Game]:
    """Give each pair its colours (seed 001 6) and number the boards."""
    draw = random.Random(f"jca:{seed}:{round_number}") if seed is not None else None
    first_lot: Colour | None = None
    if round_number == 1:
        first_lot = initial or (_draw(draw) if draw is not None else Colour.WHITE)
    games: list[Game] = []
    empty = _ColourRecord(())
    for table, (a, b) in enumerate(pairs, 1):
        higher, lower = (a, b) if position[a] < position[b] else (b, a)
        if first_lot is not None:
            lot = first_lot
        elif draw is not None:
            lot = _draw(draw)
        else:
            lot = initial or Colour.WHITE
        colour, reason = _colour_for_higher(
            records.get(higher, empty), records.get(lower, empty), lot, table
        )
        white, black = (higher, lower) if colour is Colour.WHITE else (lower, higher)
        games.append(Game(round_number, white, black, table=table))
        notes.append(f"board {table}: {white}-{black} ({reason})")
    return games


def _draw(generator: random.Random) -> Colour:
    return Colour.WHITE if generator.random() < 0.5 else Colour.BLACK


def _colour_for_higher(
    higher: _ColourRecord, lower: _ColourRecord, lot: Colour, table: int
) -> tuple[Colour, str]:
    """The higher-ranked player's colour and the rule that decided it."""
    faults = {
        colour: int(higher.forbidden(colour)) + int(lower.forbidden(colour.other))
        for colour in (Colour.WHITE, Colour.BLACK)
    }
    if faults[Colour.WHITE] != faults[Colour.BLACK]:
        best = min(faults, key=lambda c: (faults[c], c is Colour.BLACK))
        return best, "FIDE absolute colour rule"
    mine, theirs = higher.wish(), lower.wish()
    if mine is not None and theirs is not None and mine is theirs:
        if abs(higher.difference) != abs(lower.difference):
            if abs(higher.difference) > abs(lower.difference):
                return mine, "colour balance, larger imbalance first"
            return theirs.other, "colour balance, larger imbalance first"
    elif mine is not None:
        return mine, "colour balance"
    elif theirs is not None:
        return theirs.other, "colour balance"
    depth = max(len(higher.colours), len(lower.colours))
    for back in range(1, depth + 1):
        own = higher.colours[-back] if back <= len(higher.colours) else None
        other = lower.colours[-back] if back <= len(lower.colours) else None
        if own is not None and own is not other:
            return own.other, f"alternation ({back} back)"
        if own is None and other is not None:
            return other, f"alternation ({back} back)"
    colour = lot if table % 2 else lot.other
    return colour, "lot"
