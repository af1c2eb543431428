"""PBN board-results import (service.engine.bridge.pbn)."""

from __future__ import annotations

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
