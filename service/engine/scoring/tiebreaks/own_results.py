"""Type B tie-breaks built from a participant's own results: FIDE C.07 art. 7.

WIN (7.1), WON (7.2), BPG (7.3), BWG (7.4), PS (7.5), REP (7.6), STD (7.7, 2026),
TPN (7.8, 2026).
"""

from __future__ import annotations

from fractions import Fraction

from service.engine.scoring.tiebreaks.base import Contribution, TieBreak, TieBreakExplanation
from service.engine.scoring.tiebreaks.context import SKIPPED_KINDS, TieBreakContext

__all__ = ["Wins"]


class Wins(TieBreak):
    """WIN, C.07 art. 7.1: rounds in which the participant earned a win's points,
    with or without playing (forfeit wins and byes worth a win included)."""

    code = "WIN"

    def values(self, ctx: TieBreakContext) -> dict[int, Fraction]:
        win = ctx.win
        return {
            number: Fraction(
                sum(1 for e in pd.entries if e.points == win and e.kind not in SKIPPED_KINDS)
            )
            for number, pd in ctx.players.items()
        }

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        items = tuple(
            Contribution(e.round, e.opponent or None, Fraction(1), e.kind.name.lower())
            for e in ctx.players[number].entries
            if e.points == ctx.win and e.kind not in SKIPPED_KINDS
        )
        return TieBreakExplanation(self.code, Fraction(len(items)), items)
