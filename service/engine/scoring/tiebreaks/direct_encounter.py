"""Direct Encounter, DE: FIDE C.07 art. 6 (type A: orders one tied group at a time).

Reading taken of art. 6:

* The mini-table: for each tied participant, the points scored in games against the
  other participants of the same tied group (tied on points and every earlier
  tie-break). When a pair met more than once, the pair's result is the average of
  their encounters (art. 6.1.2 reading: every pair weighs the same).
* Only games played over the board count (art. 6.1.1, Swiss default); the modifier
  `/P` (DE/P) counts forfeits as games against the scheduled opponent, and so do
  round-robins (pre-determined pairings, 2026 art. 15.2).
* If every pair of the group met (art. 6.1), the group is ordered by mini-table score;
  participants still equal form a smaller tied group and DE is applied to it again
  (art. 6.2), using only the games among them.
* In a round-robin the group is ordered as if all had met (the pairings are fixed;
  FIDE's tie-break checker does the same).
* If some pairs did not meet (art. 6.3, typical in Swiss), a participant is ranked
  above the rest only when no other remaining participant could reach their
  mini-table score even by winning every encounter they did not play; this is
  repeated from the top, and whoever is left stays tied (and, when fewer than the
  group, is tried again as a group of its own).

The value shown is the first-level mini-table score; the order may be refined by the
steps above, so the ranking uses the order, not only the shown value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import compress

from service.engine.scoring.tiebreaks.base import Contribution, GroupOrder, GroupTieBreak
from service.engine.scoring.tiebreaks.context import Kind, TieBreakContext, opponent_points

__all__ = ["DirectEncounter"]

Score = int | Fraction
"""A mini-table score in context units: exact, and an int in the common case (every
pair met once), which keeps the nested splits of large tied groups cheap."""


@dataclass(frozen=True, slots=True)
class _Table:
    """A group's mini-table: per member, the score in context units and how many
    distinct members it met; `single` when every pair of the group met at most once
    (then every score is an int, and a sub-group's table follows from this one by
    subtraction: `DirectEncounter._narrowed`)."""

    scores: dict[int, Score]
    met: dict[int, int]
    single: bool


class DirectEncounter(GroupTieBreak):
    """DE, C.07 art. 6; `count_forfeits` for the /P modifier."""

    def __init__(self, count_forfeits: bool = False) -> None:
        self.count_forfeits = count_forfeits
        self.code = "DE/P" if count_forfeits else "DE"

    def order(self, ctx: TieBreakContext, group: Sequence[int]) -> GroupOrder:
        table = self._mini_table(ctx, group)
        scores = {p: ctx.fraction(table.scores[p]) for p in group}
        notes = {
            p: f"mini-table of {len(group)} tied: {scores[p]} from {table.met[p]} of "
            f"{len(group) - 1} opponents met"
            for p in group
        }
        return GroupOrder(scores, self._split(ctx, list(group), table), notes)

    def contributions(
        self, ctx: TieBreakContext, group: Sequence[int], number: int
    ) -> tuple[Contribution, ...]:
        """The participant's games against the rest of the tied group."""
        members = set(group)
        kinds = self._kinds(ctx)
        return tuple(
            Contribution(e.round, e.opponent, ctx.fraction(e.points), "game in the group")
            for e in ctx.players[number].entries
            if e.opponent in members and e.kind in kinds
        )

    def _kinds(self, ctx: TieBreakContext) -> tuple[Kind, ...]:
        if self.count_forfeits or ctx.round_robin:
            return (Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS)
        return (Kind.PLAYED,)

    def _encounters(
        self, ctx: TieBreakContext
    ) -> dict[int, tuple[tuple[int, ...], tuple[int, ...]]]:
        """Per participant, the opponents and points of the rounds DE counts, once per
        context: the mini-tables of the nested groups (art. 6.2) then visit only real
        encounters, not every scheduled round (a round-robin's pending games)."""
        kinds = frozenset(self._kinds(ctx))
        return ctx.cached(
            f"DE encounters {sorted(kinds)}",
            lambda: {n: opponent_points(data, kinds) for n, data in ctx.players.items()},
        )

    def _mini_table(self, ctx: TieBreakContext, group: Sequence[int]) -> _Table:
        """Per member: mini-table score in context units (an int unless a pair met more
        than once) and the number of distinct group members met."""
        inside = set(group).__contains__
        encounters = self._encounters(ctx)
        scores: dict[int, Score] = {}
        met: dict[int, int] = {}
        single = True
        for p in group:
            opponents, points = encounters[p]
            kept = list(map(inside, opponents))
            met_opponents = tuple(compress(opponents, kept))
            met_points = tuple(compress(points, kept))
            distinct = len(set(met_opponents))
            met[p] = distinct
            if distinct == len(met_opponents):  # every pair met once: the common case
                scores[p] = sum(met_points)
                continue
            single = False
            per_opponent: dict[int, list[int]] = {}
            for opponent, pts in zip(met_opponents, met_points, strict=True):
                per_opponent.setdefault(opponent, []).append(pts)
            scores[p] = sum(
                (Fraction(sum(pts), len(pts)) for pts in per_opponent.values()), Fraction(0)
            )
        return _Table(scores, met, single)

    def _narrowed(
        self,
        ctx: TieBreakContext,
        table: _Table,
        members: list[int],
        part: list[int],
        against: dict[int, dict[int, int]],
        *,
        take_over: bool = False,
    ) -> _Table | None:
        """The mini-table of `part`, a sub-group of `members` whose table is `table`:
        each remaining member's score less what it scored against those who left, and
        one encounter fewer met per leaver it met (art. 6.2 counts only the games among
        the sub-group). Work for the leavers' encounters only, where computing afresh
        visits every remaining member's: a group peeled one participant at a time (a
        chain of wins, common early in a round-robin) costs its size, not its square.
        None when computing afresh is the cheaper road (more leave than stay) or the
        only exact one (a pair met more than once: averaged scores). `against` keeps,
        per member a leaver met, its points by opponent (within the group every pair
        met once, so one entry per leaver). `take_over`: the group's table is not
        needed again, and becomes the part's."""
        if not table.single or 2 * len(part) <= len(members):
            return None
        encounters = self._encounters(ctx)
        leavers = set(members).difference(part)
        if take_over:
            scores, met = table.scores, table.met
            for leaver in leavers:
                del scores[leaver], met[leaver]
        else:
            scores = {p: table.scores[p] for p in part}
            met = {p: table.met[p] for p in part}
        for leaver in leavers:
            for opponent in encounters[leaver][0]:
                if opponent in scores:
                    by_opponent = against.get(opponent)
                    if by_opponent is None:
                        opponents, points = encounters[opponent]
                        by_opponent = dict(zip(opponents, points, strict=True))
                        against[opponent] = by_opponent
                    scores[opponent] -= by_opponent[leaver]
                    met[opponent] -= 1
        return _Table(scores, met, True)

    def _split(self, ctx: TieBreakContext, group: list[int], table: _Table) -> list[list[int]]:
        """The group's order as tied sub-groups, best first (art. 6.2 and 6.3).

        A work list, not recursion: peeling a large tied group one participant at a
        time (art. 6.2 applied again to the rest) nests as deep as the group is large.
        """
        result: list[list[int]] = []
        against: dict[int, dict[int, int]] = {}
        """Per member met by a leaver: its points by opponent (`_narrowed`), made once."""
        work: list[tuple[bool, list[int], _Table | None]] = [(True, group, table)]
        while work:
            again, members, known = work.pop()
            if not again or len(members) < 2:
                result.append(members)
                continue
            if known is None:
                known = self._mini_table(ctx, members)
            parts = self._split_once(ctx, members, known)
            # the largest part to split again takes over the group's table, the others
            # narrow copies of it first (a peel then copies nothing)
            again_sizes = [len(part) if split else 0 for split, part in parts]
            heir = again_sizes.index(max(again_sizes))
            narrowed: list[_Table | None] = [None] * len(parts)
            for index in [*(i for i in range(len(parts)) if i != heir), heir]:
                split, part = parts[index]
                if split:
                    narrowed[index] = self._narrowed(
                        ctx, known, members, part, against, take_over=index == heir
                    )
            for (split, part), sub_table in zip(reversed(parts), reversed(narrowed), strict=True):
                work.append((split, part, sub_table))
        return result

    def _split_once(
        self, ctx: TieBreakContext, group: list[int], table: _Table
    ) -> list[tuple[bool, list[int]]]:
        """One step for a group of two or more: its parts in order, each marked whether
        DE applies to it again (a smaller tied group) or it is final."""
        scores, met = table.scores, table.met
        ordered = sorted(group, key=lambda p: (-scores[p], p))
        size = len(group)
        if ctx.round_robin or all(met[p] == size - 1 for p in group):
            parts: list[tuple[bool, list[int]]] = []
            start = 0
            while start < size:
                end = start
                while end < size and scores[ordered[end]] == scores[ordered[start]]:
                    end += 1
                tied = ordered[start:end]
                parts.append((len(tied) < size, tied))
                start = end
            return parts
        # Art. 6.3: rank from the top only those nobody can catch.
        reach = {p: scores[p] + (size - 1 - met[p]) * ctx.win for p in group}
        parts = []
        remaining = ordered
        while len(remaining) > 1:
            top = remaining[0]
            if all(reach[q] < scores[top] for q in remaining[1:]):
                parts.append((False, [top]))
                remaining = remaining[1:]
            else:
                break
        parts.append((1 < len(remaining) < size, remaining))
        return parts
