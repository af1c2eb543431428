"""Direct Encounter, C.07 art. 6: full mini-tables, subsets, Swiss partial meetings."""

from __future__ import annotations

from fractions import Fraction

from service.engine.scoring.standings import compute_standings
from service.engine.scoring.tiebreaks.context import build_context
from service.engine.scoring.tiebreaks.direct_encounter import DirectEncounter
from tests.engine.scoring.builders import event


def _order(tournament, group, **kwargs):
    ctx = build_context(tournament, round_robin=kwargs.pop("round_robin", None))
    return DirectEncounter(**kwargs).order(ctx, group)


def test_all_met_orders_by_mini_table_and_reapplies_to_subsets() -> None:
    # Mini-table: 1 scores 2, 2 and 3 1.5 each (2 beat 3), 4 scores 1.
    games = event(
        4,
        "1-2 =, 3-4 1-0",
        "1-3 =, 2-4 0-1",
        "1-4 1-0, 2-3 1-0",
    )
    order = _order(games, [1, 2, 3, 4])
    assert order.values == {1: 2, 2: Fraction(3, 2), 3: Fraction(3, 2), 4: 1}
    assert order.subgroups == [[1], [2], [3], [4]]


def test_a_cycle_stays_tied() -> None:
    games = event(3, "1-2 1-0", "2-3 1-0", "3-1 1-0")
    order = _order(games, [1, 2, 3])
    assert order.subgroups == [[1, 2, 3]]
    standings = compute_standings(games, ("DE",))
    assert {row.rank for row in standings.rows} == {1}


def test_swiss_partial_meetings_rank_only_the_unreachable() -> None:
    # 1 beat 2 and 3; 2 and 3 never met: nobody can catch 1's two points.
    games = event(5, "1-2 1-0, 3-4 =", "3-1 0-1, 2-5 1-0", total_rounds=9)
    assert _order(games, [1, 2, 3]).subgroups == [[1], [2, 3]]
    # 1 beat 2, but 3 met nobody in the group and could still reach 2 points.
    games = event(5, "1-2 1-0, 3-4 =", "1-5 =, 2-3 *", total_rounds=9)
    assert _order(games, [1, 2, 3]).subgroups == [[1, 2, 3]]


def test_repeated_meetings_are_averaged() -> None:
    games = event(2, "1-2 1-0", "2-1 =", total_rounds=6)
    order = _order(games, [1, 2])
    assert order.values == {1: Fraction(3, 4), 2: Fraction(1, 4)}
    assert order.subgroups == [[1], [2]]


def test_forfeits_count_only_with_p_or_in_round_robins() -> None:
    games = event(3, "1-2 +-", "1-3 =, 2:U", total_rounds=7)
    assert _order(games, [1, 2]).subgroups == [[1, 2]]
    assert _order(games, [1, 2], count_forfeits=True).subgroups == [[1], [2]]
    assert _order(games, [1, 2], round_robin=True).subgroups == [[1], [2]]


def test_de_only_separates_players_tied_so_far() -> None:
    # 1 and 3 have 2 points (1 beat 3), 2 and 4 one (4 beat 2); 2 beat 1, but DE
    # never overturns points.
    games = event(4, "1-2 0-1, 3-4 1-0", "1-3 1-0, 2-4 0-1", "1-4 1-0, 2-3 0-1")
    rows = compute_standings(games, ("DE",)).rows
    assert [r.start_number for r in rows] == [1, 3, 4, 2]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    explained = compute_standings(games, ("DE",), explain=1).explanation
    assert explained is not None
    assert explained.tiebreaks[0].note.startswith("mini-table of 2 tied")
    alone = compute_standings(event(3, "1-2 1-0", total_rounds=4), ("DE",), explain=1)
    assert alone.explanation is not None
    assert "not tied" in alone.explanation.tiebreaks[0].note


def test_a_long_chain_is_peeled_without_recursion_limits() -> None:
    # Round 1: 1-2, 3-4, ...; round 2: 2-3, 4-5, ...; the lower number wins every game.
    # Everyone but the last scores one point, and DE (art. 6.2, applied again to the
    # remaining tied players) peels that group one participant at a time: deeper than
    # Python's default recursion limit.
    players = 1_501
    first = ", ".join(f"{n}-{n + 1} 1-0" for n in range(1, players, 2))
    second = ", ".join(f"{n}-{n + 1} 1-0" for n in range(2, players, 2))
    tied = list(range(1, players))
    order = _order(event(players, first, second), tied, round_robin=True)
    assert order.subgroups == [[n] for n in tied]
