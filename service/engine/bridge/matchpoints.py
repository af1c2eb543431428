"""Matchpoint (pairs) scoring of one board (Law 78A; the lecture *Wynik rozdania*, "maksy").

Each NS result earns 2 for every comparable result it beats, 1 for every equal
result and 0 for every better one (1 / 1/2 / 0 with `MatchpointUnits.ONE_HALF_ZERO`,
the PZBS footnote's alternative). With k results the top is 2(k - 1) and the
average k - 1; the percentage is MP / top x 100. East-West are not matchpointed
again: EW = top - NS (the lecture: "dopełnienie do maksa").

Worked board (the lecture): 690, 660, 630, 630, 620, -100, -100, -200 -> 14, 12, 9, 9,
6, 3, 3, 0 on a top of 14 (100, 85.71, 64.29, 64.29, 42.86, 21.43, 21.43, 0 %).

Boards with fewer comparable results than the rest (`tables` larger than the
number of real results, or artificial scores on the board) are factored up with
Neuberg's formula: S_N = (S_n + u) * N / n - u, u = 1 for 2/1/0 units and 1/2 for
1/(1/2)/0, where n results were compared and N is the board's full count (EBU,
WBF; the EBU's article on Neuberg's formula). An artificial score gets its percentage of
the full top 2(N - 1), separately for NS and EW.

Weighted scores: each component is matchpointed against the other tables on its
own and the components are combined by weight; every other table's comparison with
the weighted table is weighted in the same way, so the matchpoints are fractions.

All figures are exact `Fraction`s; round for display with `rounding.round_half_up`
(the WBF practice of 1 decimal per board is a caller's choice). Reading for a board
with a single table (top 0): both sides get 50 %.
"""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from service.engine.bridge.entries import ArtificialScore, BoardEntry, WeightedScore, components
from service.engine.bridge.errors import BridgeInputError

__all__ = ["MatchpointResult", "MatchpointUnits", "matchpoints", "neuberg", "session_percentage"]


class MatchpointUnits(enum.StrEnum):
    """Matchpoint units per comparison won / tied / lost."""

    TWO_ONE_ZERO = "2-1-0"
    """2 / 1 / 0 (Law 78A)."""
    ONE_HALF_ZERO = "1-0.5-0"
    """1 / 1/2 / 0 (PZBS footnote; ACBL)."""

    @property
    def unit(self) -> Fraction:
        """The value of a tie (1 or 1/2)."""
        return Fraction(1) if self is MatchpointUnits.TWO_ONE_ZERO else Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class MatchpointResult:
    """Matchpoints of every table on one board, in input order."""

    top: Fraction
    """The board's top: 2(N - 1) (or N - 1 in 1/(1/2)/0 units)."""
    ns: tuple[Fraction, ...]
    """North-South matchpoints per table."""
    ew: tuple[Fraction, ...]
    """East-West matchpoints per table (top - NS except for artificial scores)."""
    ns_percent: tuple[Fraction, ...]
    """North-South percentages, exact (0-100)."""
    ew_percent: tuple[Fraction, ...]
    """East-West percentages, exact (0-100)."""
    tables: int
    """N: the number of results the board counts as having."""
    compared: int
    """n: the number of real (non-artificial) results matchpointed against each other."""


def neuberg(
    mp: int | Fraction,
    compared: int,
    tables: int,
    units: MatchpointUnits | str = MatchpointUnits.TWO_ONE_ZERO,
) -> Fraction:
    """Neuberg's formula: matchpoints on a top of 2(n - 1) -> on a top of 2(N - 1).

    (S + u) * N / n - u with u the tie unit. 18 of 18 with n = 10, N = 11 -> 19.9.
    """
    if compared < 1:
        raise BridgeInputError("compared", f"must be 1 or more, got {compared}")
    if tables < compared:
        raise BridgeInputError("tables", f"must be at least {compared}, got {tables}")
    unit = MatchpointUnits(units).unit
    return (Fraction(mp) + unit) * tables / compared - unit


def _plain_matchpoints(scores: Sequence[int]) -> list[int]:
    """2/1/0 matchpoints among plain scores: 2 x (scores below) + (equal scores - 1)."""
    counts = Counter(scores)
    mp_of: dict[int, int] = {}
    running = 0
    for value in sorted(counts):
        mp_of[value] = 2 * running + counts[value] - 1
        running += counts[value]
    return [mp_of[s] for s in scores]


def _weighted_matchpoints(entries: Sequence[int | WeightedScore]) -> list[Fraction]:
    """2/1/0 matchpoints when some tables hold weighted scores (fractional weights)."""
    parts = [tuple(components(entry)) for entry in entries]
    weight_at: dict[int, Fraction] = {}
    for entry_parts in parts:
        for weight, score in entry_parts:
            weight_at[score] = weight_at.get(score, Fraction(0)) + weight
    values = sorted(weight_at)
    cumulative: list[Fraction] = []
    running = Fraction(0)
    for value in values:
        cumulative.append(running)
        running += weight_at[value]
    result: list[Fraction] = []
    for entry_parts in parts:
        total = Fraction(0)
        for weight, score in entry_parts:
            below = cumulative[bisect_left(values, score)]
            equal = weight_at[score]
            own_below = sum((w for w, s in entry_parts if s < score), Fraction(0))
            own_equal = sum((w for w, s in entry_parts if s == score), Fraction(0))
            total += weight * (2 * (below - own_below) + (equal - own_equal))
        result.append(total)
    return result


def matchpoints(
    scores: Sequence[BoardEntry],
    *,
    tables: int | None = None,
    units: MatchpointUnits | str = MatchpointUnits.TWO_ONE_ZERO,
) -> MatchpointResult:
    """Matchpoint one board: NS scores (or adjusted entries) of every table.

    `tables` is the number of results the board should have (default: the number of
    entries); when fewer real results were compared, Neuberg factors them up.
    """
    unit_kind = MatchpointUnits(units)
    unit = unit_kind.unit
    count = len(scores)
    if not isinstance(scores, Sequence):
        raise BridgeInputError("scores", "must be a sequence of board entries")
    full = count if tables is None else tables
    if count == 0 and tables is None:
        return MatchpointResult(Fraction(0), (), (), (), (), 0, 0)
    if isinstance(full, bool) or not isinstance(full, int) or full < max(count, 1):
        raise BridgeInputError("tables", f"must be at least {max(count, 1)}, got {tables!r}")
    # One pass sorts the entries: plain scores, weighted scores, artificial scores.
    real_index: list[int] = []
    real: list[int | WeightedScore] = []
    artificial_index: list[int] = []
    weighted_seen = False
    for index, entry in enumerate(scores):
        if type(entry) is int:
            real_index.append(index)
            real.append(entry)
        elif isinstance(entry, WeightedScore):
            real_index.append(index)
            real.append(entry)
            weighted_seen = True
        elif isinstance(entry, ArtificialScore):
            artificial_index.append(index)
        else:
            raise BridgeInputError("scores", f"unexpected board entry {entry!r}")
    raw: list[int | Fraction] = []
    if weighted_seen:
        raw.extend(_weighted_matchpoints(real))
    else:
        raw.extend(_plain_matchpoints([entry for entry in real if isinstance(entry, int)]))
    compared = len(real)
    top_compared = 2 * unit * (compared - 1)
    top = 2 * unit * (full - 1)

    def percent(mp: Fraction) -> Fraction:
        return Fraction(50) if top == 0 else mp * 100 / top

    # Tables with the same raw matchpoints share every derived figure: compute each
    # distinct value once (a board has far fewer distinct scores than tables).
    Row = tuple[Fraction, Fraction, Fraction, Fraction]
    rows: list[Row] = [(Fraction(0),) * 4] * count
    memo: dict[int | Fraction, Row] = {}
    fast = not weighted_seen and compared == full and unit_kind is MatchpointUnits.TWO_ONE_ZERO
    top_int = 2 * (full - 1)
    for index, mp in zip(real_index, raw, strict=True):
        row = memo.get(mp)
        if row is None and fast:
            # 2/1/0 units, full board: integer matchpoints, one Fraction each.
            assert isinstance(mp, int)
            ew_int = top_int - mp
            row = (
                Fraction(mp),
                Fraction(ew_int),
                Fraction(100 * mp, top_int) if top_int else Fraction(50),
                Fraction(100 * ew_int, top_int) if top_int else Fraction(50),
            )
            memo[mp] = row
        elif row is None:
            ns_mp = mp * unit
            ew_mp = top_compared - ns_mp
            if compared < full:
                ns_mp = neuberg(ns_mp, compared, full, unit_kind)
                ew_mp = neuberg(ew_mp, compared, full, unit_kind)
            row = (ns_mp, ew_mp, percent(ns_mp), percent(ew_mp))
            memo[mp] = row
        rows[index] = row
    for index in artificial_index:
        entry = scores[index]
        if isinstance(entry, ArtificialScore):
            ns_mp = entry.ns_percent * top / 100
            ew_mp = entry.ew_percent * top / 100
            rows[index] = (ns_mp, ew_mp, percent(ns_mp), percent(ew_mp))
    return MatchpointResult(
        top=top,
        ns=tuple(row[0] for row in rows),
        ew=tuple(row[1] for row in rows),
        ns_percent=tuple(row[2] for row in rows),
        ew_percent=tuple(row[3] for row in rows),
        tables=full,
        compared=compared,
    )


def session_percentage(
    scores: Sequence[int | Fraction], tops: Sequence[int | Fraction]
) -> Fraction:
    """A pair's session percentage: total matchpoints over total available (x 100).

    The EBU/WBF practice (reference 1.7); it differs from the plain mean of board
    percentages when the boards' tops differ. No boards -> 50 %.
    """
    if len(scores) != len(tops):
        raise BridgeInputError("tops", "one top per board score is needed")
    available = sum((Fraction(top) for top in tops), Fraction(0))
    if available == 0:
        return Fraction(50)
    return sum((Fraction(mp) for mp in scores), Fraction(0)) * 100 / available
