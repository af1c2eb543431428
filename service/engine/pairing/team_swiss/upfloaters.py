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

Search: only teams that could meet some resident are candidates (in a set of the
smallest legal size no two upfloaters meet each other: dropping both would leave a
smaller legal set). The sets of one size are walked in 3.5.4 order; the legality test
(two maximum-cardinality matchings) runs only for sets whose profile can still be the
best. Bounds: once a legal set is known, at most `SET_LIMIT` further sets are tested
and `COMBINATION_LIMIT` walked before the best found is taken; a size with no legal
set among its first `COMBINATION_LIMIT` sets gives way to the next size.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from service.engine.pairing.matching import perfectly_matchable
from service.engine.pairing.round_pairing import PairingError

__all__ = ["COMBINATION_LIMIT", "SET_LIMIT", "choose_upfloaters"]

SET_LIMIT = 2000
"""Sets of one size tested for legality at most once one legal set is known."""
COMBINATION_LIMIT = 100_000
"""Sets of one size walked at most."""

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
    candidates = sorted(
        (n for n in lower if any(compatible(n, r) for r in residents)),
        key=lambda n: (-score[n], n),
    )

    def penalties(combo: tuple[int, ...]) -> tuple[int, int]:
        return (
            _c6_fails(lower, combo, score, compatible),
            sum(1 for n in combo if floated(n)),
        )

    size = len(residents) % 2
    while size <= len(candidates):
        # the best profile any set of this size can have: the first set's
        ceiling = tuple(sorted(score[n] for n in candidates[:size]))
        best_profile: tuple[float, ...] | None = None
        legal: list[tuple[int, ...]] = []
        examined = 0
        for walked, combo in enumerate(itertools.combinations(candidates, size)):
            if walked >= COMBINATION_LIMIT:
                break
            profile = tuple(sorted(score[n] for n in combo))
            if best_profile is not None and profile < best_profile:
                continue
            examined += 1
            if examined > SET_LIMIT and legal:
                break
            if not _legal(residents, lower, combo, compatible):
                continue
            if profile == ceiling and penalties(combo) == (0, 0):
                return combo  # the first set of the best profile with nothing to pay
            if best_profile is None or profile > best_profile:
                best_profile, legal = profile, []
            legal.append(combo)
        if legal:
            return min(legal, key=lambda c: (*penalties(c), legal.index(c)))
        size += 2
    if _legal(residents, lower, tuple(lower), compatible):
        return tuple(sorted(lower, key=lambda n: (-score[n], n)))  # every team below
    raise PairingError("no set of upfloaters completes the pairing")
