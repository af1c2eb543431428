"""TRF-26 team records read and written (docs/rules/teams.md#trf-team-records), and
team files whose records contradict the games refused with the line at fault."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from service.engine.model import Colour, GameResult
from service.engine.teams.model import EMPTY_SEAT, MatchForfeit, Team, TeamSystem
from service.engine.teams.results import team_table
from service.engine.teams.trf import MAX_TRF_TEAMS, is_team_trf, parse_team_trf, write_team_trf
from service.engine.trf import TrfError, parse_trf

DATA = Path(__file__).resolve().parents[2] / "data" / "team_tiebreaks"


def player(number: int, cells: list[str], points: str = "") -> str:
    """A 001 record: start number, a name, then one 10-column cell per round."""
    head = f"001 {number:4d} m    {'Player ' + str(number):<33} 2000 POL{'':>25}{points:>4}     "
    return (head.ljust(91) + "  ".join(c.ljust(8) for c in cells)).rstrip()


def team(number: int, name: str, players: list[int], mp: str = "", gp: str = "") -> str:
    """A 310 record."""
    return (
        f"310 {number:3d} {name:<32} {'':<5} {'':>6} {mp:>6} {gp:>6} {'':>3} "
        + "".join(f"{p:5d}" for p in players)
    ).rstrip()


def small_file(*extra: str, teams: tuple[str, ...] | None = None) -> str:
    """Three teams of two boards plus a reserve, two rounds, 352 WB, 2/1/0:
    R1: team 1 beats team 2 1½-½, team 3 has the PAB; R2: team 3 draws team 1 1-1
    (team 1's reserve 3 plays board 2), team 2 has the PAB."""
    records = [
        "012 Small Cup",
        "092 Team Swiss System",
        "142 2",
        "192 FIDE_TEAM_MP_GP",
        "352 WB",
        player(1, ["   4 w 1", "   7 b ="]),
        player(2, ["   5 b =", ""]),
        player(3, ["", "   8 w ="]),
        player(4, ["   1 b 0", "0000 - U"]),
        player(5, ["   2 w =", "0000 - U"]),
        player(7, ["0000 - U", "   1 w ="]),
        player(8, ["0000 - U", "   3 b ="]),
        *(
            teams
            or (
                team(1, "Rooks", [1, 2, 3], "3.0", "2.5"),
                team(2, "Knights", [4, 5], "2.0", "2.5"),
                team(3, "Bishops", [7, 8], "3.0", "3.0"),
            )
        ),
        "320  2.0  2.0   3   2",
        *extra,
    ]
    return "\n".join(records) + "\n"


def test_the_small_file_is_read() -> None:
    doc = parse_team_trf(small_file())
    event = doc.event
    assert event.system is TeamSystem.SWISS
    assert event.scoring.boards == 2
    assert [t.players for t in event.teams] == [(1, 2, 3), (4, 5), (7, 8)]
    first, second = event.rounds
    assert first.pab == 3 and second.pab == 2
    (match,) = first.matches
    assert (match.home, match.away) == (1, 2)
    assert [(b.board, b.home_player, b.away_player, b.home_colour) for b in match.boards] == [
        (1, 1, 4, Colour.WHITE),
        (2, 2, 5, Colour.BLACK),
    ]
    (match,) = second.matches
    # board 1 of the first-named team has White (352 WB): team 3
    assert (match.home, match.away) == (3, 1)
    assert [(b.board, b.home_player, b.away_player) for b in match.boards] == [(1, 7, 1), (2, 8, 3)]
    assert [b.result for b in match.boards] == [GameResult.DRAW, GameResult.DRAW]


def test_round_trip() -> None:
    text = small_file()
    written = write_team_trf(parse_team_trf(text))
    assert write_team_trf(parse_team_trf(written)) == written
    assert "0000 - U" in written  # the PAB team's cells stay U
    records = [line for line in written.splitlines() if line[:3] in ("310", "320")]
    # 310: number 5-7, name 9-40, match points 55-60, game points 62-67, rank 69-71,
    # players in 5-column fields from column 73
    assert [
        (r[4:7], r[8:40].rstrip(), r[54:60], r[61:67], r[68:71], r[72:]) for r in records[:3]
    ] == [
        ("  1", "Rooks", "   3.0", "   2.5", "   ", "    1    2    3"),
        ("  2", "Knights", "   2.0", "   2.5", "   ", "    4    5"),
        ("  3", "Bishops", "   3.0", "   3.0", "   ", "    7    8"),
    ]
    assert records[3] == "320  2.0  2.0   3   2"


def test_the_ranks_given_are_written() -> None:
    written = write_team_trf(parse_team_trf(small_file()), ranks={1: 1, 3: 2, 2: 3})
    ranks = {r[4:7]: r[68:71] for r in written.splitlines() if r.startswith("310")}
    assert ranks == {"  1": "  1", "  2": "  3", "  3": "  2"}


def test_a_team_number_needs_three_columns_at_most() -> None:
    """310, 320 and 330 give a team's number three columns: team 999 is written, team
    1000 would be read back as team 100, so the writer refuses it."""
    doc = parse_team_trf(small_file())

    def with_team(number: int) -> str:
        extra = Team(number=number, name="Latecomers", players=())
        return write_team_trf(
            replace(doc, event=replace(doc.event, teams=(*doc.event.teams, extra)))
        )

    assert MAX_TRF_TEAMS == 999
    assert any(line.startswith("310 999 Latecomers") for line in with_team(999).splitlines())
    with pytest.raises(TrfError, match=r"team 1000: .* at most 999 teams"):
        with_team(1000)


def test_a_team_file_is_still_refused_by_the_individual_reader() -> None:
    assert is_team_trf(small_file())
    with pytest.raises(TrfError, match=r"line \d+: record 310 .*team events are not supported"):
        parse_trf(small_file())


def test_system_from_record_192_or_as_given() -> None:
    text = small_file().replace("FIDE_TEAM_MP_GP", "FIDE_TEAM_ROUNDROBIN")
    assert parse_team_trf(text).event.system is TeamSystem.ROUND_ROBIN
    assert parse_team_trf(text, system=TeamSystem.SWISS).event.system is TeamSystem.SWISS


def test_record_362_sets_the_match_points() -> None:
    text = small_file("362 TW 3.0   TD 1.0   TL 0.0").replace("320  2.0", "320  3.0")
    text = text.replace("3.0    2.5", "4.0    2.5").replace("3.0    3.0", "4.0    3.0")
    text = text.replace("2.0    2.5", "3.0    2.5")
    scoring = parse_team_trf(text).event.scoring
    assert (scoring.match_win, scoring.match_draw, scoring.match_loss) == (3, 1, 0)
    assert scoring.pab_match == 3


def test_trf16_013_records() -> None:
    teams = (
        "013 Rooks                            1    2    3",
        "013 Knights                          4    5",
        "013 Bishops                          7    8",
    )
    text = small_file(teams=teams)
    doc = parse_team_trf(text)
    assert [(t.number, t.name, t.players) for t in doc.event.teams] == [
        (1, "Rooks", (1, 2, 3)),
        (2, "Knights", (4, 5)),
        (3, "Bishops", (7, 8)),
    ]
    written = write_team_trf(doc)
    assert "013 Rooks                               1    2    3" in written
    assert write_team_trf(parse_team_trf(written)) == written


def test_record_330_a_forfeited_match() -> None:
    """Round 3: team 1 wins its match against team 2 by forfeit; team 3 is idle."""
    text = small_file("330 +-   3   1   2").replace("142 2", "142 3")
    text = text.replace("3.0    2.5", "5.0    4.5")
    doc = parse_team_trf(text)
    third = doc.event.rounds[2]
    (match,) = third.matches
    assert (match.home, match.away, match.forfeit) == (1, 2, MatchForfeit.HOME_WINS)
    assert third.unpaired == (3,)
    written = write_team_trf(doc)
    assert "330 +-   3   1   2" in written
    assert write_team_trf(parse_team_trf(written)) == written


def test_informative_records_are_kept() -> None:
    text = small_file("801 Rooks      some note", "802 Knights    another")
    written = write_team_trf(parse_team_trf(text))
    assert written.splitlines()[-2:] == ["801 Rooks      some note", "802 Knights    another"]


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_player_in_two_teams() -> None:
    text = small_file().replace(
        team(2, "Knights", [4, 5], "2.0", "2.5"), team(2, "Knights", [4, 5, 1], "2.0", "2.5")
    )
    line = _line_of(text, "310   2")
    first = _line_of(text, "310   1")
    with pytest.raises(
        TrfError, match=rf"line {line}: player 1 is already in team 1 \(line {first}\)"
    ):
        parse_team_trf(text)


def test_a_match_point_total_the_games_do_not_give() -> None:
    text = small_file().replace("3.0    2.5", "4.0    2.5")
    line = _line_of(text, "310   1")
    with pytest.raises(
        TrfError, match=rf"line {line}, columns 55-60: team 1 has 4 match points, the games give 3"
    ):
        parse_team_trf(text)


def test_a_game_point_total_the_games_do_not_give() -> None:
    text = small_file().replace("3.0    3.0", "3.0    3.5")
    line = _line_of(text, "310   3")
    with pytest.raises(TrfError, match=rf"line {line}, columns 62-67: team 3 has 7/2 game points"):
        parse_team_trf(text)


def test_a_pab_team_that_also_plays() -> None:
    text = small_file().replace("320  2.0  2.0   3   2", "320  2.0  2.0   1   2")
    line = _line_of(text, "320")
    with pytest.raises(
        TrfError, match=rf"line {line}: team 1 has the PAB of round 1 but plays a match"
    ):
        parse_team_trf(text)


def test_a_pab_the_players_do_not_show() -> None:
    text = small_file().replace("320  2.0  2.0   3   2", "320  2.0  2.0   000   2")
    text = text.replace("320  2.0  2.0   000   2", "320  2.0  2.0 000   2")
    line = _line_of(text, "320")
    with pytest.raises(TrfError, match=rf"line {line}: record 320 gives round 1's PAB to no team"):
        parse_team_trf(text)


def test_team_mates_paired_together() -> None:
    text = (
        small_file()
        .replace(team(2, "Knights", [4, 5], "2.0", "2.5"), team(2, "Knights", [5], "2.0", "2.5"))
        .replace(
            team(1, "Rooks", [1, 2, 3], "3.0", "2.5"), team(1, "Rooks", [1, 2, 3, 4], "3.0", "2.5")
        )
    )
    with pytest.raises(TrfError, match=r"players 1 and 4 of team 1 are paired together in round 1"):
        parse_team_trf(text)


def test_boards_numbered_by_the_first_team_when_352_agrees() -> None:
    """Team 2 lists 5 before 4, but record 352 (WB) fits team 1's order: player 1 (W)
    on board 1 meets 4, player 2 (B) on board 2 meets 5. FIDE's TRF-26 sample has such
    matches, so the second team's 310 order does not have to be its board order."""
    text = small_file().replace(
        team(2, "Knights", [4, 5], "2.0", "2.5"), team(2, "Knights", [5, 4], "2.0", "2.5")
    )
    (match,) = parse_team_trf(text).event.rounds[0].matches
    assert [(b.board, b.home_player, b.away_player) for b in match.boards] == [
        (1, 1, 4),
        (2, 2, 5),
    ]


def test_boards_that_do_not_face_each_other() -> None:
    """Without 352 the boards must follow both 310 orders: team 2 lists 5 before 4, so
    its first player (5) meets team 1's board 2 whichever team numbers the boards."""
    text = (
        small_file()
        .replace(team(2, "Knights", [4, 5], "2.0", "2.5"), team(2, "Knights", [5, 4], "2.0", "2.5"))
        .replace("352 WB\n", "")
    )
    with pytest.raises(
        TrfError, match=r"line 8: round 1, player 4 \(team 2\) meets board 1 of team 1 out of"
    ):
        parse_team_trf(text)


def test_a_player_in_no_team() -> None:
    text = small_file().replace(
        team(3, "Bishops", [7, 8], "3.0", "3.0"), team(3, "Bishops", [7], "3.0", "3.0")
    )
    line = _line_of(text, "001    8")
    with pytest.raises(TrfError, match=rf"line {line}: player 8 is in no team"):
        parse_team_trf(text)


def test_a_team_player_without_a_001_record() -> None:
    text = small_file().replace(
        team(3, "Bishops", [7, 8], "3.0", "3.0"), team(3, "Bishops", [7, 8, 9], "3.0", "3.0")
    )
    line = _line_of(text, "310   3")
    with pytest.raises(TrfError, match=rf"line {line}: team 3 lists player 9, who has no 001"):
        parse_team_trf(text)


def test_colours_against_record_352() -> None:
    text = small_file().replace("352 WB", "352 WW")
    with pytest.raises(TrfError, match=r"board 2 of team 1 has black, record 352 says W"):
        parse_team_trf(text)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("362 TX 3.0", r"362 code 'TX' is not TW, TD, TL or TP"),
        ("330 ++   1   1   2", r"330 result '\+\+' is not"),
        ("330 +-   1   1   1", r"330 pairs team 1 with itself"),
        ("320  2.0  2.0   3   2", r"a second 320 record"),
    ],
)
def test_malformed_team_records(extra: str, message: str) -> None:
    with pytest.raises(TrfError, match=message):
        parse_team_trf(small_file(extra))


def test_a_forfeited_match_of_a_team_that_plays() -> None:
    text = small_file("330 +-   1   1   2")
    line = _line_of(text, "330")
    with pytest.raises(TrfError, match=rf"line {line}: team 1's match of round 1 is forfeited"):
        parse_team_trf(text)


def test_a_file_without_team_records() -> None:
    text = "\n".join(line for line in small_file().splitlines() if not line.startswith("310"))
    with pytest.raises(TrfError, match="no team records"):
        parse_team_trf(text)


def test_310_and_013_together() -> None:
    """FIDE's TRF-26 sample keeps the TRF-16 013 lines beside 310: they are read as a
    copy, which must repeat team k's name and players; a copy that differs is refused."""
    copies = (
        f"013 {'Rooks':<32}    1    2    3",
        f"013 {'Knights':<32}    4    5",
        f"013 {'Bishops':<32}    7    8",
    )
    doc = parse_team_trf(small_file(*copies))
    assert [t.players for t in doc.event.teams] == [(1, 2, 3), (4, 5), (7, 8)]
    assert doc.team_format == "310"
    wrong = (copies[0], f"013 {'Knights':<32}    5    4", copies[2])
    text = small_file(*wrong)
    with pytest.raises(
        TrfError, match=rf"line {_line_of(text, '013 Knights')}, columns 37-: record 013 lists"
    ):
        parse_team_trf(text)
    with pytest.raises(TrfError, match="names team 1 'Pawns'"):
        parse_team_trf(small_file(f"013 {'Pawns':<32}    9"))


def test_reference_file_totals_read_as_fractions() -> None:
    data = json.loads((DATA / "v0006.json").read_text(encoding="utf-8"))
    doc = parse_team_trf(data["trf"])
    assert doc.event.scoring.pab_match == Fraction(2)
    assert doc.event.rounds[0].pab == 9


def test_a_reserve_written_absent_sits_out() -> None:
    """`0000 - Z` for the reserve of a team that plays: not fielded, not an error."""
    text = small_file().replace(player(3, ["", "   8 w ="]), player(3, ["0000 - Z", "   8 w ="]))
    doc = parse_team_trf(text)
    assert [b.home_player for b in doc.event.rounds[0].matches[0].boards] == [1, 2]
    assert write_team_trf(parse_team_trf(write_team_trf(doc))) == write_team_trf(doc)


def test_a_half_point_bye_beside_a_match() -> None:
    text = small_file().replace(player(3, ["", "   8 w ="]), player(3, ["0000 - H", "   8 w ="]))
    line = _line_of(text, "001    3")
    with pytest.raises(
        TrfError,
        match=rf"line {line}, columns 92-99: player 3 of team 1 has a half-point bye in round 1",
    ):
        parse_team_trf(text)


def test_two_teams_with_a_bye_worth_a_win() -> None:
    """Four one-board teams: 1 plays 2, and both 3 and 4 show `0000 - U`."""
    text = "\n".join(
        [
            "012 Two byes",
            player(1, ["   2 w 1"]),
            player(2, ["   1 b 0"]),
            player(3, ["0000 - U"]),
            player(4, ["0000 - U"]),
            *(team(n, f"T{n}", [n]) for n in range(1, 5)),
        ]
    )
    with pytest.raises(TrfError, match=r"line 5: teams 3, 4 all have a bye worth a win in round 1"):
        parse_team_trf(text)


def test_a_board_won_by_default() -> None:
    """Round 1 with team 2's player 5 absent (no cell) and team 1's player 2 written
    `0000 - +`: team 1 fields two (1 on board 1, 2 on board 2), team 2 one, so team 1
    numbers the boards; board 2 is won by default, 1-0 + 1 = 2-0 for team 1 (was 1½-½)."""
    text = small_file(
        teams=(
            team(1, "Rooks", [1, 2, 3], "3.0", "3.0"),
            team(2, "Knights", [4, 5], "2.0", "2.0"),
            team(3, "Bishops", [7, 8], "3.0", "3.0"),
        )
    )
    text = text.replace(player(2, ["   5 b =", ""]), player(2, ["0000 - +", ""]))
    text = text.replace(player(5, ["   2 w =", "0000 - U"]), player(5, ["", "0000 - U"]))
    doc = parse_team_trf(text)
    (match,) = doc.event.rounds[0].matches
    assert [(b.board, b.home_player, b.away_player) for b in match.boards] == [
        (1, 1, 4),
        (2, 2, EMPTY_SEAT),
    ]
    assert match.boards[1].result is GameResult.BLACK_WINS_FORFEIT  # 352 WB: home Black
    table = team_table(doc.event)
    assert table.rounds[1][0].game_points == 2 and table.rounds[2][0].game_points == 0
    assert write_team_trf(parse_team_trf(write_team_trf(doc))) == write_team_trf(doc)


def _team_2_idle_in_round_2(*extra: str, mp: str = "1.0", gp: str = "1.5") -> str:
    """The small file with no PAB in round 2: team 2 has no match there (no cells)."""
    text = small_file(
        *extra,
        teams=(
            team(1, "Rooks", [1, 2, 3], "3.0", "2.5"),
            team(2, "Knights", [4, 5], mp, gp),
            team(3, "Bishops", [7, 8], "3.0", "3.0"),
        ),
    )
    lines = text.split("\n")
    lines = [
        line.replace("0000 - U", "        ") if line[:8] in ("001    4", "001    5") else line
        for line in lines
    ]
    return "\n".join(lines).replace("320  2.0  2.0   3   2", "320  2.0  2.0   3   0")


def test_record_299_gives_a_team_without_a_match_its_points() -> None:
    """Team 2 lost round 1 ½-1½ and had no match in round 2; a 299 gives it a drawn
    match there (1 MP, 1 GP): totals 1 MP, 1½ GP, as its 310 says. Written back alike."""
    text = _team_2_idle_in_round_2("299 Z   1.0   1.0  002    2")
    doc = parse_team_trf(text)
    (award,) = doc.event.rounds[1].awarded
    assert (award.team, award.match_points, award.game_points) == (2, 1, 1)
    table = team_table(doc.event)
    assert (table.match_total(2), table.game_total(2)) == (1, Fraction(3, 2))
    written = write_team_trf(doc)
    assert "299 Z   1.0   1.0  002    2" in written.splitlines()
    assert write_team_trf(parse_team_trf(written)) == written


@pytest.mark.parametrize(
    ("record", "says"),
    [
        ("299 Z   1.0   1.0  002    1", "team 1 points in round 2, where it has a match"),
        ("299 Z   1.0   1.0  003    2", "names round 3, which has no pairing"),
        ("299 Z   1.0   1.0  000    2", "is not one round"),
        ("299 Z   x.0   1.0  002    2", "match points (cols 8-11) 'x.0' is not a number"),
        ("299 Z   1.0   0.3  002    2", "is not a multiple of 0.5"),
    ],
)
def test_a_299_record_that_does_not_fit_is_refused(record: str, says: str) -> None:
    with pytest.raises(TrfError, match=re.escape(says)):
        parse_team_trf(_team_2_idle_in_round_2(record))
