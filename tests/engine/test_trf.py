"""TRF-16 reading and writing (reference/chess-rules.md 5; oracle/dutch README)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from service.engine.model import MAX_PLAYER_ROUNDS, ByeKind, Colour, GameResult
from service.engine.trf import (
    MAX_ACCELERATED,
    MAX_KEPT_APART,
    TrfError,
    parse_trf,
    rounds_prefix,
    write_trf,
)
from tests.data import DATA_DIR, ORACLE_DUTCH

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
