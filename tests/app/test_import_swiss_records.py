"""The TRF-26 240/250/260 records a stored Swiss tournament writes, read back by the
file reader and by the import into the Swiss settings (docs/rules/trf.md#read)."""

from __future__ import annotations

from service.app.import_swiss_records import swiss_records
from service.engine.model import ByeKind, PointSystem
from service.engine.trf import parse_trf
from service.engine.trf_pairing_records import (
    accelerations_of,
    baku_records,
    record_240,
    record_250,
    record_260,
)

CHESS = PointSystem()


def test_records_read_back_by_the_file_reader() -> None:
    """240, 250 and 260 as written here are what the reader reads: the next round's
    byes, the virtual points, the pairs kept apart in the rounds they name."""
    header = [
        "012 Records",
        "XXR 5",
        " ".join(record_240(1, ByeKind.HALF_POINT, [4, 2])),
        " ".join(record_240(3, ByeKind.ZERO_POINT, [3])),
        *(" ".join(record_250(r)) for r in baku_records(6, 5, CHESS)),
        " ".join(record_260(1, 5, [1, 5])),
    ]
    players = [f"001 {n:4d}      Player {n:<26} {2000 - n:4d}" for n in range(1, 7)]
    doc = parse_trf("\n".join(header + players) + "\n")
    assert [(b.player, b.kind) for b in doc.next_round_byes] == [
        (2, ByeKind.HALF_POINT),
        (4, ByeKind.HALF_POINT),
    ]
    assert doc.pairing_accelerations == accelerations_of(baku_records(6, 5, CHESS))
    assert doc.forbidden_for(1) == (frozenset((1, 5)),)
    read = swiss_records(doc, "swiss-dutch")
    assert read.settings == {
        "byes": [
            {"player": 2, "round": 1, "type": "half-point"},
            {"player": 4, "round": 1, "type": "half-point"},
            {"player": 3, "round": 3, "type": "zero-point"},
        ],
        "forbidden_pairs": [[1, 5]],
        "acceleration": "baku",
    }
    assert read.headers == (("012", "Records"), ("XXR", "5"))
    assert read.warnings == []


def test_records_the_settings_cannot_hold_stay_and_are_named() -> None:
    """A 260 for rounds 2-3 of 5, another acceleration, and JCA's forbidden pairs stay
    verbatim among the kept records, with the import's warnings; XXP is read in."""
    players = [f"001 {n:4d}      Player {n:<26} {2000 - n:4d}" for n in range(1, 7)]
    partial = ["XXR 5", "260   2   3    1    2", "250       1.0   1   1    1    3", "XXP 4 6"]
    doc = parse_trf("\n".join(partial + players) + "\n")
    read = swiss_records(doc, "swiss-dutch")
    assert read.settings == {"forbidden_pairs": [[4, 6]]}
    assert [code for code, _ in read.headers] == ["XXR", "260", "250"]
    assert len(read.warnings) == 2
    jca = swiss_records(parse_trf("\n".join(["XXR 5", "XXP 4 6", *players]) + "\n"), "swiss-jca")
    assert jca.settings == {} and "prohibited pairings" in jca.warnings[0]
