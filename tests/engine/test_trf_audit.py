"""The audit trail's comment lines (docs/rules/trf.md#audit-trail): written, read back
to the same entries, TRF-26 comments of other programs left alone, a spoiled line
dropped with a warning naming it, and the TRF reader skipping every one of them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from service.engine.trf import parse_trf, write_trf
from service.engine.trf_audit import AuditEntry, audit_line, audit_text, read_audit
from tests.data import ORACLE_DUTCH

WHEN = datetime(2026, 11, 29, 11, 40, 2, tzinfo=UTC)


def test_a_line_and_its_entry() -> None:
    entry = AuditEntry(
        WHEN,
        "organizer",
        "pairing-replaced",
        (
            ("round", "2"),
            ("games", "1-3,4-2"),
            ("byes", "5:U"),
            ("warnings", "C.04.1 b,C.04.3 C12"),
        ),
    )
    line = audit_line(entry)
    assert line == (
        "### AUDIT 2026-11-29T11:40:02Z organizer pairing-replaced round=2 games=1-3,4-2 "
        "byes=5:U warnings=C.04.1%20b,C.04.3%20C12"
    )
    read = read_audit(line + "\n")
    assert read.lines == (line,) and read.entries == (entry,) and read.warnings == ()


def test_times_are_utc_and_values_percent_encoded() -> None:
    """11:40:02 at UTC+2 is 09:40:02Z; a naive time is read as UTC. A JSON value with a
    space, a `%` and an accented letter is encoded and decoded back unchanged."""
    east = WHEN.replace(tzinfo=timezone(timedelta(hours=2)))
    value = '["BH-C1","Café 50%"]'
    line = audit_line(AuditEntry(east, "organizer", "setting", (("after", value),)))
    assert line == (
        '### AUDIT 2026-11-29T09:40:02Z organizer setting after=["BH-C1","Caf%C3%A9%2050%25"]'
    )
    assert dict(read_audit(line).entries[0].fields) == {"after": value}
    naive = audit_line(AuditEntry(WHEN.replace(tzinfo=None), "engine", "lot"))
    assert naive == "### AUDIT 2026-11-29T11:40:02Z engine lot"


def test_other_comments_are_not_audit_lines_and_spoiled_ones_are_named() -> None:
    text = "\r\n".join(
        [
            "### SSS NNNNNNNNNNNNNN",  # TRF-26's own column comment
            "###AUDIT 2026-11-29T11:40:02Z organizer unpaired round=2",  # not the mark
            "### AUDIT 2026-11-29T11:40:02Z organizer unpaired round=2",
            "### AUDIT yesterday organizer unpaired round=2",
            "### AUDIT 2026-11-29T11:40:02Z referee unpaired round=2",
            "### AUDIT 2026-11-29T11:40:02Z organizer resigned round=2",
            "### AUDIT 2026-11-29T11:40:02Z organizer unpaired round",
            "### AUDIT 2026-13-29T11:40:02Z organizer unpaired round=2",
        ]
    )
    read = read_audit(text)
    assert read.lines == ("### AUDIT 2026-11-29T11:40:02Z organizer unpaired round=2",)
    assert [w.split(":")[0] for w in read.warnings] == [
        "line 4",
        "line 5",
        "line 6",
        "line 7",
        "line 8",
    ]


def test_the_trail_closes_a_file_every_reader_skips() -> None:
    """A file with the trail appended reads as the file without it."""
    original = (ORACLE_DUTCH / "v0004.trf").read_text()
    doc = parse_trf(original)
    entries = [
        AuditEntry(WHEN, "engine", "lot", (("draw", "initial-colour"), ("colour", "black"))),
        AuditEntry(WHEN, "organizer", "unpaired", (("round", "6"),)),
    ]
    trail = audit_text(["### AUDIT 2026-01-01T00:00:00Z organizer unpaired round=1"], entries)
    assert trail.count("\n") == 3 and trail.startswith("### AUDIT 2026-01-01T00:00:00Z")
    with_trail = write_trf(doc) + trail
    assert write_trf(parse_trf(with_trail)) == write_trf(doc)
    assert len(read_audit(with_trail).entries) == 3
    assert audit_text([], []) == ""


def test_a_trail_keeps_at_most_ten_thousand_lines_and_a_million_characters() -> None:
    line = "### AUDIT 2026-11-29T11:40:02Z organizer unpaired round=2"
    read = read_audit("\n".join([line] * 10_001))
    assert len(read.lines) == 10_000
    assert read.warnings == (
        "line 10001: more than 10000 audit lines or 1000000 characters of them; the rest "
        "are dropped",
    )
    long = line + " note=" + "x" * 599_937  # 600,000 characters
    read = read_audit(f"{long}\n{long}\n{line}")
    assert read.lines == (long,) and read.warnings[0].startswith("line 2: more than")
