"""TRF-16 reading and writing (FIDE TRF-16; docs/rules/trf.md)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from service.engine.model import MAX_PLAYER_ROUNDS, ByeKind, Colour, GameResult
from service.engine.trf import (
    MAX_ACCELERATED,
    MAX_HEADER_CHARACTERS,
    MAX_HEADER_RECORDS,
    MAX_KEPT_APART,
    TrfError,
    decode_trf,
    parse_trf,
    rounds_prefix,
    write_trf,
)
from tests.data import DATA_DIR, ORACLE_DUTCH
from tests.engine.growth import LINEAR, growth

ORACLE_FILES = sorted(ORACLE_DUTCH.glob("*.trf"))


def test_oracle_files_are_present() -> None:
    assert len(ORACLE_FILES) >= 100


@pytest.mark.parametrize("path", ORACLE_FILES, ids=lambda p: p.name)
def test_round_trip_is_exact(path: Path) -> None:
    text = path.read_text()
    assert write_trf(parse_trf(text)) == text


def test_reads_players_games_and_byes() -> None:
    doc = parse_trf((ORACLE_DUTCH / "v0004.trf").read_text())
    t = doc.tournament
    assert len(t.players) == 13
    assert t.total_rounds == 6
    assert t.initial_colour is Colour.BLACK
    assert doc.system == "FIDE_DUTCH_2025"
    first = t.players[0]
    assert (first.start_number, first.name, first.rating) == (1, "Test0001 Player0001", 1894)
    round1 = t.rounds[0]
    assert {(g.white, g.black) for g in round1.games} >= {(7, 1), (2, 8), (4, 10)}
    assert [(b.player, b.kind) for b in round1.byes] == [(13, ByeKind.PAIRING_ALLOCATED)]
    # round 5: 4 w vs 2 b, "2 b +" / "4 w -" -> black wins by forfeit
    forfeit = next(g for g in t.rounds[4].games if {g.white, g.black} == {2, 4})
    assert forfeit.result is GameResult.BLACK_WINS_FORFEIT
    assert t.scores()[1] == Fraction(5)
    assert t.scores()[3] == Fraction(9, 2)


def test_prefix_keeps_announced_byes_of_next_round() -> None:
    doc = parse_trf((ORACLE_DUTCH / "v0004.trf").read_text())
    before_round_3 = rounds_prefix(doc, 2)
    assert len(before_round_3.tournament.rounds) == 2
    assert [(b.player, b.kind) for b in before_round_3.next_round_byes] == [(1, ByeKind.HALF_POINT)]
    # written out and read back, the announced bye survives as a trailing column
    again = parse_trf(write_trf(before_round_3))
    assert len(again.tournament.rounds) == 2
    assert again.next_round_byes == before_round_3.next_round_byes


def test_double_forfeit_and_unknown_opponent() -> None:
    line = "001 {n:4d}      Player {n:<26} 1500                             0.0    1  {cell}"
    text = "\n".join(
        [
            line.format(n=1, cell="   2 w -"),
            line.format(n=2, cell="   1 b -"),
        ]
    )
    doc = parse_trf(text)
    assert doc.tournament.rounds[0].games[0].result is GameResult.DOUBLE_FORFEIT
    with pytest.raises(TrfError, match="opponent 9 unknown"):
        parse_trf(line.format(n=1, cell="   9 w 1"))


def test_contradicting_results_name_both_cells() -> None:
    line = "001 {n:4d}      Player {n:<26} 1500                             0.0    1  {cell}"
    text = "\n".join([line.format(n=1, cell="   2 w 1"), line.format(n=2, cell="   1 b 1")])
    message = (
        r"line 1, column 99 \(player 1, round 1\) and line 2, column 99 \(player 2, round 1\): "
        "results 1 and 1 contradict each other"
    )
    with pytest.raises(TrfError, match=message):
        parse_trf(text)
    # a game is read once, from either player's cell: the same file with the lines
    # swapped names the cells in the same order (White's first)
    swapped = "\n".join(reversed(text.splitlines()))
    with pytest.raises(TrfError, match="line 2, column 99 \\(player 1"):
        parse_trf(swapped)


def test_bad_numbers_name_the_field() -> None:
    with pytest.raises(TrfError, match="start number"):
        parse_trf("001 abcd      Someone")
    with pytest.raises(TrfError, match="XXR"):
        parse_trf("XXR nine")
    # Fraction reads `3/0` as a fraction with no denominator: a TRF error, not a crash
    player = "001    1 m    Alpha, Ann                        2000" + " " * 29
    with pytest.raises(TrfError, match="line 1, columns 81-84: points are not a number"):
        parse_trf(player + "3/0 ")
    with pytest.raises(TrfError, match="line 2, columns 15-18: XXA points for round 2"):
        parse_trf(player + "0.0 \nXXA    1  1.0  x.5")


def test_a_colour_other_than_w_b_or_dash_is_named() -> None:
    """TRF-16 001, column 97 + 10(r-1): `w`, `b` or `-` (blank read as `-`). Another
    letter used to be dropped when the opponent's cell gave the colour."""
    player = "001 {:>4} m    {:<34}{:>4}{:>32}          {}"
    lines = [
        player.format(1, "Alpha, Ann", 2000, "1.0", "2 x 1"),
        player.format(2, "Bravo, Ben", 1900, "0.0", "1 b 0"),
    ]
    with pytest.raises(TrfError, match=r"line 1, column 97 \(player 1, round 1\): colour 'x'"):
        parse_trf("\n".join(lines))
    lines[0] = lines[0].replace(" 2 x 1", " 2 W 1")  # the case is free
    assert parse_trf("\n".join(lines)).tournament.rounds[0].games[0].white == 1


def test_the_pairs_kept_apart_are_bounded() -> None:
    """XXP and 260 keep every two of a record's players apart: k players, k(k-1)/2
    pairs. At most MAX_KEPT_APART in a file, counted before any pair is made, so that a
    few megabytes of start numbers cannot ask for billions of pairs."""
    base = (DATA_DIR / "trf" / "announced_byes.trf").read_text()

    def xxp(count: int) -> str:
        return "XXP " + " ".join(str(n) for n in range(1, count + 1)) + "\n"

    def record_260(count: int) -> str:
        return "260   1   1" + "".join(f" {n:>4}" for n in range(1, count + 1)) + "\n"

    assert MAX_KEPT_APART == 100_000
    assert len(parse_trf(base + xxp(447)).forbidden_pairs) == 447 * 446 // 2
    with pytest.raises(TrfError, match="line 11: the XXP and 260 records so far keep 100,128"):
        parse_trf(base + xxp(448))
    with pytest.raises(TrfError, match="4,999,950,000 pairs"):
        parse_trf(base + xxp(100_000))
    # the two records count together, and a start number listed twice counts once
    assert parse_trf(base + xxp(400) + record_260(150)[:-1] + "  150\n").prohibitions
    with pytest.raises(TrfError, match=r"line 12: .* keep 110,925 pairs"):
        parse_trf(base + xxp(400) + record_260(250))


def test_the_player_rounds_accelerated_are_bounded() -> None:
    """A 250 record accelerates start numbers first..last over rounds first..last: at
    most MAX_ACCELERATED player-rounds in a file, counted before any is built."""
    base = (DATA_DIR / "trf" / "announced_byes.trf").read_text()

    def record_250(last_round: int, last_player: int) -> str:
        return f"250  0.0  1.0   1 {last_round:>3}    1 {last_player:>4}\n"

    assert MAX_ACCELERATED == 1_000_000
    assert parse_trf(base + record_250(100, 9999))  # 999,900: read
    assert parse_trf(base + record_250(2, 6)).pairing_accelerations[6] == (1, 1)
    with pytest.raises(TrfError, match="line 11: the 250 records so far accelerate 1,009,899"):
        parse_trf(base + record_250(101, 9999))
    with pytest.raises(TrfError, match=r"line 12: .* 1,099,890 player-rounds"):
        parse_trf(base + record_250(10, 9999) + record_250(100, 9999))


def test_the_player_rounds_a_file_spans_are_bounded() -> None:
    """Players times round columns: at most MAX_PLAYER_ROUNDS (a 1,000-player round
    robin spans 999,000), the longest 001 record named. Standings and pairing walk every
    player in every round, so one long record among many short ones would cost hours."""

    def field(players: int, rounds: int) -> str:
        lines = [f"001 {n:>4}      Player {n}" for n in range(1, players + 1)]
        lines[1] = lines[1].ljust(91) + "   1 b 0  " * rounds
        lines[0] = lines[0].ljust(91) + "   2 w 1  " * rounds
        return "\n".join(lines) + "\n"

    assert MAX_PLAYER_ROUNDS == 1_000_000
    assert len(parse_trf(field(1000, 1000)).tournament.rounds) == 1000
    with pytest.raises(TrfError, match="line 1: 1,000 players over 1,001 round columns span"):
        parse_trf(field(1000, 1001))


BASE = (DATA_DIR / "trf" / "announced_byes.trf").read_text()


def test_a_start_number_listed_twice_keeps_one_pair_apart() -> None:
    """XXP and 260 counted a repeated start number once but paired every copy: 1,000
    copies of "1 2" made 499,500 pairs (a few megabytes of them, billions)."""
    doc = parse_trf(BASE + "XXP" + " 1 2" * 500 + "\n260   1   2" + "    3    4" * 500 + "\n")
    assert doc.forbidden_pairs == (frozenset({1, 2}),)
    assert doc.prohibitions[0].players == (3, 4)
    assert doc.forbidden_for(1) == (frozenset({1, 2}), frozenset({3, 4}))


PATHOLOGICAL = {
    "blank lines": lambda n: BASE + "\n" * n,
    "carriage returns": lambda n: BASE + "\r" * n,
    "comment lines": lambda n: BASE + "###\n" * (n // 4),
    "header records": lambda n: BASE + "022 x\n" * (n // 6),
    "one long header record": lambda n: BASE + "022 " + "x" * n,
    "long player record": lambda n: BASE + "001    7      G".ljust(91) + "   1 w 1  " * (n // 10),
    "XXA values": lambda n: BASE + "XXA    1" + "  1.0" * (n // 5),
}
"""(Repeated XXP and 260 numbers: the test before this one; quadratic, they would ask
for gigabytes here.)"""


@pytest.mark.parametrize("make", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_reading_is_linear_in_the_file(make: Callable[[int], str]) -> None:
    assert growth(parse_trf, make, 50_000) < LINEAR


def test_header_records_are_bounded() -> None:
    """Every record beside 001, XXA and XXP is kept verbatim (a tournament stores them
    for its export, and reads them back with the tournament): at most
    MAX_HEADER_RECORDS of them, holding MAX_HEADER_CHARACTERS characters."""
    assert (MAX_HEADER_RECORDS, MAX_HEADER_CHARACTERS) == (1_000, 100_000)
    own = len(BASE.split("\n001")[0].splitlines())  # 012, 092, XXR, XXC
    padding = "".join(f"132 round {n}\n" for n in range(MAX_HEADER_RECORDS - own))
    assert len(parse_trf(BASE + padding).headers) == MAX_HEADER_RECORDS
    lines = len((BASE + padding).splitlines())
    with pytest.raises(TrfError, match=f"line {lines + 1}: more than 1,000 header records"):
        parse_trf(BASE + padding + "XXR 3\n")
    assert parse_trf(BASE + padding + "XXA    1  1.0\nXXP 1 2\n###\n\n")  # not headers
    long = "022 " + "x" * (MAX_HEADER_CHARACTERS - 200) + "\n"
    assert parse_trf(BASE + long)
    with pytest.raises(TrfError, match="line 12: the header records so far hold more than"):
        parse_trf(BASE + long + "032 " + "x" * 200 + "\n")


@pytest.mark.parametrize("character", ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\x9f"])
def test_control_characters_are_refused_naming_line_and_column(character: str) -> None:
    name_line = BASE.replace("Alpha, Ann", f"Alpha, A{character}n")
    code = f"U\\+{ord(character):04X}"
    with pytest.raises(TrfError, match=f"line 5, column 23: control character {code}"):
        parse_trf(name_line)
    header = BASE.replace("Minimal Open", f"Minimal{character}Open")
    with pytest.raises(TrfError, match="line 1, column 12: control character"):
        parse_trf(header.replace("\n", "\r\n"))  # lines counted whatever their ends
    assert parse_trf(BASE.replace("Minimal Open", "Minimal\tOpen")).tournament.name


def test_a_c1_control_from_a_latin_1_file_is_refused() -> None:
    """Windows-1252 leaves five bytes undefined; a file holding one is read as Latin-1,
    where 0x80-0x9F are C1 control characters."""
    raw = BASE.replace("Alpha, Ann", "Alpha, \u20acnn").encode("cp1252")
    assert parse_trf(decode_trf(raw)).tournament.players[0].name == "Alpha, \u20acnn"
    with pytest.raises(TrfError, match="line 5, column 22: control character U\\+0080"):
        parse_trf(decode_trf(raw.replace(b"Bravo", b"Br\x81vo")))


def test_a_file_without_players_is_not_refused_for_its_characters() -> None:
    """Binary garbage is not a TRF file: the callers say so (NO_PLAYERS), one message
    for every such file."""
    assert not parse_trf("\x00\x01\xff\xfe garbage\n").tournament.players


@pytest.mark.parametrize("ending", ["\x1a", "\x1a\x1a", "\r\n\x1a", "\x1a\r\n"])
def test_an_ms_dos_end_of_file_mark_is_read_as_the_end(ending: str) -> None:
    """Programs of the MS-DOS era end a text file with SUB (Ctrl-Z): the file is read,
    while a SUB anywhere else is a control character like the rest."""
    document = parse_trf(BASE.replace("\n", "\r\n").rstrip("\r\n") + ending)
    assert document.tournament.players == parse_trf(BASE).tournament.players
    with pytest.raises(TrfError, match="line 5, column 23: control character U\\+001A"):
        parse_trf(BASE.replace("Alpha, Ann", "Alpha, A\x1an") + "\x1a")
