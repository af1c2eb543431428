"""Colour allocation for a pair (FIDE C.04.3 art. 5.2, 2017 E.1-E.5).

Rules in order:

1. grant both preferences when they differ (or one player has none);
2. grant the stronger preference: an absolute preference beats a non-absolute one,
   and between two absolute preferences the larger colour difference wins; then a
   strong preference beats a mild one;
3. alternate from the most recent round in which the two players had different
   colours (played games only, walking back in step);
4. grant the higher-ranked player's preference;
5. neither has a preference: the higher-ranked player takes the initial colour
   (C.04.2 / XXC `white1`) if their pairing number is odd, the other colour if even.

Reading taken for step 2 with two absolute preferences of equal colour difference:
fall through to step 3 (the text ranks them only by colour difference).
"""

from __future__ import annotations

from service.engine.model import Colour

from .players import SwissPlayer

__all__ = ["colour_for", "higher_ranked"]


def higher_ranked(a: SwissPlayer, b: SwissPlayer) -> bool:
    """True when `a` ranks above `b` (art. 1.2: accelerated score, then pairing number)."""
    sa, sb = a.acc_score(), b.acc_score()
    if sa != sb:
        return sa > sb
    return a.rank < b.rank


def _played_colours(player: SwissPlayer) -> list[Colour]:
    return [r.colour for r in player.records if r.played and r.colour is not None]


def _first_difference(a: SwissPlayer, b: SwissPlayer) -> tuple[Colour | None, Colour | None]:
    """Colours in the latest step (walking back over played games) where they differ."""
    ca = _played_colours(a)
    cb = _played_colours(b)
    i, j = len(ca) - 1, len(cb) - 1
    while i >= 0 and j >= 0 and ca[i] is cb[j]:
        i -= 1
        j -= 1
    return (ca[i] if i >= 0 else None, cb[j] if j >= 0 else None)


def _compatible(a: Colour | None, b: Colour | None) -> bool:
    return a is None or b is None or a is not b


def _neutral(player: SwissPlayer, opponent: SwissPlayer) -> Colour | None:
    """Steps 1-3 for `player`; None when they leave the choice open."""
    if _compatible(player.preference, opponent.preference):
        if player.preference is not None:
            return player.preference
        if opponent.preference is not None:
            return opponent.preference.other
        return None
    if player.absolute and (player.imbalance > opponent.imbalance or not opponent.absolute):
        return player.preference
    if opponent.absolute and (opponent.imbalance > player.imbalance or not player.absolute):
        assert opponent.preference is not None
        return opponent.preference.other
    if player.strong and not opponent.strong:
        return player.preference
    if opponent.strong and not player.strong:
        assert opponent.preference is not None
        return opponent.preference.other
    mine, theirs = _first_difference(player, opponent)
    if mine is not None and theirs is not None:
        return theirs
    return None


def colour_for(player: SwissPlayer, opponent: SwissPlayer, initial: Colour) -> Colour:
    """The colour `player` gets against `opponent`."""
    neutral = _neutral(player, opponent)
    if neutral is not None:
        return neutral
    player_higher = higher_ranked(player, opponent)
    if player.preference is None:
        top = player if player_higher else opponent
        top_colour = initial.other if top.rank & 1 else initial
        return top_colour if player_higher else top_colour.other
    if player_higher:
        return player.preference
    assert opponent.preference is not None
    return opponent.preference.other
