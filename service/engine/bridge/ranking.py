"""The live ranking of a bridge event from the results entered so far (docs/rules/bridge.md).

Each board is scored among the results entered so far, so the ranking is right at
every moment of the session, not only at its end:

- Matchpoints: a board is factored with Neuberg's formula up to the number of times
  the movement has it played (the EBU/WBF treatment of boards with fewer results), so
  a board weighs the same whether or not every table has reported; a lone result is
  50 %. Pairs rank by total matchpoints over total top (the EBU/WBF session
  percentage).
- Butler and Cavendish: pairs rank by total IMPs; with `round_cap`, the IMPs won in a
  round of k boards are capped at 10 + k (the Polish cap).
- Teams: a match is scored over the boards with both rooms in, on the VP table of the
  full match length; teams rank by VP, then by IMP difference. A room holding an
  artificial score turns the board into an IMP adjustment (60 % -> +3, 40 % -> -3
  IMPs for the side concerned); when both rooms are adjusted their IMPs are averaged.

Places are shared (1, 2, 2, 4) only on exactly equal figures; equal entrants are
listed by number. All figures are exact (ints and Fractions).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from service.engine.bridge.butler import artificial_imps, butler
from service.engine.bridge.cavendish import capped_round_total, cavendish
from service.engine.bridge.entries import ArtificialScore
from service.engine.bridge.matchpoints import matchpoints, session_percentage
from service.engine.bridge.movement import Layout
from service.engine.bridge.teams import ImpAdjustment, TeamBoard, team_match
from service.engine.ranking import shared_places

__all__ = ["EventRanking", "MatchScore", "RankingLine", "TableResult", "event_ranking"]

Exact = int | Fraction


class TableResult(NamedTuple):
    """One table's result on one board: the NS score, or an artificial score.

    A named tuple: a live ranking builds one per stored result on every recomputation,
    and tuples are several times cheaper to make than frozen dataclasses.
    """

    round: int
    table: int
    board: int
    ns: int
    ew: int
    entry: int | ArtificialScore


@dataclass(frozen=True, slots=True)
class RankingLine:
    """One pair's or team's line."""

    rank: int
    number: int
    name: str
    boards: int
    """Boards scored so far."""
    score: Exact
    """Matchpoints, IMPs, or VP (teams)."""
    top: Exact | None = None
    """Pairs at matchpoints: the matchpoints available."""
    percent: Fraction | None = None
    """Pairs at matchpoints: score / top x 100."""
    matches: int | None = None
    """Teams: matches with at least one board scored."""
    imps_for: Fraction | None = None
    imps_against: Fraction | None = None


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A team match as scored so far (home first)."""

    round: int
    home: int
    away: int
    boards: int
    """Boards with both rooms in."""
    imps: tuple[Exact, Exact]
    vp: tuple[Exact, Exact]


@dataclass(frozen=True, slots=True)
class EventRanking:
    """The ranking, best first."""

    kind: str
    scoring: str
    results: int
    """Results the ranking was computed from."""
    rows: tuple[RankingLine, ...]
    matches: tuple[MatchScore, ...] | None = None
    """Teams: every match of the schedule."""


def _places(keys: Mapping[int, tuple[Exact, ...]]) -> list[tuple[int, int]]:
    """(place, entrant) pairs, best (smallest key) first, equal keys by number; places
    are shared (1, 2, 2, 4) only on equal keys."""
    order = sorted(keys, key=lambda number: (keys[number], number))
    return list(zip(shared_places([keys[number] for number in order]), order, strict=True))


def _exact(value: Exact) -> Exact:
    """Whole values as ints: summing ints is far cheaper than summing Fractions."""
    return value.numerator if value.denominator == 1 else value


def _board_values(
    layout: Layout, results: Sequence[TableResult], expected: int
) -> tuple[Sequence[Exact], Sequence[Exact], Exact | None]:
    """NS and EW values of one board's results, and its top at matchpoints."""
    scoring = layout.pairs_scoring
    entries = [result.entry for result in results]
    if scoring.method == "matchpoints":
        # Neuberg: a board is scored as if all its tables in the movement had
        # reported, so every board weighs the same while results come in.
        mp = matchpoints(entries, tables=max(expected, len(entries)))
        return mp.ns, mp.ew, _exact(mp.top)
    if scoring.method == "butler":
        scored = butler(entries, scoring.datum_method, trim=scoring.trim, rounding=scoring.rounding)
        return scored.ns_imps, scored.ew_imps, None
    crossed = cavendish(entries, divisor=scoring.divisor, comparison_cap=scoring.comparison_cap)
    return crossed.ns_imps, crossed.ew_imps, None


def _pairs_ranking(layout: Layout, results: Sequence[TableResult]) -> EventRanking:
    by_board: dict[int, list[TableResult]] = defaultdict(list)
    for result in results:
        by_board[result.board].append(result)
    score: dict[int, Exact] = defaultdict(int)
    top: dict[int, Exact] = defaultdict(int)
    boards: dict[int, int] = defaultdict(int)
    capped = layout.pairs_scoring.round_cap
    expected = Counter(play.board for play in layout.plays.values())
    by_round: dict[tuple[int, int], list[Exact]] = defaultdict(list)
    for board, board_results in by_board.items():
        ns_values, ew_values, board_top = _board_values(layout, board_results, expected[board])
        for result, ns_value, ew_value in zip(board_results, ns_values, ew_values, strict=True):
            for side, value in ((result.ns, ns_value), (result.ew, ew_value)):
                if capped:
                    by_round[side, result.round].append(value)
                else:
                    score[side] += _exact(value)
                if board_top is not None:
                    top[side] += board_top
                boards[side] += 1
    for (side, _round), values in by_round.items():
        score[side] += _exact(capped_round_total(values))

    at_matchpoints = layout.pairs_scoring.method == "matchpoints"
    percent: dict[int, Fraction] = {}
    if at_matchpoints:
        percent = {n: session_percentage([score[n]], [top[n]]) for n in layout.entrants}
    keys: dict[int, tuple[Exact, ...]] = {
        n: (-percent[n],) if at_matchpoints else (-score[n],) for n in layout.entrants
    }
    rows = tuple(
        RankingLine(
            rank=rank,
            number=number,
            name=layout.entrants[number],
            boards=boards[number],
            score=score[number],
            top=top[number] if at_matchpoints else None,
            percent=percent.get(number),
        )
        for rank, number in _places(keys)
    )
    return EventRanking("pairs", layout.scoring, len(results), rows)


def _room_adjustment(entry: ArtificialScore, home_sits_ns: bool) -> tuple[Fraction, Fraction]:
    """(home IMPs, away IMPs) of an artificial score in one room."""
    ns_imps = artificial_imps(entry.ns_percent)
    ew_imps = artificial_imps(entry.ew_percent)
    return (ns_imps, ew_imps) if home_sits_ns else (ew_imps, ns_imps)


def _team_board(open_room: TableResult, closed_room: TableResult) -> TeamBoard:
    """A board of a match as the engine takes it (home NS in the open room)."""
    open_entry, closed_entry = open_room.entry, closed_room.entry
    if isinstance(open_entry, int) and isinstance(closed_entry, int):
        return (open_entry, closed_entry)
    adjustments = [
        _room_adjustment(entry, home_sits_ns)
        for entry, home_sits_ns in ((open_entry, True), (closed_entry, False))
        if isinstance(entry, ArtificialScore)
    ]
    count = len(adjustments)
    return ImpAdjustment(
        sum((home for home, _ in adjustments), Fraction(0)) / count,
        sum((away for _, away in adjustments), Fraction(0)) / count,
    )


def _teams_ranking(layout: Layout, results: Sequence[TableResult]) -> EventRanking:
    stored = {(r.table, r.board): r for r in results}
    vp_total: dict[int, Fraction] = defaultdict(Fraction)
    imps_for: dict[int, Fraction] = defaultdict(Fraction)
    imps_against: dict[int, Fraction] = defaultdict(Fraction)
    played: dict[int, int] = defaultdict(int)
    boards: dict[int, int] = defaultdict(int)
    lines: list[MatchScore] = []
    for match in layout.matches:
        match_boards: list[TeamBoard] = []
        for board in match.boards:
            open_room = stored.get((match.open_table, board))
            closed_room = stored.get((match.closed_table, board))
            if open_room is not None and closed_room is not None:
                match_boards.append(_team_board(open_room, closed_room))
        if not match_boards:
            lines.append(MatchScore(match.round, match.home, match.away, 0, (0, 0), (0, 0)))
            continue
        scored = team_match(match_boards, scale=layout.scale, boards_in_match=len(match.boards))
        match_vp = (Fraction(scored.vp[0]), Fraction(scored.vp[1]))
        for side, index in ((match.home, 0), (match.away, 1)):
            vp_total[side] += match_vp[index]
            imps_for[side] += scored.imps[index]
            imps_against[side] += scored.imps[1 - index]
            played[side] += 1
            boards[side] += len(match_boards)
        lines.append(
            MatchScore(
                match.round,
                match.home,
                match.away,
                len(match_boards),
                (scored.imps[0], scored.imps[1]),
                match_vp,
            )
        )
    keys = {n: (-vp_total[n], -(imps_for[n] - imps_against[n])) for n in layout.entrants}
    rows = tuple(
        RankingLine(
            rank=rank,
            number=number,
            name=layout.entrants[number],
            boards=boards[number],
            score=vp_total[number],
            matches=played[number],
            imps_for=imps_for[number],
            imps_against=imps_against[number],
        )
        for rank, number in _places(keys)
    )
    return EventRanking("teams", layout.scoring, len(results), rows, tuple(lines))


def event_ranking(layout: Layout, results: Sequence[TableResult]) -> EventRanking:
    """The ranking from the results entered so far (one per (table, board) at most)."""
    if layout.kind == "pairs":
        return _pairs_ranking(layout, results)
    return _teams_ranking(layout, results)
