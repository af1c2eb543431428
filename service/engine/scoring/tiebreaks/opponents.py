"""Per-round opponent scores for the opponent-based tie-breaks (BH, FB, SB, AOB).

One function walks a participant's rounds and says, for each, whose score counts and
with what result: a real opponent's adjusted score (C.07 art. 16.3) for a game, the
dummy opponent's score (art. 16.4) for an own unplayed round. Round-robins and the
`/P` modifier count forfeits as games against the scheduled opponent (2026 art.
15.2); Fore Buchholz (art. 8.3) counts last-round pairings as draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.engine.scoring.tiebreaks.context import (
    SKIPPED_KINDS,
    Kind,
    PlayerData,
    TieBreakContext,
)
from service.engine.scoring.tiebreaks.unplayed import VUR_KINDS, ScoreView, dummy_score

__all__ = ["OpponentRound", "opponent_rounds"]


@dataclass(frozen=True, slots=True)
class OpponentRound:
    """One round as BH/SB see it."""

    index: int
    """Round index in the participant's entries."""
    opponent: int
    """The opponent's start number; 0 for a dummy opponent."""
    score: int
    """The opponent's adjusted score, or the dummy's score (units)."""
    share: int
    """The participant's result in halves (2 win, 1 draw, 0 loss)."""
    vur: bool
    """The round is a voluntary unplayed round (art. 16.1)."""


def opponent_rounds(
    ctx: TieBreakContext, pd: PlayerData, view: ScoreView, count_forfeits: bool = False
) -> list[OpponentRound]:
    """The participant's rounds with the score that counts in each."""
    forfeits_are_games = count_forfeits or ctx.round_robin
    adjusted = view.adjusted
    result: list[OpponentRound] = []
    last = ctx.rounds - 1
    forfeits = (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS)
    rows = zip(pd.kinds, pd.opponents, pd.shares, strict=True)
    for index, (kind, opponent, share) in enumerate(rows):
        if view.fore and index == last and kind in _PAIRED and opponent:
            result.append(OpponentRound(index, opponent, adjusted[opponent], 1, False))
            continue
        if kind in SKIPPED_KINDS:
            continue
        if kind is Kind.PLAYED or (forfeits_are_games and kind in forfeits):
            result.append(OpponentRound(index, opponent, adjusted[opponent], share, False))
        elif not ctx.round_robin:
            score = dummy_score(ctx, view, pd.number, pd.entries[index])
            result.append(OpponentRound(index, 0, score, share, kind in VUR_KINDS))
    return result


_PAIRED = frozenset({Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS, Kind.PENDING})
