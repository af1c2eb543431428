"""What real federation files contain, one minimal file each (tests/data/trf/README.md;
docs/rules/trf.md#real-files)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from service.engine.model import ByeKind, Colour, GameResult
from service.engine.trf import (
    TrfDocument,
    TrfError,
    decode_trf,
    parse_trf,
    points_mismatches,
    write_trf,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "trf"


def _read(name: str) -> TrfDocument:
    return parse_trf(decode_trf((DATA / name).read_bytes()))


def _byes(doc: TrfDocument, round_no: int) -> dict[int, ByeKind]:
    return {b.player: b.kind for b in doc.tournament.rounds[round_no - 1].byes}


def test_byes_written_with_forfeit_letters_and_no_opponent() -> None:
    doc = _read("byes_without_opponent.trf")
    assert _byes(doc, 1) == {5: ByeKind.PAIRING_ALLOCATED}
    assert _byes(doc, 2) == {4: ByeKind.HALF_POINT}
    # Two byes worth a win in one round: only one can be the pairing-allocated one.
    assert _byes(doc, 3) == {2: ByeKind.FULL_POINT, 3: ByeKind.FULL_POINT, 5: ByeKind.ZERO_POINT}
    assert points_mismatches(doc) == {}


def test_forfeit_without_colours_is_read_with_the_lower_number_white() -> None:
    doc = _read("forfeit_without_colour.trf")
    game = next(g for g in doc.tournament.rounds[0].games if 1 in (g.white, g.black))
    assert (game.white, game.black, game.result) == (1, 2, GameResult.BLACK_WINS_FORFEIT)


def test_record_142_gives_the_rounds_and_152_the_first_colour() -> None:
    doc = _read("rounds_in_142.trf")
    assert doc.tournament.total_rounds == 5
    assert doc.tournament.initial_colour is Colour.WHITE
    assert len(doc.tournament.rounds) == 1
    assert doc.rating_zero == frozenset({2})
    assert doc.tournament.players[2].title == "WIM"


def test_announced_byes_of_the_next_round() -> None:
    doc = _read("announced_byes.trf")
    assert len(doc.tournament.rounds) == 1
    assert {(b.round, b.player, b.kind) for b in doc.next_round_byes} == {
        (2, 3, ByeKind.HALF_POINT),
        (2, 4, ByeKind.ZERO_POINT),
    }


@pytest.mark.parametrize("name", ["byte_order_mark.trf", "windows_1252.trf"])
def test_byte_order_mark_and_windows_1252(name: str) -> None:
    doc = _read(name)
    assert doc.tournament.name == "Féile Open"
    assert doc.tournament.players[0].name == "Ó Briain, Seán"


def test_a_tab_is_named_with_its_column() -> None:
    with pytest.raises(TrfError, match=r"line 3, column 25: a tab character"):
        _read("tab_in_record.trf")


def test_points_column_disagreeing_with_results_is_reported() -> None:
    doc = _read("bye_in_points_only.trf")
    assert points_mismatches(doc) == {
        2: (Fraction(1), Fraction(0)),
        4: (Fraction(3, 2), Fraction(1)),
    }


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "both_white.trf",
            r"line 4, column 97 \(player 1, round 1\) and line 5, column 97 \(player 2, "
            r"round 1\): both players have White",
        ),
        ("results_contradict.trf", r"line 4, column 99 .* results 1 and 1 contradict"),
        ("team_records.trf", r"line 2: record 013 .*team events are not supported"),
        ("truncated_record.trf", r"line 4, columns 92-99: round 1 cell is cut short"),
    ],
)
def test_contradictions_are_refused_with_line_and_columns(name: str, message: str) -> None:
    with pytest.raises(TrfError, match=message):
        _read(name)


def test_lichess_games_in_progress_and_next_round_absence() -> None:
    doc = _read("lichess_swiss.trf")
    second = doc.tournament.rounds[1]
    assert [(g.white, g.black, g.result) for g in second.games] == [(1, 3, None)]
    assert {b.player: b.kind for b in second.byes} == {
        2: ByeKind.ZERO_POINT,
        4: ByeKind.ZERO_POINT,
    }
    assert [(b.round, b.player, b.kind) for b in doc.next_round_byes] == [
        (3, 2, ByeKind.ZERO_POINT)
    ]


def test_trailing_blank_columns_are_not_rounds() -> None:
    text = (DATA / "rounds_in_142.trf").read_text()
    padded = "\n".join(
        line + "  0000 -  " * 3 if line.startswith("001") else line for line in text.splitlines()
    )
    doc = parse_trf(padded)
    assert len(doc.tournament.rounds) == 1
    assert doc.next_round_byes == ()


def test_tables_follow_the_scores_not_the_start_numbers() -> None:
    doc = _read("check_late_entry.trf")
    # Equal scores: the pair holding the lower start number first (C.04.2 D.9).
    first = doc.tournament.rounds[0]
    assert [(g.white, g.black) for g in first.games] == [(3, 1), (2, 4)]


def test_written_file_reads_back_to_the_same_file() -> None:
    doc = _read("rounds_in_142.trf")
    text = write_trf(doc)
    assert write_trf(parse_trf(text)) == text
    assert "0 IRL" in text.splitlines()[16]  # rating 0 stays 0
    assert text.splitlines()[18][48:52] == "    "  # blank stays blank


def test_partial_birth_dates_keep_their_columns() -> None:
    """SwissPerfect writes an unknown part of a birth date as blanks (`1975.  .`,
    `    .  .`): the written file keeps columns 70-79 as they were, the year is read
    where there is one."""
    text = (DATA / "partial_birth_dates.trf").read_text(encoding="utf-8")
    doc = parse_trf(text)
    assert [p.birth_year for p in doc.tournament.players] == [1975, None, 1990, None]
    written = write_trf(doc)
    fields = {line[4:8].strip(): line[69:79] for line in written.splitlines() if line[:3] == "001"}
    assert fields == {"1": "1975.  .  ", "2": "    .  .  ", "3": "1990/04/01", "4": " " * 10}
    assert write_trf(parse_trf(written)) == written


def test_a_last_column_of_byes_counted_in_the_points_is_a_played_round() -> None:
    doc = _read("last_round_only_byes.trf")
    assert len(doc.tournament.rounds) == 2 and doc.next_round_byes == ()
    assert points_mismatches(doc) == {}
    announced = _read("announced_byes.trf")
    assert len(announced.tournament.rounds) == 1 and len(announced.next_round_byes) == 2


def test_trf26_records_142_152_192_and_240() -> None:
    doc = _read("trf26_bye_record.trf")
    assert doc.tournament.total_rounds == 3
    assert doc.tournament.initial_colour is Colour.BLACK
    assert doc.system == "FIDE_DUTCH_2025"
    assert [(b.round, b.player, b.kind) for b in doc.next_round_byes] == [
        (2, 3, ByeKind.HALF_POINT),
        (2, 4, ByeKind.HALF_POINT),
    ]
    text = write_trf(doc)
    assert write_trf(parse_trf(text)) == text


def test_trf26_scoring_system_162_sets_the_points() -> None:
    doc = _read("trf26_scoring_162.trf")
    points = doc.tournament.points
    assert (points.win, points.draw, points.loss) == (3, 1, 0)
    # letters the record leaves out keep their defaults: the bye worth a win, ...
    assert points.for_bye(ByeKind.PAIRING_ALLOCATED) == 3
    assert points.for_bye(ByeKind.HALF_POINT) == 1
    # ... and the points column (written in those points) agrees with the results
    assert doc.tournament.scores() == {1: 4, 2: 2, 3: 3, 4: 1}
    assert points_mismatches(doc) == {}


def test_trf26_162_letters_and_points_are_checked() -> None:
    text = (DATA / "trf26_scoring_162.trf").read_text()
    with pytest.raises(TrfError, match="line 3, column 24: record 162 letter 'Q'"):
        parse_trf(text.replace("L 0.0", "Q 0.0"))
    with pytest.raises(TrfError, match=re.escape("line 3, columns 16-19: record 162 points 'x.0'")):
        parse_trf(text.replace("D 1.0", "Dx.0 "))


def test_trf26_acceleration_250_adds_game_points_for_its_rounds() -> None:
    doc = _read("trf26_acceleration_250.trf")
    # player 6 gets one virtual point in rounds 2 and 3 (cols 10-13, 15-17, 19-21, 23-26)
    assert doc.pairing_accelerations == {6: (Fraction(0), Fraction(1), Fraction(1))}
    assert doc.accelerations == {}  # no XXA line: none is written back
    assert "250  0.0  1.0   2   3    6" in write_trf(doc)


def test_trf26_prohibited_pairings_260_hold_in_their_rounds_only() -> None:
    doc = _read("trf26_prohibited_260.trf")
    assert doc.forbidden_for(2) == doc.forbidden_for(3) == (frozenset({1, 2}),)
    assert doc.forbidden_for(1) == doc.forbidden_for(4) == ()
    assert "260   2   3    1    2" in write_trf(doc)
