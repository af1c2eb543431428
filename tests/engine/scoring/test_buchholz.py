"""BH, FB, AOB and SB with unplayed rounds (C.07 art. 8, 9, 14, 16; 2024 and 2026)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.engine.scoring.standings import compute_standings
from service.engine.scoring.tiebreaks.context import build_context
from service.engine.scoring.tiebreaks.unplayed import category, score_view
from tests.engine.scoring.builders import event
from tests.engine.scoring.test_own_results import SWISS

F = Fraction


def _values(tournament, code, **kwargs) -> dict[int, Fraction | None]:
    standings = compute_standings(tournament, (code,), **kwargs)
    (key,) = standings.tiebreaks
    return {row.start_number: row.tiebreaks[key] for row in standings.rows}


def test_art_16_categories() -> None:
    ctx = build_context(SWISS)
    assert [category(ctx.players[5].entries, i) for i in range(4)] == [
        "16.2.2",  # forfeit win
        "",  # played
        "16.2.5",  # absent, followed only by a forfeit loss
        "16.2.4",  # forfeit loss
    ]
    assert [category(ctx.players[6].entries, i) for i in range(4)] == [
        "16.2.4",
        "16.2.3",  # half-point bye before a played round
        "",
        "16.2.4",
    ]
    assert category(ctx.players[3].entries, 1) == "16.2.1"  # pairing-allocated bye


def test_adjusted_scores_count_the_final_absence_as_a_draw() -> None:
    view = score_view(build_context(SWISS))
    assert view.own[5] == 2  # units of 1/2: one point
    assert view.adjusted[5] == 3  # the round-3 absence counts as a draw
    assert view.adjusted[6] == view.own[6] == 1  # the half bye is not at the end


BH_2026 = {1: 6, 2: F(17, 2), 3: F(25, 2), 4: F(13, 2), 5: F(11, 2), 6: F(5, 2)}
BH_2024 = {1: 6, 2: F(17, 2), 3: F(25, 2), 4: F(21, 2), 5: F(13, 2), 6: F(5, 2)}


@pytest.mark.parametrize(("edition", "expected"), [("2026", BH_2026), ("2024", BH_2024)])
def test_buchholz_with_the_dummy_opponent(edition: str, expected: dict[int, Fraction]) -> None:
    # 2026 caps the dummy: player 4's full-point bye at draw x rounds = 2 (own 3.5),
    # the forfeit win at the scheduled opponent's adjusted score 1.
    assert _values(SWISS, "BH", edition=edition) == expected


def test_cut_one_removes_a_voluntary_unplayed_round_first() -> None:
    # Player 5: r1 forfeit win (dummy 0.5), r2 vs 4 (3.5), r3 absent (dummy 1, VUR),
    # r4 double forfeit (dummy 0.5, VUR). The VUR on 0.5 goes.
    assert _values(SWISS, "BH-C1")[5] == 5
    # 2024: every dummy is 1; the lowest is round 1 (not a VUR) but a VUR goes first.
    assert _values(SWISS, "BH-C1", edition="2024")[5] == F(11, 2)
    # Median-1: the VUR on 0.5 and the best opponent (3.5) go.
    assert _values(SWISS, "BH-M1")[5] == F(3, 2)
    # Cut-2: both VURs go (the second time the VUR on 1 beats round 1's 0.5).
    assert _values(SWISS, "BH-C2")[5] == 4
    assert _values(SWISS, "BH-M2")[5] == 0  # four values, four cut


def test_sonneborn_berger_with_byes() -> None:
    assert _values(SWISS, "SB")[1] == 5
    assert _values(SWISS, "SB")[4] == F(11, 2)  # 1 + 1.5 + 2 (full bye) + 1 (forfeit win)
    assert _values(SWISS, "SB", edition="2024")[4] == F(19, 2)


def test_forfeits_as_games_with_p() -> None:
    # Player 4's round-4 forfeit win counts the scheduled opponent (2, adjusted 1).
    assert _values(SWISS, "BH/P", edition="2024")[4] == 8
    assert _values(SWISS, "BH/P")[4] == F(13, 2)


def test_fore_buchholz_counts_the_last_round_as_draws() -> None:
    values = _values(SWISS, "FB")
    assert values[1] == 8  # 1.5 + 1.5 + 2.5 + 2.5
    assert values[5] == F(13, 2)  # dummy 1 + 3 + dummy 1.5 + 1


def test_fore_buchholz_takes_pending_games_as_draws() -> None:
    finished = event(4, "1-2 1-0, 3-4 =", "1-3 =, 2-4 =", total_rounds=2)
    pending = event(4, "1-2 1-0, 3-4 =", "1-3 *, 2-4 *", total_rounds=2)
    assert _values(pending, "FB") == _values(finished, "FB")
    # FB of 1: opponents 2 (0 + 0.5) and 3 (0.5 + 0.5).
    assert _values(pending, "FB")[1] == F(3, 2)


def test_average_of_opponents_buchholz() -> None:
    values = _values(SWISS, "AOB")
    assert values[1] == F(21, 2)  # mean of 8.5, 8.5, 12.5, 12.5
    assert values[5] == F(13, 2)  # one game over the board, against 4
    assert _values(SWISS, "AOB/F")[5] == _values(SWISS, "FB")[4]


def test_round_robin_forfeits_count_and_free_rounds_do_not() -> None:
    # Five players, a single round-robin (5 rounds), one forfeit.
    rr = event(
        5,
        "2-5 1-0, 3-4 =, 1:Z",
        "1-2 =, 3-5 +-, 4:Z",
        "1-3 1-0, 4-5 =, 2:Z",
        "4-1 0-1, 2-3 =, 5:Z",
        "5-1 0-1, 2-4 1-0, 3:Z",
    )
    bh = _values(rr, "BH")
    scores = {r.start_number: r.points for r in compute_standings(rr, ()).rows}
    total = sum(scores.values())
    for player in range(1, 6):
        # Everybody met everybody else once: BH = all scores - own score.
        assert bh[player] == total - scores[player]
    # Player 3's forfeit win over 5 counts 5's real score in SB.
    assert _values(rr, "SB")[3] == scores[4] / 2 + scores[5] + scores[2] / 2 == F(5, 2)


def test_explain_buchholz_marks_the_cut_value() -> None:
    standings = compute_standings(SWISS, ("BH-C1",), explain=5)
    assert standings.explanation is not None
    bh = standings.explanation.tiebreaks[0]
    assert bh.value == 5
    removed = [c for c in bh.contributions if not c.counted]
    assert [(c.round, c.value) for c in removed] == [(4, F(1, 2))]
    assert "dummy" in removed[0].note
    assert "16.2.4" in removed[0].note  # a forfeit loss
    assert sum(c.value for c in bh.contributions if c.counted) == 5
