"""Board order of a paired round (FIDE C.04.2 general handling: publishing pairings).

Games are listed by the score of the higher-placed player (highest first), then by
the score of the lower-placed player, then by the higher player's pairing number.
Scores here are real scores, without acceleration virtual points (C.04.5).
"""

from __future__ import annotations

from collections.abc import Sequence

from .players import SwissPlayer, scaled

__all__ = ["board_order"]


def board_order(
    games: Sequence[tuple[SwissPlayer, SwissPlayer]],
) -> list[tuple[SwissPlayer, SwissPlayer]]:
    """Sort (white, black) games into board order: by the higher player's score, then
    the lower player's, then the higher player's rank (the higher of two: the higher
    score, then the better rank). Scores are compared as exact integer images
    (`scaled`), in the same order as the fractions, at an integer comparison's cost."""
    scores = scaled(p.score for game in games for p in game)
    keys: list[tuple[int, int, int]] = []
    for i, (a, b) in enumerate(games):
        sa, sb = scores[2 * i], scores[2 * i + 1]
        if (sa, -a.rank) >= (sb, -b.rank):
            keys.append((-sa, -sb, a.rank))
        else:
            keys.append((-sb, -sa, b.rank))
    return [games[i] for i in sorted(range(len(games)), key=keys.__getitem__)]
