"""Board order of a paired round (FIDE C.04.2 general handling: publishing pairings).

Games are listed by the score of the higher-placed player (highest first), then by
the score of the lower-placed player, then by the higher player's pairing number.
Scores here are real scores, without acceleration virtual points (C.04.5).
"""

from __future__ import annotations

from collections.abc import Sequence

from .players import SwissPlayer

__all__ = ["board_order"]


def _higher_first(a: SwissPlayer, b: SwissPlayer) -> tuple[SwissPlayer, SwissPlayer]:
    if (a.score, -a.rank) >= (b.score, -b.rank):
        return a, b
    return b, a


def board_order(
    games: Sequence[tuple[SwissPlayer, SwissPlayer]],
) -> list[tuple[SwissPlayer, SwissPlayer]]:
    """Sort (white, black) games into board order."""

    def key(game: tuple[SwissPlayer, SwissPlayer]) -> tuple[object, ...]:
        hi, lo = _higher_first(*game)
        return (-hi.score, -lo.score, hi.rank)

    return sorted(games, key=key)
