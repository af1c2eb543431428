"""Shared places: the one way every table of Arbiter numbers tied entries.

Standard competition ranking ("1-2-2-4"): entries in ranking order; an entry whose
ranking key equals the previous entry's shares its place, and the next different key
takes its own position. Chess standings (FIDE C.07: participants equal on points and
every tie-break share a place), the FLAMPARK PF table, team tables and bridge rankings
all show ties this way.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["shared_places"]


def shared_places(keys: Sequence[object]) -> list[int]:
    """The place of each entry, given the entries' ranking keys in ranking order.

    >>> shared_places([10, 8, 8, 5])
    [1, 2, 2, 4]
    """
    places: list[int] = []
    for position, key in enumerate(keys, start=1):
        tied = position > 1 and key == keys[position - 2]
        places.append(places[-1] if tied else position)
    return places
