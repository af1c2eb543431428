"""The TRF-26 records that steer a Swiss pairing, as a stored tournament's settings give
them and as an import reads them back (docs/rules/swiss.md#forbidden-pairs-acceleration-and-byes):

- 240, byes announced for a round (type, round, start numbers);
- 250, an acceleration (game points for rounds first..last to start numbers first..last);
- 260, prohibited pairings (no two of the players meet in rounds first..last).

The Baku acceleration (FIDE C.04.5.1) is written as 250 records, and a stored
tournament pairs with the virtual points those records give (`accelerations_of`, the
reader's own sum of 250 records), so that its TRF export paired by `arbiter pair` or
`POST /v1/compute/pairings` gives the round it stores.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from math import ceil

from service.engine.model import Bye, ByeKind, PointSystem, Tournament
from service.engine.trf import _parse_240, _with_250

__all__ = [
    "Acceleration",
    "accelerations_of",
    "baku_field",
    "baku_records",
    "is_baku",
    "parse_240",
    "record_240",
    "record_250",
    "record_260",
]

Acceleration = tuple[int, int, int, int, Fraction]
"""A 250 record: (first round, last round, first start number, last start number, game
points), as `TrfDocument.accelerations_250` holds them."""


def baku_field(tournament: Tournament) -> int:
    """The players the Baku groups are drawn from (FIDE C.04.5.1 art. 2: the list of
    players to be paired before round 1): every player once round 1 is not yet paired,
    then those round 1 paired or gave a bye, so that late entries (who take the next
    start numbers, C.04.A) join GB and the last GA player stays the same."""
    if not tournament.rounds:
        return len(tournament.players)
    first = tournament.rounds[0]
    return len(
        {p for g in first.games for p in (g.white, g.black)} | {b.player for b in first.byes}
    )


def baku_records(players: int, rounds: int, points: PointSystem) -> tuple[Acceleration, ...]:
    """FIDE C.04.5.1: GA is the first 2 x ceil(players / 4) start numbers; the
    accelerated rounds are the first half of the tournament, rounded up; GA players get
    1 virtual point in the first half of those (rounded up), 0.5 in the others. Reading:
    the point and the half point are a win and a draw of the tournament's scoring (the
    method is written for 1 / ½ / 0)."""
    group_a = min(2 * ceil(players / 4), players)
    accelerated = ceil(rounds / 2)
    full = ceil(accelerated / 2)
    if group_a < 1 or accelerated < 1:
        return ()
    records: list[Acceleration] = [(1, full, 1, group_a, points.win)]
    if accelerated > full:
        records.append((full + 1, accelerated, 1, group_a, points.draw))
    return tuple(records)


def accelerations_of(records: Sequence[Acceleration]) -> dict[int, tuple[Fraction, ...]]:
    """Virtual points per start number and round, summed from 250 records exactly as
    the TRF reader sums a file's (`TrfDocument.pairing_accelerations`)."""
    return _with_250({}, records)


def is_baku(
    accelerations: Mapping[int, Sequence[Fraction]], players: int, rounds: int, points: PointSystem
) -> bool:
    """Whether a file's virtual points (XXA and 250) are the Baku acceleration's for this
    field and length (zero entries and trailing zeros aside)."""

    def shape(values: Mapping[int, Sequence[Fraction]]) -> dict[int, tuple[Fraction, ...]]:
        out: dict[int, tuple[Fraction, ...]] = {}
        for number, row in values.items():
            trimmed = list(row)
            while trimmed and not trimmed[-1]:
                trimmed.pop()
            if trimmed:
                out[number] = tuple(trimmed)
        return out

    expected = accelerations_of(baku_records(players, rounds, points))
    return bool(expected) and shape(accelerations) == shape(expected)


def record_240(round_no: int, kind: ByeKind, players: Iterable[int]) -> tuple[str, str]:
    """TRF-26 240 (code, rest): type at column 5, round at 7-9, start numbers from
    column 11 every 5 columns."""
    numbers = " ".join(f"{n:>4}" for n in sorted(players))
    return "240", f"{kind.trf_code} {round_no:>3} {numbers}"


def record_250(record: Acceleration) -> tuple[str, str]:
    """TRF-26 250 (code, rest): match points blank (cols 5-8), game points (10-13),
    rounds first..last (15-17, 19-21), start numbers first..last (23-26, 28-31)."""
    first_round, last_round, first, last, value = record
    return (
        "250",
        f"{'':4} {_points(value):>4} {first_round:>3} {last_round:>3} {first:>4} {last:>4}",
    )


def record_260(first_round: int, last_round: int, players: Sequence[int]) -> tuple[str, str]:
    """TRF-26 260 (code, rest): rounds first..last (cols 5-7, 9-11), start numbers from
    column 13 every 5 columns."""
    numbers = " ".join(f"{n:>4}" for n in players)
    return "260", f"{first_round:>3} {last_round:>3} {numbers}"


def parse_240(rest: str) -> list[Bye]:
    """The byes of a 240 record kept as (code, rest), read as the file reader does."""
    return _parse_240(f"240 {rest}", 0)


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}" if (value * 2).denominator == 1 else f"{float(value):.2f}"
