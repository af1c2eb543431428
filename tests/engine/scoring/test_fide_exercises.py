"""Worked answers from IA Mario Held's "Exercises in Tie-Breaking" (FIDE C.07-2023).

The paper's crosstables are transcribed below in the builders' notation (results
only; the answers are the paper's figures, which FIDE's own tie-break checker also
reproduces). The 2023 text is the one this service calls edition "2024"; the 2026
expectations are the same events under the capped dummy opponent (C.07 2026 art.
16.4), as FIDE's checker computes them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from service.engine.scoring.standings import compute_standings
from tests.engine.scoring.builders import event

SWISS_5 = event(
    16,
    "1-9 1-0, 3-11 =, 5-13 0-1, 7-15 1-0, 10-2 0-1, 12-4 0-1, 14-6 1-0, 16-8 =",
    "2-7 1-0, 6-3 0-1, 8-14 1-0, 9-10 0-1, 11-16 0-1, 13-1 =, 15-5 1-0, 4:H, 12:U",
    "1-2 =, 3-8 1-0, 4-13 1-0, 5-11 1-0, 10-15 0-1, 12-14 +-, 16-7 1-0, 6:U, 9:H",
    "2-16 1-0, 4-3 =, 6-10 1-0, 7-5 =, 8-13 1-0, 11-9 +-, 15-1 0-1, 12:Z, 14:Z",
    "1-4 =, 3-2 =, 5-10 1-0, 8-6 0-1, 11-7 1-0, 13-14 0-1, 16-15 1-0, 9:U, 12:Z",
    ratings=[2200 - 50 * i for i in range(16)],
    total_rounds=5,
)

SWISS_9 = event(
    16,
    "1-9 1-0, 3-11 =, 5-13 0-1, 7-15 1-0, 10-2 0-1, 12-4 0-1, 14-6 1-0, 16-8 =",
    "2-7 1-0, 6-3 0-1, 8-14 1-0, 9-10 0-1, 11-16 0-1, 13-1 =, 15-5 1-0, 4:H, 12:U",
    "1-2 =, 3-8 1-0, 4-13 1-0, 5-11 1-0, 10-15 0-1, 12-14 +-, 16-7 1-0, 6:U, 9:H",
    "2-16 1-0, 4-3 =, 6-10 1-0, 7-5 =, 8-13 1-0, 11-9 +-, 15-1 0-1, 12:Z, 14:Z",
    "1-4 =, 3-2 0-1, 5-10 1-0, 8-6 0-1, 11-7 1-0, 13-14 0-1, 16-15 1-0, 9:U, 12:Z",
    "2-4 =, 6-1 =, 10-7 1-0, 11-8 =, 13-9 0-1, 14-5 1-0, 15-12 1-0, 16-3 0-1",
    "2-6 0-1, 3-1 =, 4-16 =, 7-13 1-0, 8-15 =, 9-5 0-1, 12-10 0-1, 14-11 1-0",
    "1-16 =, 3-14 1-0, 5-8 0-1, 6-4 =, 7-9 1-0, 10-11 1-0, 13-12 =, 15-2 =",
    "2-5 =, 4-15 1-0, 8-1 0-1, 9-12 =, 10-3 0-1, 11-13 =, 14-7 0-1, 16-6 0-1",
    total_rounds=9,
)

ROUND_ROBIN = event(
    6,
    "1-5 =, 2-6 1-0, 3-4 1-0",
    "1-2 1-0, 5-4 1-0, 6-3 0-1",
    "2-5 1-0, 3-1 0-1, 4-6 =",
    "1-4 0-1, 2-3 =, 5-6 -+",
    "3-5 1-0, 4-2 0-1, 6-1 0-1",
    ratings=[2200, 2150, 2100, 2050, 1950, 2000],
)


def _table(text: str) -> dict[int, Fraction]:
    """ "12.5 13 ..." -> {1: 12.5, 2: 13, ...} (players in start-number order)."""
    return {i + 1: Fraction(v) for i, v in enumerate(text.split())}


BH = _table("12.5 13 15.5 15 8.5 12 14.5 13.5 9 13 13.5 11.5 14 11 12 12.5")
BH_C1 = _table("11 12 13 11.5 7.5 11 12.5 12 7.5 11.5 12 9.5 12 9 11 11")
FB = _table("13.5 13.5 15 15.5 10 12 13.5 12.5 9.5 12.5 12.5 11.5 13.5 10.5 12 13.5")
SB = _table("8 9.5 10.5 9.75 4.25 6.5 3.25 5.25 2.25 1.5 5.75 4 4.25 4.5 3.5 7.25")
SB_C1 = _table("7.25 8.5 9.25 8 3.25 5.5 1.25 3.75 2.25 0 4.25 4 4.25 3 2.5 5.75")
AOB = _table(
    "12.60 13.60 13.40 13.38 13.40 13.25 11.90 13.00 12.75 10.90 12.75 15.00 12.10 13.17 "
    "12.20 13.30"
)
ARO = _table("1820 1880 1940 1888 1690 1813 1760 1730 1975 1880 1863 2050 1930 1800 1860 1820")
ARO_C1 = _table("1900 1988 2000 1983 1738 1900 1838 1800 2200 1975 2000 0 2025 1900 1963 1900")
TPR = _table("1969 2120 2089 2081 1690 1813 1611 1730 1175 1640 1776 1250 1781 1925 1788 1969")
WIN = _table("2 3 2 2 2 3 1 2 1 1 2 2 1 2 2 3")
WON = _table("2 3 2 2 2 2 1 2 0 1 1 0 1 2 2 3")
BPG = _table("2 3 2 2 2 2 3 2 1 3 2 0 3 2 3 2")
BWG = _table("1 1 1 1 0 1 0 0 0 1 0 0 1 1 1 1")
REP = _table("5 5 5 4 5 5 5 5 3 5 5 3 5 3 5 5")
PS = _table("11 13 11 11.5 5 6 6 8.5 2.5 4 5.5 7 7 6 7 10.5")
PS_C1 = _table("10 12 10.5 10.5 5 6 5 8 2.5 4 5 7 6 5 7 10")


def _hundredths(value: Fraction | None) -> Fraction:
    """Rounded to hundredths, halves up, as the paper and FIDE's checker print AOB."""
    assert value is not None
    return Fraction(math.floor(value * 100 + Fraction(1, 2)), 100)


def _values(tournament, code, edition="2024") -> dict[int, Fraction | None]:
    standings = compute_standings(tournament, (code,), edition=edition)
    (key,) = standings.tiebreaks
    return {row.start_number: row.tiebreaks[key] for row in standings.rows}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("BH", BH),
        ("BH-C1", BH_C1),
        ("FB", FB),
        ("SB", SB),
        ("SB-C1", SB_C1),
        ("ARO", ARO),
        ("ARO-C1", ARO_C1),  # player 12 played one game only: nothing left after the cut
        ("TPR", TPR),
        ("WIN", WIN),
        ("WON", WON),
        ("BPG", BPG),
        ("BWG", BWG),
        ("REP", REP),  # the paper's GE
        ("PS", PS),
        ("PS-C1", PS_C1),
    ],
)
def test_swiss_exercises_2023_text(code: str, expected: dict[int, Fraction]) -> None:
    assert _values(SWISS_5, code) == expected


def test_aob_to_two_decimals() -> None:
    # The paper prints AOB rounded to hundredths; the service keeps it exact.
    got = _values(SWISS_5, "AOB")
    assert {p: _hundredths(v) for p, v in got.items()} == AOB


def test_apro_and_ptp() -> None:
    apro = _values(SWISS_5, "APRO")
    assert {p: apro[p] for p in (1, 3, 4, 16)} == {1: 1789, 3: 1904, 4: 1772, 16: 1805}
    assert _values(SWISS_5, "PTP")[3] == 2112


def test_round_robin_exercises() -> None:
    assert _values(ROUND_ROBIN, "SB") == _table("9.25 6.25 6.25 4.25 3.25 2.25")
    assert _values(ROUND_ROBIN, "SB-C1") == _table("9.25 4.75 4.75 4.25 3.25 1.5")
    assert _values(ROUND_ROBIN, "KS") == _table("2 0.5 0.5 1 0.5 0")


@pytest.mark.parametrize(
    ("tournament", "expected"),
    [
        (SWISS_5, {1: 2, 3: 2, 4: 2, 16: 2, 5: 7, 8: 7, 11: 7}),
        (
            SWISS_9,
            {1: 3, 2: 5, 3: 1, 4: 3, 5: 9, 6: 2, 7: 6, 8: 6, 9: 14, 10: 9, 11: 13, 12: 14}
            | {13: 16, 14: 9, 15: 9, 16: 6},
        ),
        (ROUND_ROBIN, {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}),
    ],
)
def test_direct_encounter_ranks(tournament, expected: dict[int, int]) -> None:
    ranks = {row.start_number: row.rank for row in compute_standings(tournament, ("DE",)).rows}
    assert {p: ranks[p] for p in expected} == expected


def _changed(values: dict[int, Fraction], **changes: str) -> dict[int, Fraction]:
    out = dict(values)
    out.update({int(p[1:]): Fraction(v) for p, v in changes.items()})
    return out


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # The dummy of player 4's half-point bye and 6's and 11's unplayed rounds is
        # capped at draw x rounds (2.5) or at the scheduled opponent's score.
        ("BH", _changed(BH, p4="14", p6="11.5", p11="12.5")),
        # Cut-1 removes 4's half-point bye (a VUR) either way.
        ("BH-C1", _changed(BH_C1, p6="10.5", p11="11")),
        ("SB", _changed(SB, p4="9.25", p6="6", p11="4.75")),
        ("SB-C1", _changed(SB_C1, p4="7.75", p6="5", p11="3.25")),
        ("FB", _changed(FB, p4="14.5", p11="12", p12="11")),
    ],
)
def test_swiss_exercises_2026_cap(code: str, expected: dict[int, Fraction]) -> None:
    assert _values(SWISS_5, code, edition="2026") == expected


def test_aob_2026() -> None:
    expected = _changed(
        AOB,
        p1="12.40",
        p3="12.90",
        p5="13.20",
        p7="11.70",
        p8="12.90",
        p10="10.80",
        p12="14.00",
        p13="11.90",
        p14="13.00",
        p16="13.10",
    )
    got = _values(SWISS_5, "AOB", edition="2026")
    assert {p: _hundredths(v) for p, v in got.items()} == expected


# An event built to exercise C.07 art. 16: 15 players, 7 rounds, with forfeits, double
# forfeits, half- and full-point byes, absences and withdrawals. Values as FIDE's
# tie-break checker gives them under each edition (AOB to two decimals).
MANY_UNPLAYED = event(
    15,
    "2-9 0-1, 4-11 --, 6-14 =, 8-1 =, 10-3 -+, 13-5 0-1, 15-7 0-1, 12:H",
    "1-6 1-0, 4-13 --, 5-9 =, 7-3 0-1, 10-15 -+, 11-2 0-1, 14-8 +-, 12:F",
    "2-15 1-0, 3-1 =, 6-4 +-, 7-5 =, 10-13 =, 14-12 0-1, 8:Z, 9:H, 11:U",
    "1-14 +-, 5-2 +-, 6-7 =, 9-3 =, 13-11 0-1, 15-10 0-1, 4:U, 8:Z, 12:H",
    "1-5 =, 4-8 =, 7-2 0-1, 9-6 1-0, 10-14 1-0, 11-15 1-0, 3:H, 12:Z, 13:U",
    "2-1 1-0, 5-11 =, 6-10 0-1, 8-13 1-0, 14-7 1-0, 15-4 =, 3:Z, 9:H, 12:F",
    "1-9 =, 4-6 =, 5-2 1-0, 10-11 0-1, 13-15 0-1, 14-8 1-0, 3:H, 7:U, 12:Z",
    total_rounds=7,
)

MANY_CODES: tuple[str, ...] = (
    "WIN",
    "WON",
    "BWG",
    "BPG",
    "PS",
    "PS-C1",
    "KS",
    "BH",
    "BH-C1",
    "BH-C2",
)
MANY_CODES += ("BH-M1", "BH-M2", "AOB", "FB", "SB", "SB-C1", "SB-C2")

# Start number, then one column per code above.
MANY_2026 = """
1 2 1 0 3 18.0 17.5 2.5 26.0 24.0 21.5 19.0 12.0 24.42 26.0 14.00 13.00 10.50
2 4 4 2 3 16.0 16.0 2.0 27.5 23.5 21.0 18.5 11.5 24.58 26.5 14.00 11.50 8.50
3 2 1 1 2 19.5 18.5 2.0 25.5 22.0 18.5 17.5 10.0 26.00 26.0 14.25 11.25 11.25
4 1 0 0 1 7.0 7.0 0.0 16.0 14.5 12.0 12.0 7.0 20.83 16.5 6.00 6.00 5.00
5 3 2 1 3 20.0 19.0 3.5 25.5 24.0 21.0 19.5 12.0 24.75 26.5 17.50 16.00 14.50
6 1 0 0 3 11.0 10.5 0.5 23.5 21.0 18.5 16.5 10.0 22.58 23.5 7.00 5.75 3.25
7 2 1 1 3 12.5 11.5 0.5 25.0 22.5 20.0 17.5 10.5 24.08 24.0 9.25 8.00 5.50
8 1 1 0 2 7.0 6.5 0.5 17.5 15.5 13.5 11.5 6.0 20.88 19.0 4.75 3.25 3.25
9 2 2 1 3 19.0 18.0 2.5 27.0 23.5 20.0 18.5 10.5 25.60 27.0 16.75 14.25 12.50
10 3 3 2 2 11.5 11.5 1.0 20.5 18.0 14.5 13.5 6.5 21.80 19.5 9.25 8.50 8.50
11 4 3 2 3 14.0 14.0 1.5 22.5 20.0 18.5 15.0 9.5 23.10 23.0 13.50 12.00 12.00
12 3 1 1 1 18.5 18.0 1.0 24.5 21.0 17.5 17.5 10.5 21.00 24.0 14.00 14.00 14.00
13 1 0 0 2 5.5 5.5 0.5 20.5 19.0 17.5 14.0 8.0 21.50 21.0 3.25 3.25 1.75
14 3 2 0 2 12.5 12.0 0.0 21.0 17.5 15.5 13.0 7.5 22.20 22.0 8.25 6.25 4.25
15 2 1 1 3 8.0 8.0 1.0 21.5 20.0 17.5 15.5 9.0 22.00 22.0 5.25 3.75 2.50
"""

MANY_2024 = """
1 2 1 0 3 18.0 17.5 2.5 26.5 24.5 22.0 19.5 12.5 25.25 27.0 14.50 13.50 11.00
2 4 4 2 3 16.0 16.0 2.0 27.5 23.5 21.0 18.5 11.5 25.67 26.5 14.00 11.50 8.50
3 2 1 1 2 19.5 18.5 2.0 27.5 23.5 19.5 19.0 11.0 26.83 27.5 15.25 12.25 12.25
4 1 0 0 1 7.0 7.0 0.0 17.0 14.5 12.0 12.0 7.0 20.83 17.0 6.00 5.00 5.00
5 3 2 1 3 20.0 19.0 3.5 26.5 25.0 22.0 20.0 12.5 25.67 26.5 18.50 17.00 15.50
6 1 0 0 3 11.0 10.5 0.5 23.5 21.0 18.5 16.5 10.0 23.58 23.5 7.00 5.75 3.25
7 2 1 1 3 12.5 11.5 0.5 25.0 22.5 20.0 17.5 10.5 24.83 24.0 9.25 8.00 5.50
8 1 1 0 2 7.0 6.5 0.5 17.5 15.5 13.5 11.5 6.0 21.63 19.0 4.75 3.25 3.25
9 2 2 1 3 19.0 18.0 2.5 29.0 24.5 20.0 19.5 10.5 26.30 29.0 17.75 15.25 13.00
10 3 3 2 2 11.5 11.5 1.0 21.5 18.0 14.5 13.5 6.5 22.70 21.5 9.25 8.50 6.00
11 4 3 2 3 14.0 14.0 1.5 25.5 21.0 19.5 16.0 10.0 23.50 25.0 14.50 13.00 10.50
12 3 1 1 1 18.5 18.0 1.0 27.5 23.5 19.5 19.5 11.5 22.50 27.0 15.50 12.00 12.00
13 1 0 0 2 5.5 5.5 0.5 20.5 19.0 17.5 14.0 8.0 22.50 21.0 3.25 3.25 1.75
14 3 2 0 2 12.5 12.0 0.0 22.5 19.0 17.0 14.5 9.0 23.00 22.5 9.75 7.75 6.50
15 2 1 1 3 8.0 8.0 1.0 21.5 20.0 17.5 15.5 9.0 22.83 22.0 5.25 3.75 2.50
"""


@pytest.mark.parametrize(("edition", "table"), [("2026", MANY_2026), ("2024", MANY_2024)])
def test_many_unplayed_rounds(edition: str, table: str) -> None:
    standings = compute_standings(MANY_UNPLAYED, MANY_CODES, edition=edition)
    rows = {row.start_number: row for row in standings.rows}
    for line in table.strip().splitlines():
        number, *cells = line.split()
        row = rows[int(number)]
        for code, cell in zip(MANY_CODES, cells, strict=True):
            got = row.tiebreaks[code]
            if code == "AOB":
                got = _hundredths(got)
            assert (number, code, got) == (number, code, Fraction(cell))
