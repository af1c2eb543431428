"""Tie-break modifiers: FIDE C.07 art. 14 (Cut-1/2, Median-1/2, Koya limit) with the
unplayed-round exception of art. 16.5.

* Cut-n (`-C1`, `-C2`): drop the n least significant values.
* Median-n (`-M1`, `-M2`): drop the n least and the n most significant values.
* Limit (`/L`): moves the Koya threshold (see `sonneborn.Koya`).

Art. 16.5 (both editions): when cutting the least significant value, a voluntary
unplayed round (VUR, art. 16.1) goes first. Reading taken (the same as FIDE's
tie-break checker): the two candidates are the item with the lowest opponent score
and the VUR item with the lowest contribution; the one with the *higher*
contribution is cut. For Buchholz the two coincide with "cut the VUR"; for
Sonneborn-Berger it keeps a low-scoring VUR from shielding a better game. Cutting
the most significant values has no exception. Cuts never remove more items than
there are.

`apply_cut` works on `Item` records and says which were removed (explanations);
`cut_total` gives only the sum of what is kept, from plain integer columns, with
the same choices (the standings' fast path).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["NO_CUT", "Cut", "Item", "apply_cut", "cut_total"]


@dataclass(frozen=True, slots=True)
class Cut:
    """How many values to drop from the bottom and the top."""

    low: int = 0
    """Least significant values dropped (Cut-n; Median-n)."""
    high: int = 0
    """Most significant values dropped (Median-n)."""

    @property
    def suffix(self) -> str:
        """The code suffix: "", "-C1", "-M2", ..."""
        if self.low == self.high and self.low:
            return f"-M{self.low}"
        if self.low and not self.high:
            return f"-C{self.low}"
        if not self.low and not self.high:
            return ""
        return f"-C{self.low}H{self.high}"

    def __bool__(self) -> bool:
        return bool(self.low or self.high)


@dataclass(frozen=True, slots=True)
class Item:
    """One round's candidate value for a cut."""

    index: int
    """Round index in the participant's entries."""
    score: int
    """The ordering key: opponent's (or dummy's) score, or the opponent's rating."""
    value: int
    """What the round contributes to the sum."""
    vur: bool = False
    """True for a voluntary unplayed round (art. 16.1)."""


NO_CUT = Cut()
"""No modifier."""


def apply_cut(items: list[Item], cut: Cut) -> tuple[list[Item], list[Item]]:
    """Split `items` into (kept, removed) per `cut` and art. 16.5."""
    kept = list(items)
    removed: list[Item] = []
    for _ in range(min(cut.low, len(kept))):
        lowest = min(kept, key=lambda it: (it.score, it.value, it.index))
        vurs = [it for it in kept if it.vur]
        victim = lowest
        if vurs:
            lowest_vur = min(vurs, key=lambda it: (it.value, it.score, it.index))
            if lowest.value <= lowest_vur.value:
                victim = lowest_vur
        kept.remove(victim)
        removed.append(victim)
    for _ in range(min(cut.high, len(kept))):
        highest = max(kept, key=lambda it: (it.score, it.value, -it.index))
        kept.remove(highest)
        removed.append(highest)
    return kept, removed


def cut_total(scores: Sequence[int], values: Sequence[int], vurs: Sequence[int], cut: Cut) -> int:
    """Sum of the values `apply_cut` keeps, from columns (position = item index).

    `scores` are the ordering keys, `values` what each item contributes, `vurs` the
    positions of the voluntary unplayed rounds. Without VURs the cuts take the ends
    of the (score, value) order; items equal in both are interchangeable for the sum.
    """
    count = len(values)
    low = min(cut.low, count)
    high = min(cut.high, count - low)
    if not low and not high:
        return sum(values)
    if not vurs or not low:
        pairs = sorted(zip(scores, values, strict=True))
        return sum(value for _, value in pairs[low : count - high])
    # Art. 16.5 as in `apply_cut`: (score, value, index) and (value, score, index)
    # order the candidates exactly as its `min` calls do.
    kept = [(s, v, i, i in vurs) for i, (s, v) in enumerate(zip(scores, values, strict=True))]
    for _ in range(low):
        lowest = min(kept)
        victim = lowest
        candidates = [(v, s, i) for s, v, i, vur in kept if vur]
        if candidates:
            value, score, index = min(candidates)
            if lowest[1] <= value:
                victim = (score, value, index, True)
        kept.remove(victim)
    if high:
        kept.sort(key=lambda item: (item[0], item[1], -item[2]))
        del kept[len(kept) - high :]
    return sum(item[1] for item in kept)
