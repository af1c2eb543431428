"""Sonneborn-Berger family: SB (C.07 art. 9.1), SB-S (seed 002), KS (C.07 art. 9.2).

SB: the sum, over a participant's rounds, of the opponent's score times the result on
the 1/½/0 scale (a win counts the opponent's whole score, a draw half, a loss
nothing). Seed 002 calls it the Berger coefficient and works it on a 7-player
round-robin (Sidorov 9, Kuznetsov 7.75) and on football 3/1/0 (Japan 8, Senegal 5):
the multiplier is the result, not the points the point system gives for it.
Opponents' scores are art. 16.3 adjusted scores; own unplayed rounds meet the art.
16.4 dummy opponent and count by the points they scored (a pairing-allocated bye as a
win, a half-point bye as a draw).
"""

from __future__ import annotations

from fractions import Fraction

from service.engine.scoring.tiebreaks.base import Contribution, TieBreak, TieBreakExplanation
from service.engine.scoring.tiebreaks.context import (
    SKIPPED_KINDS,
    Kind,
    PlayerData,
    TieBreakContext,
)
from service.engine.scoring.tiebreaks.unplayed import adjusted_scores, dummy_score

__all__ = ["SonnebornBerger"]

_RESULT = {2: "win", 1: "draw", 0: "loss"}


def sb_items(ctx: TieBreakContext, pd: PlayerData) -> list[tuple[int, int]]:
    """Per-round SB items as (value in units x 2, round index); pending rounds skipped.

    The value is opponent-or-dummy score (units) x result share (halves).
    """
    adjusted = adjusted_scores(ctx)
    items: list[tuple[int, int]] = []
    for index, entry in enumerate(pd.entries):
        kind = entry.kind
        if kind in SKIPPED_KINDS:
            continue
        if kind is Kind.PLAYED:
            items.append((adjusted[entry.opponent] * entry.share, index))
        else:
            items.append((dummy_score(ctx, pd, entry) * entry.share, index))
    return items


class SonnebornBerger(TieBreak):
    """SB: C.07 art. 9.1; seed 002's Berger coefficient."""

    code = "SB"

    def values(self, ctx: TieBreakContext) -> dict[int, Fraction]:
        denominator = 2 * ctx.unit
        return {
            number: Fraction(sum(v for v, _ in sb_items(ctx, pd)), denominator)
            for number, pd in ctx.players.items()
        }

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        pd = ctx.players[number]
        denominator = 2 * ctx.unit
        contributions = []
        total = 0
        for value, index in sb_items(ctx, pd):
            entry = pd.entries[index]
            total += value
            if entry.kind is Kind.PLAYED:
                note = f"{_RESULT[entry.share]} vs {entry.opponent}"
                opponent: int | None = entry.opponent
            else:
                note = f"{entry.kind.name.lower()}: dummy opponent (C.07 art. 16.4)"
                opponent = None
            contributions.append(
                Contribution(entry.round, opponent, Fraction(value, denominator), note)
            )
        return TieBreakExplanation(
            self.code,
            Fraction(total, denominator),
            tuple(contributions),
            "opponent's score x result (1, 1/2, 0)",
        )
