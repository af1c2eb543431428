"""Team scoring and each team tie-break on small events worked by hand (C.07 Art. 6-9,
11-14 and 16 applied to teams; docs/rules/teams.md).

Event A, a Swiss: five teams, two boards, three rounds, match points 2/1/0, the PAB
worth a win (2 match points, 2 game points):

    R1: 1-2 "1=" (1 wins 1½-½), 3-4 "==" (1-1), PAB 5
    R2: 1-3 "=0" (3 wins 1½-½), 5-2 "10" (1-1), PAB 4
    R3: 2-4 "11" (2 wins 2-0), 3-5 "0=" (5 wins 1½-½), PAB 1

    team   rounds (MP, GP)                   MP   GP   opponents
    1      W 2 1½   L 0 ½    PAB 2 2          4    4    2, 3, PAB
    2      L 0 ½    D 1 1    W 2 2            3    3½   1, 5, 4
    3      D 1 1    W 2 1½   L 0 ½            3    3    4, 1, 5
    4      D 1 1    PAB 2 2  L 0 0            3    3    3, PAB, 2
    5      PAB 2 2  D 1 1    W 2 1½           5    4½   PAB, 2, 3

The PAB's virtual opponent scores the team's own final score capped at draw points x
rounds (C.07 16.4.2): 1 x 3 = 3 match points, 2/2 x 3 = 3 game points.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.engine.scoring.tiebreaks.errors import TieBreakError, UnknownTieBreakError
from service.engine.teams.context import TeamContext
from service.engine.teams.model import TeamSystem
from service.engine.teams.ranking import rank_teams, team_tiebreak_values
from service.engine.teams.registry import parse_team_tiebreak
from service.engine.teams.results import RoundKind, team_table
from tests.engine.teams.builders import event

F = Fraction
EVENT_A = event(
    5,
    2,
    [
        [(1, 2, "1="), (3, 4, "==")],
        [(1, 3, "=0"), (5, 2, "10")],
        [(2, 4, "11"), (3, 5, "0=")],
    ],
    pabs=[5, 4, 1],
)


def _values(code: str, ev: object = EVENT_A) -> dict[int, Fraction]:
    return team_tiebreak_values(ev, [code])[code]  # type: ignore[arg-type]


def test_match_and_game_points() -> None:
    assert _values("MPTS") == {1: 4, 2: 3, 3: 3, 4: 3, 5: 5}
    assert _values("GPTS") == {1: 4, 2: F(7, 2), 3: 3, 4: 3, 5: F(9, 2)}
    assert _values("MPVGP") == _values("GPTS")
    assert _values("PTS") == _values("MPTS")


def test_board_forfeits_and_double_forfeits_score_the_board() -> None:
    """`+-` on board 1 and a double forfeit on board 2: 1-0 to the home team, who wins
    the match 2-0 in match points; the double forfeit gives nobody a game point."""
    ev = event(2, 2, [[(1, 2, "+x")]])
    table = team_table(ev)
    home, away = table.rounds[1][0], table.rounds[2][0]
    assert (home.match_points, home.game_points, home.boards) == (2, 1, (1, 0))
    assert (away.match_points, away.game_points, away.boards) == (0, 0, (0, 0))


def test_a_drawn_match_on_game_points() -> None:
    ev = event(
        2,
        4,
        [
            [
                (1, 2, "10=="),
            ]
        ],
        win=3,
    )
    table = team_table(ev)
    assert [r.match_points for r in (table.rounds[1][0], table.rounds[2][0])] == [1, 1]


def test_pab_points_as_the_regulations_say() -> None:
    """A PAB worth a draw's match point still counts every board as won."""
    ev = event(3, 2, [[(1, 2, "11")]], pabs=[3], pab_match_points=F(1))
    pab = team_table(ev).rounds[3][0]
    assert (pab.kind, pab.match_points, pab.game_points, pab.boards) == (
        RoundKind.PAB,
        1,
        2,
        (1, 1),
    )


def test_esb_products() -> None:
    # EMGSB, team 1: 3 x 1½ (vs 2) + 3 x ½ (vs 3) + 3 x 2 (PAB, capped 3) = 12
    assert _values("EMGSB") == {1: 12, 2: 13, 3: F(23, 2), 4: 9, 5: F(27, 2)}
    # EMMSB, team 2: 4 x 0 + 5 x 1 + 3 x 2 = 11
    assert _values("EMMSB") == {1: 12, 2: 11, 3: 11, 4: 9, 5: 15}
    # EGGSB, team 1: 3½ x 1½ + 3 x ½ + 3 x 2 = 12¾
    assert _values("EGGSB")[1] == F(51, 4)
    # EGMSB, team 3: 3 x 1 (vs 4, GP 3) + 4 x 2 (vs 1, GP 4) + 4½ x 0 = 11
    assert _values("EGMSB")[3] == 11


def test_esb_cut_drops_the_lowest_opponent_not_the_lowest_product() -> None:
    """C.07 14.1.2: team 2's products are 4 x 0, 5 x 1 and 3 x 2: the opponent with
    the lowest score (team 4, 3 MP) goes although its product (6) is the highest;
    team 1 meets three opponents of 3 MP: the lowest product (0) goes."""
    cut = _values("EMMSB/C1")
    assert cut[2] == 5
    assert cut[1] == 12


def test_wins_count_rounds_with_a_wins_match_points() -> None:
    """WIN (C.07 7.1): the PAB worth 2 counts, played or not."""
    assert _values("WIN") == {1: 2, 2: 1, 3: 1, 4: 1, 5: 2}
    worth_a_draw = event(3, 2, [[(1, 2, "11")]], pabs=[3], pab_match_points=F(1))
    assert _values("WIN", worth_a_draw) == {1: 1, 2: 0, 3: 0}


def test_progressive_scores() -> None:
    # team 1: 2 + 2 + 4 = 8; team 5: 2 + 3 + 5 = 10
    assert _values("PS") == {1: 8, 2: 4, 3: 7, 4: 7, 5: 10}


def test_board_count_lower_is_better() -> None:
    """BC (C.07 12.1): team 1 scores 1 x 1 + 2 x ½ (R1), 1 x ½ (R2), 1 + 2 (PAB, every
    board won) = 5½; the lower count ranks first."""
    assert _values("BC") == {1: F(11, 2), 2: 6, 3: 5, 4: F(9, 2), 5: 6}
    ctx = TeamContext(EVENT_A)
    assert parse_team_tiebreak("BC").order(ctx, [2, 3, 4]) == [[4], [3], [2]]


def test_buchholz_with_the_capped_virtual_opponent() -> None:
    """Team 1's PAB: its own 4 MP capped at 1 x 3 rounds = 3; team 5's own 5 MP too."""
    assert _values("BH:MP") == {1: 9, 2: 12, 3: 12, 4: 9, 5: 9}
    assert _values("BH:MP/C1") == {1: 6, 2: 9, 3: 9, 4: 6, 5: 6}
    # team 1: 3½ (team 2) + 3 (team 3) + min(4, 3) = 9½
    assert _values("BH:GP") == {1: F(19, 2), 2: F(23, 2), 3: F(23, 2), 4: F(19, 2), 5: F(19, 2)}
    assert _values("BH:GP/C1")[2] == F(17, 2)  # 4 + 4½ + 3: the 3 goes


def test_fore_buchholz_draws_the_last_round() -> None:
    """FB:MP (C.07 8.3): round 3 counted as drawn: team 2 (won) 2, team 3 (lost) 4,
    team 4 (lost) 4, team 5 (won) 4; team 1's PAB round is not a match: 4."""
    assert _values("FB:MP") == {1: 9, 2: 12, 3: 12, 4: 9, 5: 9}
    # team 1: 2 (team 2) + 4 (team 3) + min(4, 3) = 9; team 4: 4 + 3 + 2 = 9


def test_score_strength_combination() -> None:
    """SSSC (C.07 13.4): GP + BH:MP / floor(2 x 3 / 2) = GP + BH:MP / 3."""
    assert _values("SSSC") == {1: 7, 2: F(15, 2), 3: 7, 4: 6, 5: F(15, 2)}


def test_sssc_rounds_to_hundredths() -> None:
    """Two boards, two rounds, 3/1/0: the divisor is floor(3 x 2 / 2) = 3. Team 2 lost
    ½-1½ and drew 1-1: GP 1½; it met team 1 (4 MP) twice: BH:MP 8. SSSC = 1½ + 8 / 3
    = 4.1666... -> 4.17."""
    ev = event(2, 2, [[(1, 2, "1=")], [(2, 1, "==")]], win=3)
    assert _values("SSSC", ev)[2] == F(417, 100)


def test_top_board_and_bottom_board_places() -> None:
    """Teams 2, 3, 4 share 3 MP. Board totals: 2 (1, 2½), 3 (1, 2), 4 (1½, 1½).
    TBR: 4 on board 1, then 2 before 3 on board 2. BBE with two boards compares board
    1 alone: 4, then 2 and 3 tied. Teams alone on their match points: 0."""
    assert _values("TBR") == {1: 0, 2: 2, 3: 3, 4: 1, 5: 0}
    assert _values("BBE") == {1: 0, 2: 2, 3: 2, 4: 1, 5: 0}


def test_direct_encounter_swiss_teams_that_did_not_all_meet() -> None:
    """2, 3, 4 tied: 2 beat 4, 3 drew 4, 2 and 3 never met. Mini-table 2, 1, 1; team 3
    could still reach 1 + 2 = 3 > 2 (C.07 6.3), so nobody is placed."""
    assert _values("DE") == {t: 0 for t in range(1, 6)}
    assert _values("EDE") == {t: 0 for t in range(1, 6)}


def test_direct_encounter_places_a_team_nobody_can_catch() -> None:
    """1, 2, 3 on 4 MP; 1 beat 2 and 3, who did not meet: 1 has 4 in the mini-table, 2
    and 3 could reach at most 0 + 2: 1 is first, 2 and 3 stay tied (second)."""
    ev = event(
        6,
        2,
        [
            [(1, 2, "11"), (3, 4, "11"), (5, 6, "11")],
            [(1, 3, "11"), (2, 6, "11"), (4, 5, "00")],
            [(1, 5, "00"), (2, 4, "11"), (3, 6, "11")],
        ],
    )
    assert _values("MPTS", ev) == {1: 4, 2: 4, 3: 4, 4: 0, 5: 6, 6: 0}
    assert _values("DE", ev) == {1: 1, 2: 2, 3: 2, 4: 0, 5: 0, 6: 0}


RR_CYCLE = event(
    4,
    2,
    [
        [(1, 2, "11"), (3, 4, "1=")],
        [(2, 3, "1="), (4, 1, "00")],
        [(3, 1, "1="), (2, 4, "=1")],
    ],
    system=TeamSystem.ROUND_ROBIN,
)
"""1 beat 2 2-0, 2 beat 3 1½-½, 3 beat 1 1½-½; all beat 4: 1, 2, 3 on 4 MP."""


def test_ede_goes_on_to_game_points() -> None:
    """DE: 2 MP each in the mini-table, tied. EDE then compares their game points
    against each other: 1 has 2 + ½ = 2½, 3 has ½ + 1½ = 2, 2 has 0 + 1½ = 1½."""
    assert _values("DE", RR_CYCLE) == {1: 0, 2: 0, 3: 0, 4: 0}
    assert _values("EDE", RR_CYCLE) == {1: 1, 2: 3, 3: 2, 4: 0}


def test_koya_counts_teams_with_half_the_possible_points() -> None:
    """Possible 2 x 3 = 6, half 3: teams 1, 2, 3 (4 MP) count, 4 (0) does not."""
    assert _values("KS:MP", RR_CYCLE) == {1: 2, 2: 2, 3: 2, 4: 0}


def test_koya_in_an_odd_round_robin_counts_the_matches_played() -> None:
    """Three teams, three rounds, each idle once: two matches each, so the possible
    points are 2 x 2 = 4 and the threshold 2 (not 2 x 3 / 2 = 3). 1 beat 2, 2 beat
    3, 3 drew 1: MP 3, 2, 1. Team 1 scored 2 against team 2, which reaches 2."""
    ev = event(
        3,
        2,
        [[(1, 2, "11")], [(2, 3, "11")], [(3, 1, "==")]],
        system=TeamSystem.ROUND_ROBIN,
    )
    assert _values("MPTS", ev) == {1: 3, 2: 2, 3: 1}
    assert _values("KS:MP", ev) == {1: 2, 2: 0, 3: 1}


EDE_PAIR = event(
    4,
    4,
    [
        [(1, 2, "1001"), (3, 4, "1111")],
        [(1, 3, "1111"), (2, 4, "11=0")],
        [(1, 4, "11=="), (2, 3, "1110")],
    ],
    system=TeamSystem.ROUND_ROBIN,
)
"""Teams 1 and 2 on 5 MP drew 2-2: team 1 won boards 1 and 4, team 2 boards 2 and 3."""


def test_ede_tail_on_the_match_of_the_last_two() -> None:
    """C.07 13.3.2 (2026) on the 2-2 match: TBR looks at board 1 (team 1 won it); BBE
    drops board 4 first: 1 against 2, team 2 ahead. Board Count: 1 x 1 + 4 x 1 = 5
    against 2 x 1 + 3 x 1 = 5, equal: EDEC leaves them tied, EDEBT goes on to TBR and
    EDEBB to BBE."""
    assert _values("MPTS", EDE_PAIR) == {1: 5, 2: 5, 3: 2, 4: 0}
    assert _values("EDE", EDE_PAIR) == {1: 0, 2: 0, 3: 0, 4: 0}
    assert _values("EDET", EDE_PAIR) == {1: 1, 2: 2, 3: 0, 4: 0}
    assert _values("EDEB", EDE_PAIR) == {1: 2, 2: 1, 3: 0, 4: 0}
    assert _values("EDEC", EDE_PAIR) == {1: 0, 2: 0, 3: 0, 4: 0}
    assert _values("EDEBT", EDE_PAIR) == {1: 1, 2: 2, 3: 0, 4: 0}
    assert _values("EDEBB", EDE_PAIR) == {1: 2, 2: 1, 3: 0, 4: 0}


def test_edec_ranks_the_lower_board_count_first() -> None:
    """A 2-2 match where team 1 won boards 1 and 2 (count 1 + 2 = 3) and team 2 boards
    3 and 4 (3 + 4 = 7): C.07 12.1 puts the lower count, team 1, first."""
    ev = event(
        4,
        4,
        [
            [(1, 2, "1100"), (3, 4, "1111")],
            [(1, 3, "1111"), (2, 4, "11=0")],
            [(1, 4, "11=="), (2, 3, "1110")],
        ],
        system=TeamSystem.ROUND_ROBIN,
    )
    assert _values("EDEC", ev) == {1: 1, 2: 2, 3: 0, 4: 0}


def test_ranking_applies_the_list_in_order_and_shares_ranks() -> None:
    """PTS: 5 (5), 1 (4), then 2, 3, 4 (3). BH:MP splits 2 and 3 (12) from 4 (9); BC
    puts 3 (5) before 2 (6)."""
    standings = rank_teams(EVENT_A, ["PTS", "BH:MP", "BC"])
    assert [(s.rank, s.team) for s in standings] == [(1, 5), (2, 1), (3, 3), (4, 2), (5, 4)]
    assert standings[2].values == {"PTS": 3, "BH:MP": 12, "BC": 5}
    shared = rank_teams(EVENT_A, ["PTS"])
    assert [(s.rank, s.team) for s in shared] == [(1, 5), (2, 1), (3, 2), (3, 3), (3, 4)]


def test_ranking_with_a_group_code() -> None:
    standings = rank_teams(RR_CYCLE, ["PTS", "EDE"])
    assert [(s.rank, s.team) for s in standings] == [(1, 1), (2, 3), (3, 2), (4, 4)]


@pytest.mark.parametrize("code", ["BH", "SB", "EMSB", "BH:XP", "EMMSB/C9", "TBR/C1"])
def test_unknown_codes_are_refused(code: str) -> None:
    with pytest.raises(UnknownTieBreakError, match="unknown tie-break code"):
        parse_team_tiebreak(code)


def test_buchholz_is_refused_for_a_round_robin() -> None:
    with pytest.raises(TieBreakError, match="not used in a round-robin"):
        parse_team_tiebreak("BH:MP", TeamSystem.ROUND_ROBIN)


def test_codes_are_read_in_either_spelling() -> None:
    assert parse_team_tiebreak("bh:mp-c1").code == "BH:MP/C1"
    assert parse_team_tiebreak("EGGSB/C1").code == "EGGSB/C1"


def test_sssc_rounds_a_tie_half_up() -> None:
    """3/1/0, four boards, eleven rounds: the divisor is floor(3 x 11 / 4) = 8. Two teams
    draw 2-2 eleven times: 11 MP each, GP 22, BH:MP 11 x 11 = 121. SSSC = 22 + 121 / 8
    = 37.125 -> 37.13 (docs/rules/teams.md#readings-taken)."""
    ev = event(2, 4, [[(1, 2, "1100")]] * 11, win=3)
    assert _values("SSSC", ev) == {1: F(3713, 100), 2: F(3713, 100)}
