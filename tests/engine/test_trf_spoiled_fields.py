"""Every number and code field of a TRF file, spoiled in turn: the reader names the field
(`TrfError`, which the API answers with a 422 problem), or reads the value, and then
pairing the next round and the standings answer or say why not. Nothing else may
escape: an `arbiter pair` error or a 500 would be the reader's fault, not the file's
(bad input gets a clear error, never a 500: docs/api.md#errors).

A random mutation run over the committed files found two such fields: the points of a
player record (`3/0`, which `Fraction` reads as a fraction with no denominator) and
the XXA acceleration values, which were not checked at all. The birth year escaped too
(`²²²²` passes `str.isdigit`)."""

from __future__ import annotations

import contextlib

import pytest

from service.engine.errors import EngineError
from service.engine.scoring.reading import reading_for
from service.engine.scoring.standings import compute_standings
from service.engine.systems import PairingRequest, by_pairing_name
from service.engine.trf import TrfDocument, TrfError, parse_trf
from tests.data import DATA_DIR

# A 6-player Swiss after round 1 with every record kind that carries a number.
BASE = (DATA_DIR / "trf" / "announced_byes.trf").read_text(encoding="utf-8") + "\n".join(
    [
        "142 3",
        "162  W 1.0    D 0.5    L 0.0",
        "240 H   2    3    4",
        "250  0.0  1.0   2   3    6",
        "260   2   3    1    2",
        "XXA    1  1.0  0.5  0.0",
        "XXP    5    6",
        "",
    ]
)

# (the record's first characters, first column, last column, what it holds); columns
# 1-based and inclusive.
FIELDS = [
    ("001    1", 5, 8, "start number"),
    ("001    1", 49, 52, "rating"),
    ("001    1", 81, 84, "points"),
    ("001    1", 70, 73, "birth year"),
    ("001    1", 86, 89, "rank"),
    ("001    1", 92, 95, "round 1 opponent"),
    ("001    1", 97, 97, "round 1 colour"),
    ("001    1", 99, 99, "round 1 result"),
    ("001    3", 104, 104, "round 2 bye"),
    ("142", 5, 8, "number of rounds"),
    ("162", 6, 9, "points for a win"),
    ("162", 15, 18, "points for a draw"),
    ("240", 5, 5, "bye type"),
    ("240", 7, 9, "bye round"),
    ("240", 11, 14, "bye player"),
    ("250", 10, 13, "accelerated points"),
    ("250", 15, 17, "acceleration first round"),
    ("250", 19, 21, "acceleration last round"),
    ("250", 23, 26, "accelerated first player"),
    ("250", 28, 31, "accelerated last player"),
    ("260", 5, 7, "prohibition first round"),
    ("260", 13, 16, "prohibited player"),
    ("XXA", 5, 8, "XXA start number"),
    ("XXA", 10, 13, "XXA round 1"),
    ("XXA", 15, 18, "XXA round 2"),
    ("XXP", 5, 8, "XXP player"),
    ("XXR", 5, 8, "XXR rounds"),
]

# Not numbers, numbers out of range, and forms Python reads but TRF does not write.
TOKENS = [
    "x.5",
    "1/0",
    "3/0",
    "?",
    "½",
    "²",  # a digit to str.isdigit, which int() refuses
    "²²²²",
    "-1",
    "-0.5",
    "0",
    "9999",
    "1e3",
    "nan",
    "inf",
    "1.",
    ".5",
    "1,5",
    "",
]


def _spoiled(record: str, first: int, last: int, token: str) -> str:
    """BASE with columns first..last of the line starting with `record` replaced by
    `token`, cut or padded to the field's width."""
    width = last - first + 1
    lines = BASE.split("\n")
    (index,) = [i for i, line in enumerate(lines) if line.startswith(record)]
    line = lines[index].ljust(last)
    lines[index] = line[: first - 1] + token[:width].rjust(width) + line[last:]
    return "\n".join(lines)


def _pair_and_rank(doc: TrfDocument) -> None:
    """The next round as `arbiter pair` makes it, and the standings."""
    tournament = doc.tournament
    for name in ("dutch", "jca"):
        request = PairingRequest(
            byes=tuple(doc.next_round_byes),
            options={"rules": None, "seed": None} if name == "dutch" else {"seed": None},
            accelerations=doc.pairing_accelerations,
            forbidden_pairs=doc.forbidden_for(len(tournament.rounds) + 1),
        )
        with contextlib.suppress(EngineError):
            by_pairing_name(name).pair_next(tournament, request)
    reading = reading_for(tournament, None, doc.system)
    compute_standings(
        tournament, list(reading.default_tiebreaks()), round_robin=reading.round_robin
    )


def test_the_base_file_reads_with_every_record() -> None:
    doc = parse_trf(BASE)
    assert doc.accelerations and doc.pairing_accelerations
    assert doc.forbidden_for(2)
    _pair_and_rank(doc)


@pytest.mark.parametrize(("record", "first", "last", "field"), FIELDS)
def test_a_spoiled_field_is_named_or_read(record: str, first: int, last: int, field: str) -> None:
    named = 0
    for token in TOKENS:
        text = _spoiled(record, first, last, token)
        try:
            doc = parse_trf(text)
        except TrfError as error:
            named += 1
            assert str(error).startswith("line "), (field, token, str(error))
            continue
        with contextlib.suppress(EngineError):
            _pair_and_rank(doc)
    # every field has tokens it must refuse, but a birth date, kept as written
    assert named or field == "birth year", field
