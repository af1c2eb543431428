"""Buchholz family: BH (C.07 art. 8.1), FB (art. 8.3), AOB (art. 8.2).

* BH: the sum of the (art. 16.3 adjusted) scores of the participant's opponents; own
  unplayed rounds meet the art. 16.4 dummy opponent. The JCA Swiss rules call it
  Solkoff; their "median Solkoff" (ソルコフ中取) is worded there as leaving out the top
  opponent, while the usual meaning of "median" drops the top and the bottom one: the
  alias SOLKOFF-M follows the usual meaning (BH-M1; docs/rules/tiebreaks.md).
  Modifiers: -C1, -C2, -M1, -M2 (art. 14, with the art.
  16.5 VUR exception) and /P (forfeits as games against the scheduled opponent).
  C.07 2026 notes BH is not meant for round-robins, where every participant meets
  the same field; it is still computed there.
* FB: Buchholz with every paired game of the last round counted as a draw, for
  standings shown before that round ends (pending games included).
* AOB: the average of the Buchholz of the opponents met over the board; `/F` takes
  their Fore Buchholz instead (2026). Kept exact (no rounding).
"""

from __future__ import annotations

from fractions import Fraction
from operator import mul

from service.engine.scoring.tiebreaks.base import (
    Contribution,
    Raw,
    TieBreak,
    TieBreakExplanation,
    raw_of,
)
from service.engine.scoring.tiebreaks.context import Kind, TieBreakContext
from service.engine.scoring.tiebreaks.modifiers import NO_CUT, Cut, Item, apply_cut, cut_total
from service.engine.scoring.tiebreaks.opponents import (
    OpponentRound,
    opponent_columns,
    opponent_rounds,
)
from service.engine.scoring.tiebreaks.unplayed import category, score_view

__all__ = ["AverageOfBuchholz", "Buchholz", "ForeBuchholz", "OpponentSum"]

_RESULT = {2: "win", 1: "draw", 0: "loss"}


class OpponentSum(TieBreak):
    """A sum over rounds of opponent score x weight, with cuts (BH, FB, SB, ...)."""

    base = "BH"
    """Code without modifiers."""
    fore = False
    """Fore Buchholz scores."""
    formula = "opponent's score"
    """Text for explanations."""

    def __init__(self, cut: Cut = NO_CUT, count_forfeits: bool = False) -> None:
        self.cut = cut
        self.count_forfeits = count_forfeits
        self.code = self.base + cut.suffix + ("/P" if count_forfeits else "")

    weights: tuple[int, int, int] = (1, 1, 1)
    """Multiplier of the opponent's score by result in halves (loss, draw, win)."""

    def weight(self, rnd: OpponentRound) -> int:
        """Multiplier applied to the score in one round."""
        return self.weights[rnd.share]

    def denominator(self, ctx: TieBreakContext) -> int:
        """What one unit of the summed values is worth in points."""
        return ctx.unit

    def _items(self, ctx: TieBreakContext, number: int) -> list[tuple[OpponentRound, Item]]:
        view = score_view(ctx, self.fore)
        pd = ctx.players[number]
        return [
            (rnd, Item(rnd.index, rnd.score, rnd.score * self.weight(rnd), rnd.vur))
            for rnd in opponent_rounds(ctx, pd, view, self.count_forfeits)
        ]

    def raw(self, ctx: TieBreakContext) -> Raw:
        """Sums over `opponent_columns` (shared by every code of the family); a cut
        with a VUR among the values goes through `cut_total` (art. 16.5)."""
        columns = opponent_columns(ctx, score_view(ctx, self.fore), self.count_forfeits)
        weights = self.weights
        plain = weights == (1, 1, 1)
        cut = self.cut
        low, high = cut.low, cut.high
        out: dict[int, int] = {}
        for number, (scores, shares, vurs) in columns.items():
            if plain:
                if not (low or high):
                    out[number] = sum(scores)
                    continue
                values = scores
                if not vurs:
                    ordered = sorted(scores)
                    count = len(ordered)
                    cut_low = min(low, count)
                    out[number] = sum(ordered[cut_low : count - min(high, count - cut_low)])
                    continue
            else:
                if not (low or high):
                    out[number] = sum(map(mul, scores, map(weights.__getitem__, shares)))
                    continue
                values = [s * weights[h] for s, h in zip(scores, shares, strict=True)]
            out[number] = cut_total(scores, values, vurs, cut)
        return out, self.denominator(ctx)

    def reference_raw(self, ctx: TieBreakContext) -> Raw:
        """`raw` computed round by round through `opponent_rounds` and `apply_cut`."""
        out: dict[int, int] = {}
        for number in ctx.players:
            kept, _ = apply_cut([item for _, item in self._items(ctx, number)], self.cut)
            out[number] = sum(item.value for item in kept)
        return out, self.denominator(ctx)

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        pairs = self._items(ctx, number)
        kept, _ = apply_cut([item for _, item in pairs], self.cut)
        kept_ids = {id(item) for item in kept}
        denominator = self.denominator(ctx)
        entries = ctx.players[number].entries
        contributions = []
        for rnd, item in pairs:
            entry = entries[rnd.index]
            score = ctx.fraction(rnd.score)
            if rnd.opponent:
                result = _RESULT.get(rnd.share, "")
                how = "game" if entry.kind is Kind.PLAYED else entry.kind.name.lower()
                note = f"{how} vs {rnd.opponent} ({result}), opponent's score {score}"
            else:
                kind = entry.kind.name.lower().replace("_", " ")
                if entry.opponent:
                    kind += f" vs {entry.opponent}"
                note = (
                    f"{kind} (art. {category(entries, rnd.index)}): dummy opponent with "
                    f"{score} (art. 16.4{', a VUR' if rnd.vur else ''})"
                )
            contributions.append(
                Contribution(
                    entry.round,
                    rnd.opponent or None,
                    Fraction(item.value, denominator),
                    note,
                    id(item) in kept_ids,
                )
            )
        total = Fraction(sum(item.value for item in kept), denominator)
        return TieBreakExplanation(self.code, total, tuple(contributions), self.formula)


class Buchholz(OpponentSum):
    """BH, C.07 art. 8.1 (Solkoff in the JCA Swiss rules)."""

    base = "BH"


class ForeBuchholz(OpponentSum):
    """FB, C.07 art. 8.3: Buchholz with the last round's paired games as draws."""

    base = "FB"
    fore = True


class AverageOfBuchholz(TieBreak):
    """AOB, C.07 art. 8.2: mean Buchholz of the opponents met over the board."""

    def __init__(self, fore: bool = False) -> None:
        self.fore = fore
        self.code = "AOB/F" if fore else "AOB"
        self._inner: OpponentSum = ForeBuchholz() if fore else Buchholz()

    def _opponents(self, ctx: TieBreakContext, number: int) -> list[tuple[int, int]]:
        return [(e.round, e.opponent) for e in ctx.players[number].entries if e.kind is Kind.PLAYED]

    def values(self, ctx: TieBreakContext) -> dict[int, Fraction]:
        inner, denominator = ctx.cached("raw:" + self._inner.code, lambda: self._inner.raw(ctx))
        out: dict[int, Fraction] = {}
        for number, pd in ctx.players.items():
            opponents = [o for k, o in zip(pd.kinds, pd.opponents, strict=True) if k is Kind.PLAYED]
            out[number] = (
                Fraction(sum(inner[o] for o in opponents), len(opponents) * denominator)
                if opponents
                else Fraction(0)
            )
        return out

    def reference_raw(self, ctx: TieBreakContext) -> Raw:
        """The mean over the entries, on the inner Buchholz's own reference values."""
        inner, denominator = self._inner.reference_raw(ctx)
        out: dict[int, Fraction] = {}
        for number in ctx.players:
            opponents = [o for _, o in self._opponents(ctx, number)]
            out[number] = (
                Fraction(sum(inner[o] for o in opponents), len(opponents) * denominator)
                if opponents
                else Fraction(0)
            )
        return raw_of(out)

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        inner = self._inner.values(ctx)
        items = tuple(
            Contribution(rnd, opp, inner[opp], f"{self._inner.code} of {opp}")
            for rnd, opp in self._opponents(ctx, number)
        )
        value = self.values(ctx)[number]
        return TieBreakExplanation(self.code, value, items, f"mean of {len(items)} values")
