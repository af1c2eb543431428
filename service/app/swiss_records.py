"""A stored Swiss tournament's pairing settings
(docs/rules/swiss.md#forbidden-pairs-acceleration-and-byes) as the engine takes them and
as its TRF export writes them: forbidden pairs (TRF-26 260), the Baku acceleration
(FIDE C.04.5.1, written as 250 records) and byes announced for coming rounds (240).

`POST /rounds` and the export read the same settings through the same functions, and
the accelerations come from the 250 records the export writes (summed as the TRF reader
sums them), so the exported file paired by `arbiter pair` or `POST /v1/compute/pairings`
gives the round the tournament stores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from fractions import Fraction

from service.db.tournament_config import SwissOptions
from service.engine.model import ByeKind, Tournament
from service.engine.systems import spec_of
from service.engine.trf_pairing_records import (
    Acceleration,
    accelerations_of,
    baku_field,
    baku_records,
    record_240,
    record_250,
    record_260,
)

__all__ = ["acceleration_records", "is_swiss", "pairing_accelerations", "swiss_trf_records"]


def is_swiss(system: str) -> bool:
    """Whether the system takes the Swiss settings (`options_key` "swiss")."""
    spec = spec_of(system)
    return spec is not None and spec.options_key == "swiss"


def acceleration_records(
    options: SwissOptions | None, tournament: Tournament
) -> tuple[Acceleration, ...]:
    """The 250 records of the tournament's acceleration (none unless `baku` and the
    number of rounds is known)."""
    if options is None or options.acceleration != "baku" or tournament.total_rounds is None:
        return ()
    return baku_records(baku_field(tournament), tournament.total_rounds, tournament.points)


def pairing_accelerations(
    options: SwissOptions | None, tournament: Tournament
) -> dict[int, tuple[Fraction, ...]] | None:
    """Virtual points per start number and round for the Dutch engine, or None."""
    records = acceleration_records(options, tournament)
    return accelerations_of(records) if records else None


_BYE_ORDER = {ByeKind.HALF_POINT: 0, ByeKind.ZERO_POINT: 1, ByeKind.FULL_POINT: 2}


def swiss_trf_records(
    options: SwissOptions | None,
    tournament: Tournament,
    paired: int,
    withdrawn: Collection[int] = (),
) -> list[tuple[str, str]]:
    """The 240, 250 and 260 records (code, rest) of a Swiss tournament's settings,
    `paired` rounds being paired: a 240 record per round not yet paired and bye type
    (a withdrawn player's zero-point byes among them, every round left: `POST /rounds`
    pairs them no more); the acceleration's 250 records; a 260 record per forbidden
    pair for the rounds still to pair (none once every round is paired)."""
    options = options or SwissOptions()
    last = tournament.total_rounds
    grouped: dict[tuple[int, ByeKind], set[int]] = defaultdict(set)
    for bye in options.byes:
        if bye.round > paired and bye.player not in withdrawn:
            grouped[(bye.round, bye.kind)].add(bye.player)
    for number in withdrawn:
        for round_no in range(paired + 1, (last or paired + 1) + 1):
            grouped[(round_no, ByeKind.ZERO_POINT)].add(number)
    records = [
        record_240(round_no, kind, players)
        for (round_no, kind), players in sorted(
            grouped.items(), key=lambda item: (item[0][0], _BYE_ORDER.get(item[0][1], 3))
        )
    ]
    records.extend(record_250(r) for r in acceleration_records(options, tournament))
    if last is not None and paired < last:
        for pair in options.forbidden_pairs:
            records.append(record_260(paired + 1, last, sorted(pair)))
    return records
