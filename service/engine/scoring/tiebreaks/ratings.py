"""Rating-based tie-breaks: FIDE C.07 art. 10 (ARO, TPR, PTP, APRO, APPO, RTNG) and
the JCA Swiss rules' simple performance (PERF-JCA).

* ARO (10.1): average rating of the opponents met over the board, rounded to the
  nearest whole number (halves up). Modifiers -C1, -C2, -M1, -M2 cut the lowest (and
  highest) ratings.
* TPR (10.2): ARO + dp, dp from table B.02 8.1(a) for the percentage scored in those
  games (rounded to a whole percent, halves up).
* PTP (10.3): the lowest whole rating R whose expected score (table 8.1(b)) against
  the same opponents reaches the score; a score of 0 gives the lowest rating - 800.
* APRO / APPO (10.4 / 10.5): the average TPR / PTP of the opponents met over the
  board, rounded like ARO; opponents without a rating performance are left out.
* RTNG (10.6, 2026): the participant's own rating, higher first; `/R` reverses.
* PERF-JCA (the JCA Swiss rules' "simple performance"): own rating plus the ratings of all
  opponents; every unplayed round (forfeit, bye, absence) adds the own rating again.

Only games played over the board count (2026 art. 15.2: forfeits are not games for
rating tie-breaks, even with pre-determined pairings). A participant with no game
over the board has no ARO, TPR, PTP, APRO or APPO (an average of nothing): the
value is undefined (`undefined`; null in the API), as FIDE's tie-break checker gives
it, not 0, and sorts below every value. A cut that leaves no rating (ARO-C1 after one
game) gives 0, as the FIDE 2023 exercises do. Art. 10's preamble: a rating tie-break
cannot be used when unrated participants (rating 0) take part, unless the rating to
give them was published; `/U<rating>` gives it (e.g. `ARO/U1000`). Without
it, and with an unrated participant present, these tie-breaks are 0 for everybody
(they then separate nobody), and the explanation says why.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from fractions import Fraction

from service.engine.scoring.tiebreaks.base import (
    Contribution,
    Raw,
    TieBreak,
    TieBreakExplanation,
)
from service.engine.scoring.tiebreaks.context import SKIPPED_KINDS, Kind, TieBreakContext
from service.engine.scoring.tiebreaks.fide_tables import dp_for_percent, expected_percent
from service.engine.scoring.tiebreaks.modifiers import NO_CUT, Cut, Item, apply_cut

__all__ = [
    "AveragePerfectPerformance",
    "AveragePerformance",
    "AverageRating",
    "JcaPerformance",
    "OwnRating",
    "PerfectPerformance",
    "PerformanceRating",
    "half_up",
]

_DISABLED = "unrated participants present and no /U rating published (C.07 art. 10)"


def half_up(value: Fraction) -> int:
    """Round to the nearest whole number, halves up."""
    return math.floor(value + Fraction(1, 2))


class _RatingTieBreak(TieBreak, ABC):
    """Shared machinery: the rating list, the unrated rule, played games."""

    base = ""

    def __init__(self, unrated: int | None = None, cut: Cut = NO_CUT) -> None:
        self.unrated = unrated
        self.cut = cut
        self.code = self.base + cut.suffix + (f"/U{unrated}" if unrated is not None else "")

    def enabled(self, ctx: TieBreakContext) -> bool:
        """Art. 10 preamble: usable when everybody is rated or /U says how."""
        return self.unrated is not None or all(pd.rating > 0 for pd in ctx.players.values())

    def rating_of(self, ctx: TieBreakContext, number: int) -> int:
        """A participant's rating, the /U value for the unrated."""
        rating = ctx.players[number].rating
        return rating if rating > 0 else (self.unrated or 0)

    def games(self, ctx: TieBreakContext, number: int) -> list[tuple[int, int, int, int]]:
        """(round, opponent, opponent's rating, result in halves) of OTB games."""
        return [
            (e.round, e.opponent, self.rating_of(ctx, e.opponent), e.share)
            for e in ctx.players[number].entries
            if e.kind is Kind.PLAYED
        ]

    @abstractmethod
    def compute(self, ctx: TieBreakContext, number: int) -> int | None:
        """The value for one participant, None when there is none (no games)."""

    def raw(self, ctx: TieBreakContext) -> Raw:
        if not self.enabled(ctx):
            return dict.fromkeys(ctx.players, 0), 1
        return {number: value or 0 for number, value in self.computed(ctx).items()}, 1

    def undefined(self, ctx: TieBreakContext) -> frozenset[int]:
        """Participants with no game over the board: no value (see the module). A cut
        that leaves no rating (ARO-C1 after one game) gives 0, as FIDE's 2023
        exercises show it."""
        if not self.enabled(ctx):
            return frozenset()
        games = games_over_the_board(ctx)
        return frozenset(n for n, (opponents, _) in games.items() if not opponents)

    def shown(self, ctx: TieBreakContext, number: int, computed: int | None) -> Fraction | None:
        """The value an explanation shows: None when undefined, else the value or 0."""
        return None if number in self.undefined(ctx) else Fraction(computed or 0)

    def computed(self, ctx: TieBreakContext) -> dict[int, int | None]:
        """`compute` for every participant, cached per context under the code (APRO
        and APPO read the TPR and PTP of the same code without recomputing them)."""
        return ctx.cached(
            f"perf:{self.code}", lambda: {n: self.compute(ctx, n) for n in ctx.players}
        )

    def reference(self, ctx: TieBreakContext, number: int) -> int | None:
        """`compute` from the participant's `Entry` records (default: `compute`)."""
        return self.compute(ctx, number)

    def reference_raw(self, ctx: TieBreakContext) -> Raw:
        if not self.enabled(ctx):
            return dict.fromkeys(ctx.players, 0), 1
        return {number: self.reference(ctx, number) or 0 for number in ctx.players}, 1

    def reference_played(self, ctx: TieBreakContext, number: int) -> tuple[list[int], int]:
        """`played` read from the `Entry` records, one round at a time."""
        games = self.games(ctx, number)
        return [rating for _, _, rating, _ in games], sum(share for _, _, _, share in games)

    def rating_map(self, ctx: TieBreakContext) -> dict[int, int]:
        """Every participant's rating (the /U value for the unrated), cached."""
        unrated = self.unrated or 0
        return ctx.cached(
            f"ratings:{unrated}",
            lambda: {n: pd.rating if pd.rating > 0 else unrated for n, pd in ctx.players.items()},
        )

    def played(self, ctx: TieBreakContext, number: int) -> tuple[list[int], int]:
        """Opponents' ratings in games over the board, and the score in them (halves)."""
        ratings = self.rating_map(ctx)
        opponents, halves = games_over_the_board(ctx)[number]
        return [ratings[o] for o in opponents], halves

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        if not self.enabled(ctx):
            return TieBreakExplanation(self.code, Fraction(0), (), _DISABLED)
        items = tuple(
            Contribution(rnd, opp, Fraction(rating), f"rating of {opp}, result {share / 2}")
            for rnd, opp, rating, share in self.games(ctx, number)
        )
        value = self.shown(ctx, number, self.compute(ctx, number))
        return TieBreakExplanation(self.code, value, items, self.__doc__ or "")


def games_over_the_board(ctx: TieBreakContext) -> dict[int, tuple[tuple[int, ...], int]]:
    """Per participant: the opponents met over the board, in round order, and the
    score in those games in halves (forfeits, byes and pending games left out);
    computed once per context for every rating tie-break."""
    return ctx.cached("otb-games", lambda: _games_over_the_board(ctx))


def _games_over_the_board(ctx: TieBreakContext) -> dict[int, tuple[tuple[int, ...], int]]:
    played = Kind.PLAYED
    out: dict[int, tuple[tuple[int, ...], int]] = {}
    for number, pd in ctx.players.items():
        kinds = pd.kinds
        games = kinds.count(played)
        if games == len(kinds):
            out[number] = (pd.opponents, sum(pd.shares))
        elif games == len(kinds) - 1 and kinds[-1] is not played:
            out[number] = (pd.opponents[:-1], sum(pd.shares[:-1]))
        else:
            rows = [
                (o, h)
                for k, o, h in zip(kinds, pd.opponents, pd.shares, strict=True)
                if k is played
            ]
            out[number] = (tuple(o for o, _ in rows), sum(h for _, h in rows))
    return out


def average_rating(ratings: list[int]) -> int | None:
    """ARO of a rating list, halves up; None for no games."""
    count = len(ratings)
    return (2 * sum(ratings) + count) // (2 * count) if count else None


def performance(ratings: list[int], halves: int) -> int | None:
    """TPR: ARO + dp(percentage scored, whole percent, halves up), art. 10.2."""
    count = len(ratings)
    if not count:
        return None
    aro = (2 * sum(ratings) + count) // (2 * count)
    percent = (100 * halves + count) // (2 * count)
    return aro + dp_for_percent(percent)


def perfect_performance(ratings: list[int], halves: int) -> int | None:
    """PTP: lowest R with expected score >= score (art. 10.3), by bisection."""
    if not ratings:
        return None
    if halves == 0:
        return min(ratings) - 800
    target = 50 * halves  # hundredths
    table = _EXPECTED_BY_DIFF
    top = _EXPECTED_SPAN
    low = min(ratings) - 800  # expected score 0 here: below target
    high = max(ratings) + 800  # expected score full here: reaches target
    while high - low > 1:
        middle = (low + high) // 2
        total = 0
        for r in ratings:
            d = middle - r
            total += table[(top if d > top else -top if d < -top else d) + top]
        if total >= target:
            high = middle
        else:
            low = middle
    return high


_EXPECTED_SPAN = 800
_EXPECTED_BY_DIFF = tuple(
    expected_percent(d, 0) for d in range(-_EXPECTED_SPAN, _EXPECTED_SPAN + 1)
)
"""Table 8.1(b) by rating difference -800..800 (beyond that it stays at 0 or 100)."""


class AverageRating(_RatingTieBreak):
    """ARO, C.07 art. 10.1: average rating of the opponents met over the board."""

    base = "ARO"

    def compute(self, ctx: TieBreakContext, number: int) -> int | None:
        return self._average(self.played(ctx, number)[0])

    def reference(self, ctx: TieBreakContext, number: int) -> int | None:
        return self._average(self.reference_played(ctx, number)[0])

    def _average(self, ratings: list[int]) -> int | None:
        if self.cut:
            ratings.sort()
            count = len(ratings)
            low = min(self.cut.low, count)
            ratings = ratings[low : count - min(self.cut.high, count - low)]
        return average_rating(ratings)

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        if not self.enabled(ctx):
            return TieBreakExplanation(self.code, Fraction(0), (), _DISABLED)
        games = self.games(ctx, number)
        items = [Item(i, rating, rating) for i, (_, _, rating, _) in enumerate(games)]
        kept, _ = apply_cut(items, self.cut)
        kept_index = {item.index for item in kept}
        contributions = tuple(
            Contribution(rnd, opp, Fraction(rating), f"rating of {opp}", i in kept_index)
            for i, (rnd, opp, rating, _) in enumerate(games)
        )
        value = self.shown(ctx, number, average_rating([item.value for item in kept]))
        return TieBreakExplanation(self.code, value, contributions, "mean, halves up")


class PerformanceRating(_RatingTieBreak):
    """TPR, C.07 art. 10.2: ARO + dp (B.02 table 8.1a)."""

    base = "TPR"

    def compute(self, ctx: TieBreakContext, number: int) -> int | None:
        return performance(*self.played(ctx, number))

    def reference(self, ctx: TieBreakContext, number: int) -> int | None:
        return performance(*self.reference_played(ctx, number))


class PerfectPerformance(_RatingTieBreak):
    """PTP, C.07 art. 10.3: lowest rating whose expected score reaches the score."""

    base = "PTP"

    def compute(self, ctx: TieBreakContext, number: int) -> int | None:
        return perfect_performance(*self.played(ctx, number))

    def reference(self, ctx: TieBreakContext, number: int) -> int | None:
        return perfect_performance(*self.reference_played(ctx, number))


class _AverageOfOpponents(_RatingTieBreak):
    inner: type[_RatingTieBreak] = PerformanceRating

    def per_player(self, ctx: TieBreakContext) -> dict[int, int | None]:
        """The inner performance of every participant (cached per context)."""
        return self.inner(self.unrated).computed(ctx)

    def compute(self, ctx: TieBreakContext, number: int) -> int | None:
        perf = self.per_player(ctx)
        opponents, _ = games_over_the_board(ctx)[number]
        return average_rating([v for o in opponents if (v := perf.get(o)) is not None])

    def reference(self, ctx: TieBreakContext, number: int) -> int | None:
        inner = self.inner(self.unrated)
        perf = ctx.cached(
            f"reference-perf:{inner.code}",
            lambda: {n: inner.reference(ctx, n) for n in ctx.players},
        )
        values = [
            value
            for _, opponent, _, _ in self.games(ctx, number)
            if (value := perf[opponent]) is not None
        ]
        return average_rating(values)

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        if not self.enabled(ctx):
            return TieBreakExplanation(self.code, Fraction(0), (), _DISABLED)
        perf = self.per_player(ctx)
        items = tuple(
            Contribution(rnd, opp, Fraction(perf.get(opp) or 0), f"{self.inner.base} of {opp}")
            for rnd, opp, _, _ in self.games(ctx, number)
            if perf.get(opp) is not None
        )
        value = self.shown(ctx, number, self.compute(ctx, number))
        return TieBreakExplanation(self.code, value, items, "mean, halves up")


class AveragePerformance(_AverageOfOpponents):
    """APRO, C.07 art. 10.4: average TPR of the opponents."""

    base = "APRO"
    inner = PerformanceRating


class AveragePerfectPerformance(_AverageOfOpponents):
    """APPO, C.07 art. 10.5: average PTP of the opponents."""

    base = "APPO"
    inner = PerfectPerformance


class OwnRating(_RatingTieBreak):
    """RTNG, C.07 (2026) art. 10.6: own rating, higher first unless reversed."""

    base = "RTNG"

    def __init__(self, unrated: int | None = None, reverse: bool = False) -> None:
        super().__init__(unrated)
        self.descending = not reverse
        if reverse:
            self.code += "/R"

    def compute(self, ctx: TieBreakContext, number: int) -> int | None:
        return self.rating_of(ctx, number)

    def undefined(self, ctx: TieBreakContext) -> frozenset[int]:
        """Everybody has a rating (0 or the /U value for the unrated)."""
        del ctx
        return frozenset()

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        value = self.values(ctx)[number]
        note = "" if self.enabled(ctx) else _DISABLED
        return TieBreakExplanation(self.code, value, (), note or "own rating")


class JcaPerformance(TieBreak):
    """PERF-JCA (JCA Swiss rules): own + opponents' ratings, own rating per unplayed round."""

    code = "PERF-JCA"

    def _items(self, ctx: TieBreakContext, number: int) -> list[Contribution]:
        pd = ctx.players[number]
        items = [Contribution(None, None, Fraction(pd.rating), "own rating")]
        for e in pd.entries:
            if e.kind in SKIPPED_KINDS:
                continue
            if e.kind is Kind.PLAYED:
                rating = ctx.players[e.opponent].rating
                items.append(Contribution(e.round, e.opponent, Fraction(rating), "opponent"))
            else:
                note = f"{e.kind.name.lower()}: own rating"
                items.append(Contribution(e.round, e.opponent or None, Fraction(pd.rating), note))
        return items

    def raw(self, ctx: TieBreakContext) -> Raw:
        players = ctx.players
        out: dict[int, int] = {}
        for number, pd in players.items():
            total = pd.rating
            for kind, opponent in zip(pd.kinds, pd.opponents, strict=True):
                if kind is Kind.PLAYED:
                    total += players[opponent].rating
                elif kind not in SKIPPED_KINDS:
                    total += pd.rating
            out[number] = total
        return out, 1

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        items = tuple(self._items(ctx, number))
        total = sum((c.value for c in items), Fraction(0))
        return TieBreakExplanation(self.code, total, items, "JCA simple performance")
