"""The 152/XXC and 162 records of the export (docs/rules/trf.md#settings-records) as the
TRF reader reads them back."""

from __future__ import annotations

from fractions import Fraction

from service.app.trf_setting_records import (
    colour_records,
    from_trf26_tiebreak,
    read_tiebreak_record,
    scoring_records,
    tiebreak_records,
    to_trf26_tiebreak,
)
from service.engine.model import Colour, PointSystem
from service.engine.trf import parse_trf

PLAYERS = "001    1      Alpha, Ann\n001    2      Bravo, Ben\n"


def _read(records: list[tuple[str, str]]) -> PointSystem:
    text = "".join(f"{code} {rest}\n" for code, rest in records) + PLAYERS
    return parse_trf(text).tournament.points


def test_162_reads_back_as_the_points() -> None:
    """W, D, L always; P when the pairing-allocated bye is not a win; 100 points fit
    the four columns as `100`."""
    for points in (
        PointSystem.football(),
        PointSystem(pairing_bye=Fraction(1, 2)),
        PointSystem(win=Fraction(100), draw=Fraction(99, 2), pairing_bye=Fraction(100)),
        PointSystem(win=Fraction(2), draw=Fraction(1), loss=Fraction(1, 2)),
    ):
        records = scoring_records([], points)
        assert len(records) == 1
        read = _read(records)
        assert (read.win, read.draw, read.loss) == (points.win, points.draw, points.loss)
        assert (read.pairing_bye or read.win) == (points.pairing_bye or points.win)
    assert scoring_records([], PointSystem(win=Fraction(100))) == [
        ("162", " W 100    D 0.5    L 0.0")
    ]


def test_nothing_when_the_points_are_the_defaults_or_kept() -> None:
    assert scoring_records([], PointSystem()) == []
    assert scoring_records([], PointSystem(pairing_bye=Fraction(1))) == []
    assert scoring_records([("162", " W 3.0")], PointSystem.football()) == []


def test_colour_records() -> None:
    """152 and XXC; nothing beside a kept colour record; 152 only beside another XXC."""
    assert colour_records([], Colour.BLACK) == [("152", "B"), ("XXC", "black1")]
    assert colour_records([], None) == []
    assert colour_records([("XXC", "white1 rank")], Colour.BLACK) == []
    assert colour_records([("152", "W")], Colour.BLACK) == []
    assert colour_records([("XXC", "rank")], Colour.WHITE) == [("152", "W")]
    text = "152 B\nXXC black1\n" + PLAYERS
    assert parse_trf(text).tournament.initial_colour is Colour.BLACK


def test_tiebreak_codes_in_trf26_syntax() -> None:
    """Cut and median move behind `/`; the other modifiers follow; aliases become the
    FIDE name; the source texts' own methods have no TRF-26 code."""
    pairs = {
        "BH-C1": "BH/C1",
        "BH-M1/P": "BH/M1/P",
        "ARO-C1/U1000": "ARO/C1/U1000",
        "KS/L+1": "KS/L+1",
        "SB": "SB",
        "DE": "DE",
        "TPR": "TPR",
    }
    for ours, theirs in pairs.items():
        assert to_trf26_tiebreak(ours) == theirs
        assert from_trf26_tiebreak(theirs) == ours
    assert to_trf26_tiebreak("SOLKOFF") == "BH"
    for ours in ("SB-S", "PERF-JCA", "LAP-POT", "SOLKOFF-M"):
        assert to_trf26_tiebreak(ours) is None
    for theirs in ("BH:MP/C1/P", "EDET/P", "MPVGP", "BH/C1/M1", "XX"):
        assert from_trf26_tiebreak(theirs) is None
    assert tiebreak_records([], ["BH-C1", "SB"]) == [("202", "BH/C1,SB")]
    assert tiebreak_records([], ["BH-C1", "SB-S"]) == []
    assert tiebreak_records([("202", "BH")], ["SB"]) == []
    assert tiebreak_records([], None) == []
    assert read_tiebreak_record([("012", "x"), ("202", "BH/C1, SB")]) == (
        ["BH-C1", "SB"],
        (("012", "x"),),
    )
    kept = (("202", "BH:MP"),)
    assert read_tiebreak_record(kept) == (None, kept)
    twice = (("202", "BH"), ("202", "SB"))
    assert read_tiebreak_record(twice) == (None, twice)
