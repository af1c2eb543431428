"""Real team TRF files (tests/data/trf/SURVEY.md): the ICU's Armstrong Cup league, the
two Heraklion Team Swiss events written by Swiss-Manager, FIDE's TRF-26 team sample and
engine-test files (docs/rules/teams.md#real-team-files).

Every number checked below is worked by hand from the file's own text; the docstrings
quote the cells (round cell = opponent, colour, result)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from service.cli import main
from service.engine.teams.model import EMPTY_SEAT, TeamSystem
from service.engine.teams.results import team_table
from service.engine.teams.trf import TeamTrfDocument, is_team_trf, parse_team_trf, write_team_trf
from service.engine.trf import TrfError

DATA = Path(__file__).resolve().parents[2] / "data" / "trf"

ARMSTRONG = "armstrong_cup_2011.tab"
CHAMPIONSHIP = "heraklion_championship_2025.trf"
FRIENDSHIP = "heraklion_friendship_cup_2024.trf"


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _read(name: str) -> TeamTrfDocument:
    return parse_team_trf(_text(name))


def _match_score(doc: TeamTrfDocument, round_no: int, team: int) -> tuple[Fraction, Fraction]:
    """(team's game points, its opponent's) in the match of `round_no`."""
    rnd = doc.event.rounds[round_no - 1]
    (match,) = (m for m in rnd.matches if team in m.teams())
    results = team_table(doc.event).rounds
    other = match.away if match.home == team else match.home
    return (
        results[team][round_no - 1].game_points,
        results[other][round_no - 1].game_points,
    )


def test_the_armstrong_cup_league() -> None:
    """ICU's Leinster Div 1 2010-11: 092 `Team League`, twelve 013 squads listed by start
    number (not board order), 11 rounds, eight boards.

    Round 1, Bray / Greystones (013 line 1: players 47-57) against Phibsboro (134-147):
    47 `145 w 0`, 49 `134 w 1`, 50 `143 w 0`, 51 `139 b 0`, 52 `146 b 0`, 53 `144 b 1`,
    54 `141 w 0`, 57 `135 b 0` (48, 55, 56 have no cell): Bray 2, Phibsboro 6.
    Round 5, Elm Mount (85-95) against Dublin University (58-72): 86 `0000 - +`,
    88 `62 b 1`, 89 `68 w =`, 90 `59 b 1`, 91 `63 w 1`, 92 `60 w =`, 93 `0000 - +`,
    95 `67 b 1`: 7 to 1, two of the boards won by default (University fielded six).
    """
    doc = _read(ARMSTRONG)
    event = doc.event
    assert event.system is TeamSystem.ROUND_ROBIN
    assert (len(event.teams), len(event.rounds), event.scoring.boards) == (12, 11, 8)
    assert doc.team_format == "013"
    assert _match_score(doc, 1, 1) == (2, 6)
    assert _match_score(doc, 5, 5) == (7, 1)
    (match,) = (m for m in event.rounds[4].matches if 5 in m.teams())
    defaults = [b for b in match.boards if EMPTY_SEAT in (b.home_player, b.away_player)]
    assert sorted(
        b.away_player if b.home_player == EMPTY_SEAT else b.home_player for b in defaults
    ) == [
        86,
        93,
    ]
    # a league: each pair of teams meets exactly once in the 11 rounds
    pairs = [frozenset(m.teams()) for r in event.rounds for m in r.matches]
    assert len(pairs) == len(set(pairs)) == 12 * 11 // 2


def test_armstrong_team_totals_are_the_members_points() -> None:
    """Each team's game points are the sum of its members' points column (cols 81-84),
    read here straight from the text: Bray / Greystones 47-57 have 7.5, 2.0, 7.5, 7.0,
    6.0, 4.0, 7.5, 1.5, 0.5, 1.0 and 4.5 = 49.0."""
    text = _text(ARMSTRONG)
    points = {
        int(line[4:8]): Fraction(line[80:84].strip())
        for line in text.splitlines()
        if line.startswith("001")
    }
    doc = parse_team_trf(text)
    table = team_table(doc.event)
    for team in doc.event.teams:
        assert table.game_total(team.number) == sum(points[p] for p in team.players), team.name
    assert table.game_total(1) == Fraction(49)
    # Kilkenny: 2 match points a win, 1 a draw (the league's reading, 2/1/0)
    assert table.match_total(7) == 19


def test_the_heraklion_championship_2025() -> None:
    """Swiss-Manager's Team Swiss, 013 lines in board order, ten boards, 4 rounds.

    Round 1, Σ.Α.Χ. (players 1-10) against team 5: 1 `96 w 1`, 2 `97 b 1`, 3 `98 w 1`,
    4 `99 b 1`, 5 `100 w 1`, 6 `101 b 1`, 7 `102 w =`, 8 `103 b 0`, 9 `104 w 0`,
    10 `105 b 1`: 7½ to 2½, board k meets board k."""
    doc = _read(CHAMPIONSHIP)
    event = doc.event
    assert (len(event.teams), len(event.rounds), event.scoring.boards) == (8, 4, 10)
    assert event.system is TeamSystem.SWISS
    assert _match_score(doc, 1, 1) == (Fraction(15, 2), Fraction(5, 2))
    (match,) = (m for m in event.rounds[0].matches if 1 in m.teams())
    assert [(b.board, b.home_player, b.away_player) for b in match.boards][:2] == [
        (1, 1, 96),
        (2, 2, 97),
    ]


# The published final standings of the Friendship Cup 2024 (as litour's test of this
# file lists them): match points and game points of the eight teams that never sat out
# a round. The other seven each sat out one round (all boards `0000 - -`, 15 teams),
# and the file gives that round no points, so their totals are the games' alone.
FRIENDSHIP_PUBLISHED = {
    "ΟΑΑΗ": (11, Fraction(49, 2)),
    "ΟΑΧ": (10, Fraction(47, 2)),
    "ΣΟΗ": (9, Fraction(51, 2)),
    "ΓΑΖΙ 1": (9, Fraction(25)),
    "ΟΦΗ 1": (9, Fraction(49, 2)),
    "ΟΦΗ 2": (8, Fraction(22)),
    "ΛΕΩΝ ΚΑΝΤΙΑ 2": (7, Fraction(23)),
    "ΓΑΖΙ 3": (6, Fraction(37, 2)),
}


def test_the_heraklion_friendship_cup_2024() -> None:
    """15 teams, 6 boards, 7 rounds; one team sits out each round.

    Round 1, ΓΑΖΙ 1 (013: 13 14 15 16 17 18 90 129) against ΓΑΖΙ 3 (44-50, 91):
    13 `44 b 0`, 14 `45 w 0`, 15 `46 b 1`, 16 `47 w 1`, 17 `48 b 0`, 18 `49 w 1`: 3-3.
    Player 31 `0000 - +` in round 1 beside ΣΟΗ's match is a board won by default."""
    doc = _read(FRIENDSHIP)
    event = doc.event
    assert (len(event.teams), len(event.rounds), event.scoring.boards) == (15, 7, 6)
    assert _match_score(doc, 1, 1) == (3, 3)
    assert [r.unpaired for r in event.rounds] == [(15,), (13,), (11,), (14,), (5,), (2,), (6,)]
    table = team_table(event)
    by_name = {t.name: t.number for t in event.teams}
    for name, (mp, gp) in FRIENDSHIP_PUBLISHED.items():
        number = by_name[name]
        assert (table.match_total(number), table.game_total(number)) == (mp, gp), name


@pytest.mark.parametrize("name", [ARMSTRONG, CHAMPIONSHIP, FRIENDSHIP])
def test_real_team_files_round_trip(name: str) -> None:
    """export -> import -> export is byte-identical."""
    once = write_team_trf(_read(name))
    assert write_team_trf(parse_team_trf(once)) == once


@pytest.mark.parametrize(
    ("name", "teams", "leader"),
    [(ARMSTRONG, 12, "Kilkenny"), (CHAMPIONSHIP, 8, "Ο.Α.Χ."), (FRIENDSHIP, 15, "ΟΑΑΗ")],
)
def test_arbiter_standings_ranks_the_teams(
    name: str, teams: int, leader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Kilkenny 19 MP, Ο.Α.Χ. 8 MP (4 wins of 4), ΟΑΑΗ 11 MP: each alone on top."""
    assert main(["standings", str(DATA / name), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert len(body["rows"]) == teams
    first = body["rows"][0]
    assert first["rank"] == 1 and first["name"] == leader


@pytest.mark.parametrize(
    ("name", "message"),
    [
        # Spain's players in round 6: 53 W, 26 B, 125 B, 150 W; record 352 is WBWB, and
        # neither Spain's 310 order nor Israel's seats 150 on board 3
        (
            "fide_trf26_team_sample.trf",
            r"line 182, column 147 \(player 150, round 6\): board 4 of team 13 has white, "
            r"record 352 says B",
        ),
        # `0000 - *` is no result code of TRF-16 or TRF-26
        (
            "chesspairing_trf2026_team.trf",
            r"line 30, column 119 \(player 1, round 3\): result '\*' is not a bye code",
        ),
        # players 2, 3 and 4 belong to no 310 team
        ("sharly_trf_team_import_test.trf", r"line 21: player 2 is in no team \(310/013\)"),
    ],
)
def test_files_that_contradict_themselves_name_the_line(name: str, message: str) -> None:
    with pytest.raises(TrfError, match=message):
        _read(name)


def test_the_sharly_individual_test_file_is_not_a_team_file() -> None:
    assert not is_team_trf(_text("sharly_trf_import_test.trf"))
