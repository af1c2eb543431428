"""Direct Encounter, C.07 art. 6: full mini-tables, subsets, Swiss partial meetings,
and the order against the article read straight from the games on random events."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import Game, GameResult, Player, Round, Tournament
from service.engine.scoring.standings import compute_standings
from service.engine.scoring.tiebreaks.context import TieBreakContext, build_context
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


# --- against the article itself -----------------------------------------------------

_POINTS = {  # (white, black) points, and whether the game was played over the board
    GameResult.WHITE_WINS: (Fraction(1), Fraction(0), True),
    GameResult.DRAW: (Fraction(1, 2), Fraction(1, 2), True),
    GameResult.BLACK_WINS: (Fraction(0), Fraction(1), True),
    GameResult.WHITE_WINS_FORFEIT: (Fraction(1), Fraction(0), False),
    GameResult.BLACK_WINS_FORFEIT: (Fraction(0), Fraction(1), False),
    GameResult.DOUBLE_FORFEIT: (Fraction(0), Fraction(0), False),
}


def _article_6(
    tournament: Tournament, group: list[int], *, all_count: bool, round_robin: bool
) -> list[list[int]]:
    """C.07 art. 6 read straight from the games, every mini-table computed afresh: the
    tied sub-groups of `group`, best first. `all_count`: forfeits count as encounters
    (DE/P, round-robins)."""
    encounters: dict[tuple[int, int], list[Fraction]] = {}
    for rnd in tournament.rounds:
        for game in rnd.games:
            if game.result is None:
                continue
            white, black, played = _POINTS[game.result]
            if played or all_count:
                encounters.setdefault((game.white, game.black), []).append(white)
                encounters.setdefault((game.black, game.white), []).append(black)

    def split(members: list[int]) -> list[list[int]]:
        if len(members) < 2:
            return [members]
        score = {
            p: sum(
                (sum(found) / len(found) for q in members if (found := encounters.get((p, q), []))),
                Fraction(0),
            )
            for p in members
        }
        met = {p: sum((p, q) in encounters for q in members) for p in members}
        ordered = sorted(members, key=lambda p: (-score[p], p))
        size = len(members)
        if round_robin or all(met[p] == size - 1 for p in members):
            levels = sorted(set(score.values()), reverse=True)
            parts = [[p for p in ordered if score[p] == level] for level in levels]
            if len(parts) == 1:
                return parts
            return [sub for part in parts for sub in split(part)]
        reach = {p: score[p] + size - 1 - met[p] for p in members}  # a win is worth 1
        top: list[list[int]] = []
        remaining = ordered
        while len(remaining) > 1 and all(reach[q] < score[remaining[0]] for q in remaining[1:]):
            top.append([remaining[0]])
            remaining = remaining[1:]
        if 1 < len(remaining) < size:
            return [*top, *split(remaining)]
        return [*top, remaining]

    return split(sorted(group))


@st.composite
def _events(draw: st.DrawFn) -> Tournament:
    """Up to 12 players, up to 8 rounds of random pairings (rematches allowed, so pairs
    meet more than once; some pairs absent, so some never meet), every kind of result,
    some games not finished."""
    players = draw(st.integers(2, 12))
    results = st.sampled_from([None, *_POINTS])
    rounds = []
    for number in range(1, draw(st.integers(1, 8)) + 1):
        seats = draw(st.permutations(range(1, players + 1)))
        games = tuple(
            Game(number, white, black, draw(results))
            for white, black in zip(seats[::2], seats[1::2], strict=False)
            if draw(st.integers(0, 4))  # now and then a pair sits the round out
        )
        rounds.append(Round(number, games))
    field = tuple(Player(n) for n in range(1, players + 1))
    return Tournament(field, tuple(rounds), total_rounds=len(rounds))


@settings(max_examples=300, deadline=None)
@given(_events(), st.booleans(), st.booleans(), st.data())
def test_the_order_is_article_6_computed_afresh_at_every_level(
    tournament: Tournament, forfeits: bool, round_robin: bool, data: st.DataObject
) -> None:
    """The mini-tables of nested groups, narrowed from the parent group's (a leaver's
    games subtracted) or computed afresh, give the order the article gives."""
    numbers = [p.start_number for p in tournament.players]
    group = data.draw(st.lists(st.sampled_from(numbers), min_size=1, unique=True))
    order = _order(tournament, group, round_robin=round_robin, count_forfeits=forfeits)
    expected = _article_6(
        tournament, group, all_count=forfeits or round_robin, round_robin=round_robin
    )
    assert order.subgroups == expected


def test_a_sub_group_counts_only_the_meetings_among_its_members() -> None:
    """2 beat 1 and 3; 1 and 3 drew. Everyone met everyone: ordered by the mini-table
    (2, then 1 and 3 on a half point each); within {1, 3} (art. 6.2) both met the one
    other member and drew: still tied. Counting the meetings with 2 as well would
    make it look as if 1 and 3 had not all met, and rank them by art. 6.3."""
    games = event(3, "1-2 0-1", "2-3 1-0", "3-1 =")
    assert _order(games, [1, 2, 3], round_robin=False).subgroups == [[2], [1, 3]]


def test_a_peeled_chain_is_narrowed_not_recomputed() -> None:
    """A chain of wins peels one participant per level (art. 6.2): each level's
    mini-table is the level before less the leaver's games, so the mini-table is
    computed afresh once, not once per level."""
    players = 61
    first = ", ".join(f"{n}-{n + 1} 1-0" for n in range(1, players, 2))
    second = ", ".join(f"{n}-{n + 1} 1-0" for n in range(2, players, 2))
    computed: list[int] = []

    class Counting(DirectEncounter):
        def _mini_table(self, ctx: TieBreakContext, group: Sequence[int]) -> Any:
            computed.append(len(group))
            return super()._mini_table(ctx, group)

    ctx = build_context(event(players, first, second), round_robin=True)
    order = Counting().order(ctx, list(range(1, players)))
    assert order.subgroups == [[n] for n in range(1, players)]
    assert computed == [players - 1]
