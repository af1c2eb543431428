"""Choosing a bracket's upfloaters (FIDE C.04.6 art. 3.5 with [C3] to [C7]; readings in
docs/rules/team-swiss.md).

Every team scoring less than the top-scoregroup is a potential upfloater (3.5.1).
Within a set the upfloaters are listed by descending score, then ascending TPN
(3.5.3), and sets are ordered lexicographically by those TPNs (3.5.4). The set chosen
is, in the priority of 2.3:

* [C4] of the smallest size for which a legal set exists, legal meaning that the
  bracket can be paired ([C1]) and so can every team left below it ([C3]);
* [C5] among those, the best score profile: the upfloaters' scores taken in ascending
  order, compared lexicographically, as high as possible;
* [C6] unless the following scoregroup is emptied, one that lets that scoregroup's
  bracket be formed with the parity minimum of upfloaters (0 or 1);
* [C7] except in the last two rounds, the fewest upfloaters that floated last round;
* then the first in the 3.5.4 order.

Bound: the sets of one size are walked in 3.5.4 order; the legality test (two
maximum-cardinality matchings) runs only for sets whose profile can still be best,
and at most `SET_LIMIT` sets are examined per size before the best found is taken.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from service.engine.pairing.matching import perfectly_matchable
from service.engine.pairing.result import PairingError

__all__ = ["SET_LIMIT", "choose_upfloaters"]

SET_LIMIT = 2000
"""Upfloater sets of one size examined at most (a bound on the search)."""

Compatible = Callable[[int, int], bool]


def _legal(residents: list[int], lower: list[int], chosen: tuple[int, ...], ok: Compatible) -> bool:
    picked = set(chosen)
    below = [n for n in lower if n not in picked]
    return perfectly_matchable(residents + list(chosen), ok) and (
        not below or perfectly_matchable(below, ok)
    )


def _c6_fails(
    lower: list[int], chosen: tuple[int, ...], score: dict[int, float], ok: Compatible
) -> int:
    """1 when the following scoregroup (not emptied) cannot form its bracket with the
    parity minimum of upfloaters, else 0."""
    picked = set(chosen)
    rest = [n for n in lower if n not in picked]
    if not rest:
        return 0
    following = score[lower[0]]
    if all(score[n] != following for n in rest):
        return 0  # the following scoregroup was emptied by upfloating
    residents = [n for n in rest if score[n] == following]
    below = [n for n in rest if score[n] != following]
    if len(residents) % 2 == 0:
        return 0 if _legal(residents, below, (), ok) else 1
    ordered = sorted(below, key=lambda n: (-score[n], n))
    return 0 if any(_legal(residents, below, (c,), ok) for c in ordered) else 1


def choose_upfloaters(
    residents: list[int],
    lower: list[int],
    score: dict[int, float],
    compatible: Compatible,
    floated: Callable[[int], bool],
) -> tuple[int, ...]:
    """The upfloaters of the bracket of `residents` (all teams of the top score still
    unpaired); `lower` holds every other unpaired team, highest score first; `floated`
    tells [C7] which teams floated last round (always False in the last two rounds)."""
    candidates = sorted(lower, key=lambda n: (-score[n], n))
    size = len(residents) % 2
    while size <= len(candidates):
        best_profile: tuple[float, ...] | None = None
        legal: list[tuple[int, ...]] = []
        examined = 0
        for combo in itertools.combinations(candidates, size):
            profile = tuple(sorted(score[n] for n in combo))
            if best_profile is not None and profile < best_profile:
                continue
            examined += 1
            if examined > SET_LIMIT and legal:
                break
            if not _legal(residents, lower, combo, compatible):
                continue
            if best_profile is None or profile > best_profile:
                best_profile, legal = profile, []
            legal.append(combo)
        if legal:
            return min(
                legal,
                key=lambda c: (
                    _c6_fails(lower, c, score, compatible),
                    sum(1 for n in c if floated(n)),
                    legal.index(c),
                ),
            )
        size += 2
    raise PairingError("no set of upfloaters completes the pairing")  # pragma: no cover
