"""Type B tie-breaks built from a participant's own results: FIDE C.07 art. 7.

* WIN (7.1): rounds in which the participant earned a win's points, with or without
  playing (forfeit wins and byes worth a win count).
* WON (7.2): games won over the board.
* BPG (7.3): games played over the board with Black.
* BWG (7.4): games won over the board with Black.
* PS (7.5): the sum of the running scores after each round; `-C<n>` drops the first
  n running scores (PS-C1).
* REP (7.6): rounds one elected to play - every round except voluntary unplayed
  rounds (half- and zero-point byes, absences, forfeit losses; art. 16.1).
* STD (7.7, 2026): standard points - per round 1 when the participant scored more
  than a draw's points, ½ for exactly a draw's, 0 otherwise; a 1/½/0 score for
  events with other point systems.
* TPN (7.8, 2026): the tournament pairing (start) number, lower first; `/R` reverses.

Forfeits are never games here (2026 art. 15.2 keeps them out of type B even for
pre-determined pairings). Pending games and a round-robin's free rounds count nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import accumulate, compress

from service.engine.scoring.tiebreaks.base import (
    Contribution,
    Raw,
    TieBreak,
    TieBreakExplanation,
)
from service.engine.scoring.tiebreaks.context import (
    SKIPPED_KINDS,
    Entry,
    Kind,
    PlayerData,
    Row,
    TieBreakContext,
)
from service.engine.scoring.tiebreaks.unplayed import VUR_KINDS

__all__ = [
    "BlackGames",
    "BlackWins",
    "GamesWon",
    "PairingNumber",
    "ProgressiveScore",
    "RoundsElectedToPlay",
    "StandardPoints",
    "Wins",
    "standard_points",
]


class _Count(TieBreak, ABC):
    """Counts the rounds that satisfy a predicate.

    `test` is the definition on one `Entry` (the reference, and the explanations);
    `fast_count` and `column_count` count the same rounds straight from the columns.
    """

    note = ""

    @abstractmethod
    def test(self, ctx: TieBreakContext) -> Callable[[Entry], bool]:
        """The predicate, bound to the context."""

    def fast_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        """The count for a participant whose every round was a game over the board."""
        return self.column_count(ctx, pd)

    def column_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        """The count for any participant, read from the columns (same as `test`)."""
        test = self.test(ctx)
        return sum(1 for e in pd.entries if test(e))

    def row_term(self, ctx: TieBreakContext) -> Callable[[Row], int] | None:
        """The count's term for one round as the digest stores it (`Row`), when the
        count has one: it is then brought forward at the changed rounds alone
        (`PlayerData.own_sum`)."""
        return None

    def raw(self, ctx: TieBreakContext) -> Raw:
        def count(pd: PlayerData) -> int:
            return self.fast_count(ctx, pd) if pd.all_played else self.column_count(ctx, pd)

        key = f"{self.code} count"  # the player's own rounds only: kept with the digest
        term = self.row_term(ctx)
        if term is not None:
            return {n: pd.own_sum(key, term, count) for n, pd in ctx.players.items()}, 1
        return {number: pd.own(key, count) for number, pd in ctx.players.items()}, 1

    def reference_raw(self, ctx: TieBreakContext) -> Raw:
        """Every participant's count by testing each `Entry`."""
        test = self.test(ctx)
        return {n: sum(1 for e in pd.entries if test(e)) for n, pd in ctx.players.items()}, 1

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        test = self.test(ctx)
        items = tuple(
            Contribution(e.round, e.opponent or None, Fraction(1), _describe(e))
            for e in ctx.players[number].entries
            if test(e)
        )
        return TieBreakExplanation(self.code, Fraction(len(items)), items, self.note)


class Wins(_Count):
    """WIN, C.07 art. 7.1."""

    code = "WIN"
    note = "rounds scoring a win's points, played or not"

    def test(self, ctx: TieBreakContext) -> Callable[[Entry], bool]:
        win = ctx.win
        return lambda e: e.points == win and e.kind not in SKIPPED_KINDS

    def row_term(self, ctx: TieBreakContext) -> Callable[[Row], int]:
        win = ctx.win
        return lambda row: row[3] == win and row[0] not in SKIPPED_KINDS

    def fast_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        return pd.points.count(ctx.win)

    def column_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        win = ctx.win
        count = pd.points.count(win)
        if count and (Kind.PENDING in pd.kinds or Kind.FREE in pd.kinds):
            # less the skipped rounds among those scoring a win's points
            kinds_scoring_a_win = compress(pd.kinds, map(win.__eq__, pd.points))
            count -= sum(map(SKIPPED_KINDS.__contains__, kinds_scoring_a_win))
        return count


class GamesWon(_Count):
    """WON, C.07 art. 7.2."""

    code = "WON"
    note = "games won over the board"

    def test(self, ctx: TieBreakContext) -> Callable[[Entry], bool]:
        return lambda e: e.kind is Kind.PLAYED and e.share == 2

    def fast_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        return pd.shares.count(2)

    def column_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        played = Kind.PLAYED
        return sum(1 for k, s in zip(pd.kinds, pd.shares, strict=True) if s == 2 and k is played)


class BlackGames(_Count):
    """BPG, C.07 art. 7.3."""

    code = "BPG"
    note = "games played over the board with Black"

    def test(self, ctx: TieBreakContext) -> Callable[[Entry], bool]:
        return lambda e: e.kind is Kind.PLAYED and e.colour < 0

    def fast_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        return pd.colours.count(-1)

    def column_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        played = Kind.PLAYED
        return sum(1 for k, c in zip(pd.kinds, pd.colours, strict=True) if c < 0 and k is played)


class BlackWins(_Count):
    """BWG, C.07 art. 7.4."""

    code = "BWG"
    note = "games won over the board with Black"

    def test(self, ctx: TieBreakContext) -> Callable[[Entry], bool]:
        return lambda e: e.kind is Kind.PLAYED and e.colour < 0 and e.share == 2

    def fast_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        return sum(1 for c, s in zip(pd.colours, pd.shares, strict=True) if c < 0 and s == 2)

    def column_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        played = Kind.PLAYED
        return sum(
            1
            for k, c, s in zip(pd.kinds, pd.colours, pd.shares, strict=True)
            if c < 0 and s == 2 and k is played
        )


class RoundsElectedToPlay(_Count):
    """REP, C.07 art. 7.6."""

    code = "REP"
    note = "rounds minus voluntary unplayed rounds (art. 16.1)"

    def test(self, ctx: TieBreakContext) -> Callable[[Entry], bool]:
        return lambda e: e.kind not in SKIPPED_KINDS and e.kind not in VUR_KINDS

    def fast_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        return len(pd.kinds)

    def column_count(self, ctx: TieBreakContext, pd: PlayerData) -> int:
        kinds = pd.kinds
        return len(kinds) - sum(kinds.count(k) for k in _NOT_ELECTED)


_NOT_ELECTED = tuple(SKIPPED_KINDS | VUR_KINDS)


class ProgressiveScore(TieBreak):
    """PS, C.07 art. 7.5; `cut` drops the first running scores (PS-C1)."""

    def __init__(self, cut: int = 0) -> None:
        self.cut = cut
        self.code = f"PS-C{cut}" if cut else "PS"

    def raw(self, ctx: TieBreakContext) -> Raw:
        cut = self.cut
        return {
            number: sum(list(accumulate(pd.points))[cut:]) for number, pd in ctx.players.items()
        }, ctx.unit

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        running = 0
        items = []
        for index, entry in enumerate(ctx.players[number].entries):
            running += entry.points
            items.append(
                Contribution(
                    entry.round,
                    entry.opponent or None,
                    ctx.fraction(running),
                    "running score",
                    index >= self.cut,
                )
            )
        total = sum((c.value for c in items if c.counted), Fraction(0))
        return TieBreakExplanation(self.code, total, tuple(items), "sum of running scores")


_COUNTS_FOR_STD = frozenset(Kind) - SKIPPED_KINDS


def standard_points(ctx: TieBreakContext) -> dict[int, tuple[int, int]]:
    """STD per participant as (half-points, rounds counted) (art. 7.7), cached."""
    return ctx.cached("std", lambda: _standard_points(ctx))


def _halves(points: int, draw: int) -> int:
    """Half-points of a round scoring `points` (art. 7.7: 2 a win, 1 a draw, 0 a loss)."""
    return 2 if points > draw else 1 if points == draw else 0


def _standard_points(ctx: TieBreakContext) -> dict[int, tuple[int, int]]:
    draw = ctx.draw

    def counted_halves(pd: PlayerData) -> int:
        counted = Counter(compress(pd.points, map(_COUNTS_FOR_STD.__contains__, pd.kinds)))
        return sum(_halves(points, draw) * n for points, n in counted.items())

    def counted_rounds(pd: PlayerData) -> int:
        return sum(map(_COUNTS_FOR_STD.__contains__, pd.kinds))

    def halves(row: Row) -> int:
        return _halves(row[3], draw) if row[0] in _COUNTS_FOR_STD else 0

    def rounds(row: Row) -> int:
        return row[0] in _COUNTS_FOR_STD

    def std(pd: PlayerData) -> tuple[int, int]:
        # the player's own rounds only: kept with the digest, moved by the changed rounds
        return (
            pd.own_sum("STD halves", halves, counted_halves),
            pd.own_sum("STD rounds", rounds, counted_rounds),
        )

    return {number: std(pd) for number, pd in ctx.players.items()}


class StandardPoints(TieBreak):
    """STD, C.07 (2026) art. 7.7."""

    code = "STD"

    def raw(self, ctx: TieBreakContext) -> Raw:
        return {n: h for n, (h, _) in standard_points(ctx).items()}, 2

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        items = tuple(
            Contribution(
                e.round, e.opponent or None, Fraction(_halves(e.points, ctx.draw), 2), _describe(e)
            )
            for e in ctx.players[number].entries
            if e.kind not in SKIPPED_KINDS
        )
        total = sum((c.value for c in items), Fraction(0))
        return TieBreakExplanation(self.code, total, items, "1 above a draw, 1/2 a draw, 0 below")


class PairingNumber(TieBreak):
    """TPN, C.07 (2026) art. 7.8: lower start number first unless reversed."""

    def __init__(self, reverse: bool = False) -> None:
        self.descending = reverse
        self.code = "TPN/R" if reverse else "TPN"

    def raw(self, ctx: TieBreakContext) -> Raw:
        return {number: number for number in ctx.players}, 1


def _describe(entry: Entry) -> str:
    if entry.kind is Kind.PLAYED:
        result = {2: "win", 1: "draw", 0: "loss"}[entry.share]
        colour = "white" if entry.colour > 0 else "black"
        return f"{result} with {colour} vs {entry.opponent}"
    return entry.kind.name.lower().replace("_", " ")
