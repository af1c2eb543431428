"""PBN board-results import (service.engine.bridge.pbn)."""

from __future__ import annotations

import time

import pytest

from service.engine.bridge import (
    BridgeInputError,
    Contract,
    Doubling,
    Seat,
    Strain,
    Vulnerability,
    matchpoints,
    read_pbn,
)
from tests.engine.growth import LINEAR, growth

SESSION = """\
% PBN 2.1
% EXPORT
[Event "Club pairs"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Declarer "S"]
[Contract "4S"]
[Result "10"]
{ a comment that spans
  two lines }

[Event "#"]
[Board "1"]
[Declarer "E"]
[Contract "4SX"]
[Result "8"]
[Auction "N"]
1S 2H 4S 4NT ; a rest-of-line comment
X Pass Pass Pass

[Event "#"]
[Board "2"]
[Vulnerable "NS"]
[Contract "Pass"]

[Board "4"]
[Vulnerable "#"]
[Declarer "W"]
[Contract "3NT"]
[Result "9"]

[Event "#"]
[Board "4"]
[Declarer "^W"]
[Contract "3NT"]
[Result "9"]
"""


def test_reads_and_scores_every_game():
    results = read_pbn(SESSION)
    assert [r.board for r in results] == [1, 1, 2, 4, 4]
    first, second, passed, fourth, fifth = results
    assert first.contract == Contract(4, Strain.SPADES)
    assert first.declarer is Seat.SOUTH
    assert first.tricks == 10
    assert first.ns_score == 420
    assert second.ns_score == 300  # 4SX by E, down 2, not vulnerable
    assert second.contract is not None and second.contract.doubling is Doubling.DOUBLED
    assert passed.contract is None and passed.ns_score == 0
    assert passed.vulnerability is Vulnerability.NS
    assert fourth.vulnerability is Vulnerability.NS  # "#" inherits the previous game's value
    assert fourth.ns_score == -400
    # "#" for a tag the previous game lacked drops it: board 4's own vulnerability (All).
    assert fifth.vulnerability is Vulnerability.ALL
    assert fifth.declarer is Seat.WEST  # "^W": irregular declarer, read as W
    assert fifth.ns_score == -600
    assert second.tags["Event"] == "Club pairs"
    assert "Event" not in fourth.tags


def test_imported_scores_feed_matchpoints():
    board_one = [r.ns_score for r in read_pbn(SESSION) if r.board == 1]
    assert list(matchpoints(board_one).ns) == [2, 0]


def test_games_without_a_contract_are_skipped():
    assert read_pbn('[Event "x"]\n[Board "3"]\n') == ()
    assert read_pbn("") == ()


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[Board "x"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n', "Board"),
        # digits to str.isdigit that int() refuses, and more digits than int() reads
        ('[Board "²"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n', "Board"),
        ('[Board "1"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "¹⁰"]\n', "Result"),
        (f'[Board "{"9" * 5000}"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n', "Board"),
        ('[Board "1"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "?"]\n', "Result"),
        ('[Board "1"]\n[Contract "9S"]\n[Declarer "N"]\n[Result "10"]\n', "level"),
        ('[Board "1"]\n[Contract "4S"]\n[Declarer "Q"]\n[Result "10"]\n', "declarer"),
        ('[Board "1"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "14"]\n', "tricks"),
        ('[Board "1"]\n[Vulnerable "Maybe"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "9"]', "vul"),
    ],
)
def test_errors_name_the_game_and_the_field(text, fragment):
    with pytest.raises(BridgeInputError) as info:
        read_pbn(text)
    assert info.value.field == "pbn"
    assert "game 1" in str(info.value)
    assert fragment in str(info.value)


GAME = '[Board "1"]\n[Table "1"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n\n'

PATHOLOGICAL = {
    "unclosed braces": lambda n: "{" * n,
    "an unclosed brace a line": lambda n: "{\n" * (n // 2),
    "braces closed at the end": lambda n: "{\n" * (n // 2) + "}",
    "nested braces": lambda n: "{" * (n // 2) + "}" * (n // 2),
    "closed comments": lambda n: "{}\n" * (n // 3),
    "comment lines": lambda n: "; {\n" * (n // 4),
    "unclosed tag values": lambda n: '[a "x\n' * (n // 6),
    "blank lines": lambda n: "\n" * n,
    "games": lambda n: GAME * (n // len(GAME)),
}


@pytest.mark.parametrize("make", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_reading_is_linear_in_the_text(make):
    """Comment stripping was a regular expression that scanned from every "{" to the
    end of the text when no "}" followed: 150,000 characters took 7 s, 5 MB hours."""
    assert growth(read_pbn, make, 50_000) < LINEAR


def test_a_long_unclosed_brace_is_answered_at_once():
    start = time.perf_counter()
    with pytest.raises(BridgeInputError, match="line 1: a line of more than 10,000"):
        read_pbn("{" * 150_000)
    assert read_pbn("{\n" * 75_000) == ()
    assert time.perf_counter() - start < 2  # the reading took 7 s


def test_comments_are_removed_across_lines():
    text = '[Board "1"] {a comment\n; [Board "2"]\n{ not nested } [Contract "4S"]\n'
    (game,) = read_pbn(text + '[Declarer "N"]\n[Result "10"] { unclosed\n')
    assert game.board == 1 and game.ns_score == 420
    assert game.tags["Result"] == "10"
    with pytest.raises(BridgeInputError, match="game 1: Board tag missing"):
        read_pbn('{ [Board "1"] }\n[Contract "4S"]\n')
    # comments join the lines they split; the error names the line where the joined
    # line passes the bound
    with pytest.raises(BridgeInputError, match="line 10002: a line of more than 10,000"):
        read_pbn("[Board {x}\n" + "x{\n}" * 10_001)


@pytest.mark.parametrize(
    ("character", "where"),
    [("\x00", "column 9"), ("\x1b", "column 9"), ("\x07", "column 9"), ("\x85", "column 9")],
)
def test_control_characters_are_refused_naming_the_line(character, where):
    text = GAME.replace('[Table "1"]', f'[Table "{character}1"]')
    with pytest.raises(BridgeInputError) as info:
        read_pbn(text)
    assert info.value.field == "pbn"
    assert f"line 2, {where}: control character U+{ord(character):04X}" in str(info.value)
    assert len(read_pbn(text.replace(character, "\t"))) == 1  # a tab is white space


def test_games_past_the_callers_bound_are_refused():
    """A caller that can take `most` results says so: the text is refused at the first
    game with a contract past them (games without one, hand records, do not count)."""
    hand = '[Board "1"]\n[Deal "N:..."]\n\n'
    assert len(read_pbn(hand * 3 + GAME * 2, most=2)) == 2
    with pytest.raises(BridgeInputError, match="game 6: more than 2 games with a Contract"):
        read_pbn(hand * 3 + GAME * 3, most=2)


def test_a_byte_order_mark_and_an_ms_dos_end_of_file_mark_are_read_past():
    assert read_pbn("\ufeff" + GAME.replace("\n", "\r\n") + "\x1a") == read_pbn(GAME)
    with pytest.raises(BridgeInputError, match="control character U\\+001A"):
        read_pbn(GAME.replace('[Table "1"]', '[Table "\x1a1"]'))
