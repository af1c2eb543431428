"""Prize sharing with worked numbers (docs/rules/prizes.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction as F

import pytest

from service.engine.model import Player
from service.engine.prizes import (
    Category,
    Missing,
    PrizeRules,
    Standing,
    award_prizes,
    cents,
)
from service.engine.prizes.rules import OnePrize, Ties


def _table(points: Sequence[float], ranks: Sequence[int] | None = None) -> list[Standing]:
    """Start numbers 1.. in standings order; ranks 1.. unless given."""
    ranks = ranks or list(range(1, len(points) + 1))
    return [Standing(n, r, F(p)) for n, (p, r) in enumerate(zip(points, ranks, strict=True), 1)]


def _players(n: int, **facts: Mapping[int, object]) -> dict[int, Player]:
    out = {}
    for number in range(1, n + 1):
        given = {key: values[number] for key, values in facts.items() if number in values}
        out[number] = Player(number, f"P{number}", **given)  # type: ignore[arg-type]
    return out


def _paid(
    places: Sequence[int],
    points: Sequence[float],
    ties: Ties,
    ranks: Sequence[int] | None = None,
) -> dict[int, F]:
    rules = PrizeRules(places=tuple(F(a) for a in places), ties=ties)
    outcome = award_prizes(rules, _table(points, ranks), _players(len(points)), 2026)
    return {a.player: a.amount for a in outcome.awards}


# 1st 1000; three players tied on 6 points for 2nd-4th (prizes 500/250/100); 5th empty.
THREE_TIED = [7, 6, 6, 6, 5]
PLACES = [1000, 500, 250, 100]


def test_split_pools_the_tied_places_equally() -> None:
    # (500 + 250 + 100) / 3 = 850/3 = 283.33 each
    assert _paid(PLACES, THREE_TIED, "split") == {1: 1000, 2: F(850, 3), 3: F(850, 3), 4: F(850, 3)}


def test_hort_keeps_half_of_the_own_place_and_pools_the_other_halves() -> None:
    # pot = (250 + 125 + 50) = 425, 425/3 each; 2nd: 250 + 425/3 = 1175/3 (391.67),
    # 3rd: 125 + 425/3 = 800/3 (266.67), 4th: 50 + 425/3 = 575/3 (191.67)
    paid = _paid(PLACES, THREE_TIED, "hort")
    assert paid == {1: 1000, 2: F(1175, 3), 3: F(800, 3), 4: F(575, 3)}
    assert [cents(paid[n]) for n in (2, 3, 4)] == [
        Decimal("391.66"),
        Decimal("266.66"),
        Decimal("191.66"),
    ]
    assert sum(paid.values()) == 1850


def test_tiebreak_keeps_the_order() -> None:
    assert _paid(PLACES, THREE_TIED, "tiebreak") == {1: 1000, 2: 500, 3: 250, 4: 100}


def test_hort_the_public_example() -> None:
    # the Hort system's usual example: prizes 1000/500/350/200/150/100, A and B on 8,
    # C alone on 7.5, D, E, F on 7: 875, 625, 350, 175, 150, 125
    paid = _paid([1000, 500, 350, 200, 150, 100], [8, 8, 7.5, 7, 7, 7], "hort")
    assert paid == {1: 875, 2: 625, 3: 350, 4: 175, 5: 150, 6: 125}


def test_a_tie_running_past_the_last_prize_takes_in_every_tied_player() -> None:
    # four tied for 2nd-5th, no 5th prize: split 850/4; Hort: the 5th keeps half of 0
    points = [7, 6, 6, 6, 6]
    assert _paid(PLACES, points, "split") == {1: 1000, **dict.fromkeys((2, 3, 4, 5), F(425, 2))}
    assert _paid(PLACES, points, "hort") == {
        1: 1000,
        2: F(1425, 4),  # 250 + 106.25
        3: F(925, 4),
        4: F(625, 4),
        5: F(425, 4),
    }


def test_tiebreak_divides_only_a_rank_every_criterion_shares() -> None:
    # 2nd and 3rd tie on every criterion (rank 2 twice): (500 + 250) / 2 each
    paid = _paid([1000, 500, 250], [7, 6, 6, 5], "tiebreak", ranks=[1, 2, 2, 4])
    assert paid == {1: 1000, 2: 375, 3: 375}


def test_hort_shared_rank_uses_the_mean_own_place() -> None:
    # ranks 2, 2, 4 on 6 points: own places 375, 375, 100; pot 425
    paid = _paid(PLACES, THREE_TIED, "hort", ranks=[1, 2, 2, 4, 5])
    assert paid == {1: 1000, 2: F(375, 2) + F(425, 3), 3: F(375, 2) + F(425, 3), 4: F(575, 3)}


def _classes(one_prize: OnePrize) -> dict[int, tuple[str, F]]:
    rules = PrizeRules(
        places=(F(1000), F(500), F(250)),
        categories=(Category("U1800", (F(300),), max_rating=1799),),
        ties="split",
        one_prize=one_prize,
    )
    ratings = {1: 2400, 2: 2300, 3: 1700, 4: 2000, 5: 1600}
    outcome = award_prizes(rules, _table([7, 6, 5, 4, 3]), _players(5, rating=ratings), 2026)
    return {a.player: (a.prize, a.amount) for a in outcome.awards}


def test_one_prize_highest_gives_the_higher_prize_and_passes_the_place_down() -> None:
    # 3rd (1700) takes U1800's 300 over the 3rd place's 250, which goes to the 4th
    assert _classes("highest") == {
        1: ("open", 1000),
        2: ("open", 500),
        3: ("U1800", 300),
        4: ("open", 250),
    }


def test_one_prize_place_first_gives_the_place_and_passes_the_category_down() -> None:
    assert _classes("place-first") == {
        1: ("open", 1000),
        2: ("open", 500),
        3: ("open", 250),
        5: ("U1800", 300),
    }


def test_missing_sex_is_reported_and_not_guessed() -> None:
    rules = PrizeRules(places=(F(100),), categories=(Category("women", (F(50),), sex="w"),))
    sexes = {1: "m", 3: "w"}  # 2 has no sex recorded
    outcome = award_prizes(rules, _table([3, 2, 1]), _players(3, sex=sexes), 2026)
    assert {(a.prize, a.player) for a in outcome.awards} == {("open", 1), ("women", 3)}
    assert outcome.missing == (Missing(2, "women", "sex"),)


def test_age_by_birth_year_and_missing_birth_year() -> None:
    # U18 in 2026: born 2008 or later (age 18 reached in the year at most)
    rules = PrizeRules(categories=(Category("U18", (F(100), F(50)), max_age=18),))
    born = {1: 2007, 2: 2008, 4: 2012}  # 3 has no birth year
    outcome = award_prizes(rules, _table([4, 3, 2, 1]), _players(4, birth_year=born), 2026)
    assert [(a.player, a.amount) for a in outcome.awards] == [(2, 100), (4, 50)]
    assert outcome.missing == (Missing(3, "U18", "birth_year"),)
    unknown_year = award_prizes(rules, _table([4, 3, 2, 1]), _players(4, birth_year=born), None)
    assert unknown_year.awards == ()
    assert {m.field for m in unknown_year.missing} == {"year"}


def test_unrated_category_and_rating_classes_leave_unrated_players_out() -> None:
    rules = PrizeRules(
        categories=(
            Category("unrated", (F(40),), unrated=True),
            Category("U1800", (F(60),), max_rating=1799),
        )
    )
    ratings = {1: 0, 2: 1500}
    outcome = award_prizes(rules, _table([2, 1]), _players(2, rating=ratings), 2026)
    assert {(a.prize, a.player) for a in outcome.awards} == {("unrated", 1), ("U1800", 2)}


def test_ties_inside_a_category_share_its_prizes() -> None:
    # women 200/100; the two best women tie on points: Hort 150 + 75 = ... split 150 each
    rules = PrizeRules(categories=(Category("women", (F(200), F(100)), sex="w"),), ties="hort")
    sexes = {1: "m", 2: "w", 3: "w"}
    outcome = award_prizes(rules, _table([6, 5, 5]), _players(3, sex=sexes), 2026)
    # own halves 100 and 50, pot 150: 100 + 75 = 175, 50 + 75 = 125
    assert [(a.player, a.amount, a.places) for a in outcome.awards] == [
        (2, 175, (1, 2)),
        (3, 125, (1, 2)),
    ]


@pytest.mark.parametrize("ties", ["hort", "split", "tiebreak"])
@pytest.mark.parametrize("one_prize", ["highest", "place-first"])
def test_the_prizes_handed_out_add_up_to_those_announced(ties: Ties, one_prize: OnePrize) -> None:
    rules = PrizeRules(
        places=(F(1000), F(500), F(250), F(100)),
        categories=(
            Category("women", (F(200), F(75)), sex="w"),
            Category("U1800", (F(150),), max_rating=1799),
        ),
        ties=ties,
        one_prize=one_prize,
    )
    points = [7, 6, 6, 6, 5, 5, 4, 4, 4, 3]
    sexes = {n: ("w" if n % 3 == 0 else "m") for n in range(1, 11)}
    ratings = {n: 2500 - 100 * n for n in range(1, 11)}
    outcome = award_prizes(rules, _table(points), _players(10, sex=sexes, rating=ratings), 2026)
    assert sum(a.amount for a in outcome.awards) == 1000 + 500 + 250 + 100 + 200 + 75 + 150
    winners = [a.player for a in outcome.awards]
    assert len(winners) == len(set(winners))  # one prize per player


def test_cents_round_down() -> None:
    assert cents(F(850, 3)) == Decimal("283.33")
    assert cents(F(2, 3)) == Decimal("0.66")
    assert cents(F(1000)) == Decimal("1000.00")
