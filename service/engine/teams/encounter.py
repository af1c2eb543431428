"""Team tie-breaks that compare the tied teams among themselves or board by board.

* DE (C.07 Art. 6, per Art. 13): a mini-table of the match points the tied teams
  scored in their matches against each other; teams still equal are compared again
  among themselves (6.2). A pair that met more than once counts the average (6.1.2).
  In a Swiss event only matches with a board played count (a match forfeited as a
  whole does not, 6.1.1), and when some tied teams did not meet, a team is placed
  first only if no other could reach its mini-table score by winning every match it
  did not play (6.3); in a round-robin the group is ordered as if all had met.
* EDE (13.3.1): DE on match points, then the same mini-table on game points; a group
  that splits is compared again from match points, among each tied subset only.
* EDET, EDEB (13.3.2, 2026): when EDE leaves exactly two teams tied, their match is
  compared board by board from the top (TBR) or by eliminating the bottom boards
  (BBE). EDEC, EDEBT, EDEBB put Board Count first (BC alone; then TBR; then BBE), the
  lower board-weighted sum ranking higher as C.07 12.1 says.
* TBR (12.2): game points on board 1 over the event, then board 2, and so on. BBE
  (12.3): game points without the bottom board, then without the two bottom boards,
  and so on. A PAB counts as a win on every board.

These report places, not values (`rank.place_values`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from service.engine.teams.base import KeyTieBreak, TeamTieBreak, split_by
from service.engine.teams.context import ScoreKind, TeamContext

__all__ = [
    "BottomBoardElimination",
    "DirectEncounter",
    "TopBoardResult",
    "board_count_key",
    "bottom_board_key",
    "extended_direct_encounter",
    "top_board_key",
]

BoardKey = Callable[[tuple[Fraction, ...]], tuple[Fraction, ...]]
"""Turns a team's game points per board into the values compared, higher first."""


def top_board_key(boards: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """TBR (C.07 12.2): board 1, then board 2, ..."""
    return boards


def bottom_board_key(boards: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """BBE (C.07 12.3): all boards but the bottom one, then but the two bottom, ..."""
    return tuple(sum(boards[:kept], Fraction(0)) for kept in range(len(boards) - 1, 0, -1))


def board_count_key(boards: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """BC (C.07 12.1) as a key compared higher-first: the negated board-weighted sum,
    so the lower sum ranks higher."""
    return (-sum((b * p for b, p in enumerate(boards, 1)), Fraction(0)),)


def _season_boards(ctx: TeamContext, team: int) -> tuple[Fraction, ...]:
    totals = [Fraction(0)] * ctx.event.scoring.boards
    for result in ctx.rounds_of(team):
        for index, points in enumerate(result.boards):
            totals[index] += points
    return tuple(totals)


class TopBoardResult(KeyTieBreak):
    """TBR (C.07 12.2)."""

    code = "TBR"

    def key(self, ctx: TeamContext, team: int) -> tuple[Fraction, ...]:
        return top_board_key(_season_boards(ctx, team))


class BottomBoardElimination(KeyTieBreak):
    """BBE (C.07 12.3)."""

    code = "BBE"

    def key(self, ctx: TeamContext, team: int) -> tuple[Fraction, ...]:
        return bottom_board_key(_season_boards(ctx, team))


class DirectEncounter(TeamTieBreak):
    """DE and the EDE family: mini-tables on `stages` (match points; for EDE then game
    points), then `tail` board keys on the match of the last two tied teams."""

    places = True

    def __init__(
        self, code: str, stages: Sequence[ScoreKind], tail: Sequence[BoardKey] = ()
    ) -> None:
        self.code = code
        self.stages = tuple(stages)
        self.tail = tuple(tail)

    def order(self, ctx: TeamContext, group: Sequence[int]) -> list[list[int]]:
        members = sorted(group)
        if len(members) < 2:
            return [members]
        for kind in self.stages:
            parts = self._split_once(ctx, members, kind)
            if len(parts) > 1:
                ordered: list[list[int]] = []
                for again, part in parts:
                    ordered.extend(self.order(ctx, part) if again else [part])
                return ordered
        return self._tail(ctx, members)

    def _mini_table(
        self, ctx: TeamContext, group: Sequence[int], kind: ScoreKind
    ) -> tuple[dict[int, Fraction], dict[int, int]]:
        """Per member: its points against the others (a pair met more than once: the
        average) and how many of them it met."""
        scores: dict[int, Fraction] = {}
        met: dict[int, int] = {}
        for team in group:
            total = Fraction(0)
            count = 0
            for other in group:
                if other == team:
                    continue
                matches = ctx.matches_between(team, other)
                if matches:
                    count += 1
                    own = sum((ctx.own(m, kind) for m in matches), Fraction(0))
                    total += own / len(matches)
            scores[team], met[team] = total, count
        return scores, met

    def _split_once(
        self, ctx: TeamContext, group: list[int], kind: ScoreKind
    ) -> list[tuple[bool, list[int]]]:
        """The group's parts in order, each marked whether it is compared again."""
        scores, met = self._mini_table(ctx, group, kind)
        size = len(group)
        if ctx.round_robin or all(met[t] == size - 1 for t in group):
            parts = split_by(group, lambda t: scores[t])
            return [(len(part) > 1, part) for part in parts] if len(parts) > 1 else [(False, group)]
        # C.07 6.3: from the top, place only a team nobody left can catch.
        best = (
            ctx.event.scoring.match_win
            if kind is ScoreKind.MP
            else Fraction(ctx.event.scoring.boards)
        )
        reach = {t: scores[t] + (size - 1 - met[t]) * best for t in group}
        remaining = sorted(group, key=lambda t: (-scores[t], t))
        placed: list[tuple[bool, list[int]]] = []
        while len(remaining) > 1:
            top = remaining[0]
            if all(reach[other] < scores[top] for other in remaining[1:]):
                placed.append((False, [top]))
                remaining = remaining[1:]
            else:
                break
        if not placed:
            return [(False, group)]
        placed.append((len(remaining) > 1, sorted(remaining)))
        return placed

    def _tail(self, ctx: TeamContext, group: list[int]) -> list[list[int]]:
        """C.07 13.3.2 (2026): two teams still tied are compared on their match."""
        if not self.tail or len(group) != 2:
            return [group]
        a, b = group
        matches = {t: ctx.matches_between(t, u) for t, u in ((a, b), (b, a))}
        if not matches[a]:
            return [group]

        def boards(team: int) -> tuple[Fraction, ...]:
            totals = [Fraction(0)] * ctx.event.scoring.boards
            for result in matches[team]:
                for index, points in enumerate(result.boards):
                    totals[index] += points
            return tuple(totals)

        def key(team: int) -> tuple[Fraction, ...]:
            return tuple(value for step in self.tail for value in step(boards(team)))

        return split_by(group, key)


def extended_direct_encounter(code: str, tail: Sequence[BoardKey] = ()) -> DirectEncounter:
    """EDE (C.07 13.3.1) and, with `tail`, its 2026 board comparisons (13.3.2)."""
    return DirectEncounter(code, (ScoreKind.MP, ScoreKind.GP), tail)
