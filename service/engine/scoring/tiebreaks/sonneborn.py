"""Sonneborn-Berger family: SB (C.07 art. 9.1), SB-D and SB-S, KS (art. 9.2).

SB-D, SB-S and the Koya reading come from the Russian tie-break notes that accompany
the Berger tables (docs/rules/tiebreaks.md, "The methods from the source texts").

* SB: the sum, over a participant's rounds, of the opponent's score times the result
  on the 1/½/0 scale (a win counts the opponent's whole score, a draw half, a loss
  nothing). The notes call it the Berger coefficient and work it on a 7-player
  round-robin (Sidorov 9, Kuznetsov 7.75) and on football 3/1/0 (Japan 8, Senegal 5):
  the multiplier is the result, not the points the point system gives for it (with
  1/½/0 the two agree, as FIDE's definition needs). Opponents' scores are art. 16.3
  adjusted scores; own unplayed rounds meet the art. 16.4 dummy opponent and count
  by the result they gave (a pairing-allocated bye as a win, a half-point bye as a
  draw). Modifiers: -C1, -C2 (art. 14, with the art. 16.5 exception), /P.
* SB-D: the notes' "Sonneborn-Berger" proper, doubled so as to avoid halves (win =
  twice the opponent's score, draw = once): Japan 16, Senegal 10.
* SB-S: simplified Berger (Dvoretsky, 1985): plus the scores of opponents
  beaten, minus the scores of those lost to, draws nothing.
* KS: Koya - points scored against opponents who reached at least 50 % (art. 9.2,
  meant for round-robins). Reading (the notes): 50 % on the 1/½/0 scale (STD, art.
  7.7), so under 3/1/0 "one win, one draw, one loss" qualifies (Senegal's 4 of 9
  points): Japan 4, Senegal 1. `/L` moves the threshold (art. 14.5): `/L+n` and
  `/L-n` by n half-points (a value with a decimal point is read in points), `/Lnn`
  sets the percentage.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import compress

from service.engine.scoring.tiebreaks.base import (
    Contribution,
    Raw,
    TieBreak,
    TieBreakExplanation,
)
from service.engine.scoring.tiebreaks.buchholz import OpponentSum
from service.engine.scoring.tiebreaks.context import Kind, TieBreakContext, opponent_points
from service.engine.scoring.tiebreaks.modifiers import NO_CUT
from service.engine.scoring.tiebreaks.own_results import standard_points

__all__ = ["DoubledSonnebornBerger", "Koya", "SimplifiedBerger", "SonnebornBerger"]


class SonnebornBerger(OpponentSum):
    """SB: C.07 art. 9.1; the tie-break notes' Berger coefficient."""

    base = "SB"
    formula = "opponent's score x result (1, 1/2, 0)"
    weights = (0, 1, 2)

    def denominator(self, ctx: TieBreakContext) -> int:
        return 2 * ctx.unit


class DoubledSonnebornBerger(OpponentSum):
    """SB-D: the tie-break notes' doubled form (win 2x, draw 1x the opponent's score)."""

    base = "SB-D"
    formula = "opponent's score x (2 win, 1 draw, 0 loss)"
    weights = (0, 1, 2)

    def __init__(self, count_forfeits: bool = False) -> None:
        super().__init__(NO_CUT, count_forfeits)


class SimplifiedBerger(OpponentSum):
    """SB-S: Dvoretsky's simplified Berger (the tie-break notes)."""

    base = "SB-S"
    formula = "+ score of opponents beaten, - score of opponents lost to"
    weights = (-1, 0, 1)

    def __init__(self, count_forfeits: bool = False) -> None:
        super().__init__(NO_CUT, count_forfeits)


class Koya(TieBreak):
    """KS: C.07 art. 9.2 with the `/L` limit of art. 14.5."""

    def __init__(self, percent: int = 50, shift_halves: Fraction = Fraction(0)) -> None:
        self.percent = percent
        self.shift_halves = Fraction(shift_halves)
        self.code = "KS" + _limit_suffix(percent, self.shift_halves)

    def qualified(self, ctx: TieBreakContext) -> dict[int, bool]:
        """Who reached the threshold: STD x 100 >= percent x max + shift."""
        std = standard_points(ctx)
        # halves >= 2 x percent x rounds / 100 + shift, kept in integers (x 100 x den).
        shift, den = self.shift_halves.numerator, self.shift_halves.denominator
        scale = 100 * den
        step = 2 * self.percent * den
        return {
            number: halves * scale >= step * rounds + 100 * shift
            for number, (halves, rounds) in std.items()
        }

    def raw(self, ctx: TieBreakContext) -> Raw:
        ok = self.qualified(ctx)
        out: dict[int, int] = {}
        for number, pd in ctx.players.items():
            opponents, points = opponent_points(pd, _COUNTED)
            # the points scored against the opponents who reached the threshold
            out[number] = sum(compress(points, map(ok.__getitem__, opponents)))
        return out, ctx.unit

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        ok = self.qualified(ctx)
        items = tuple(
            Contribution(
                e.round,
                e.opponent,
                ctx.fraction(e.points),
                f"vs {e.opponent} ({'at least' if ok.get(e.opponent) else 'below'} the limit)",
                ok.get(e.opponent, False),
            )
            for e in ctx.players[number].entries
            if _counts(e.kind)
        )
        total = sum((c.value for c in items if c.counted), Fraction(0))
        note = f"opponents with at least {self.percent}% on the 1/½/0 scale"
        if self.shift_halves:
            note += f", shifted by {self.shift_halves / 2} point"
        return TieBreakExplanation(self.code, total, items, note)


_COUNTED = frozenset({Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS})


def _counts(kind: Kind) -> bool:
    return kind in _COUNTED


def _limit_suffix(percent: int, shift_halves: Fraction) -> str:
    if percent != 50:
        return f"/L{percent}"
    if shift_halves:
        if shift_halves.denominator == 1:
            return f"/L{int(shift_halves):+d}"
        return f"/L{float(shift_halves / 2):+}"
    return ""
