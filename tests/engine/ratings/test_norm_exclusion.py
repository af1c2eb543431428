"""B.01 (2024) 1.4.1f: a player may ignore the results against opponents they beat,
provided the games kept still number the minimum and meet every other condition;
worked by hand."""

from __future__ import annotations

from service.engine.ratings.norm_exclusion import exclude_beaten
from service.engine.ratings.norms import NormCheck, NormEvent, NormOpponent, check_norm

FEDS = ["GER", "FRA", "ESP", "ITA", "NED", "POL", "HUN", "SWE", "NOR", "DEN", "BEL"]


def _strong(titles: list[str | None]) -> list[NormOpponent]:
    """Opponents of 2390 from distinct federations: wins against the first five,
    draws after."""
    return [NormOpponent(2390, title, FEDS[n], 2 if n < 5 else 1) for n, title in enumerate(titles)]


def _values(check: NormCheck) -> dict[str, tuple[object, bool | None]]:
    return {c.name: (c.value, c.met) for c in check.conditions}


NINE = ["GM", "GM", "GM", "GM", "IM", "IM", None, None, None]


def test_two_wins_against_the_weakest_are_left_out() -> None:
    """Nine 2390s (4 GMs, 2 IMs; 5 wins, 4 draws) and wins against a 1900 and a 2100.
    Over 11 games: the 1900 raised to the GM floor 2200, Ra = (9 x 2390 + 2200 + 2100)
    / 11 = 25810 / 11 = 2346.4 -> 2346 < 2380 (1.4.8a), though 9/11 = 82 % (dp 262)
    gives Rp 2608. Leaving out one win keeps the other weak opponent, raised to 2200:
    Ra = (21510 + 2200) / 10 = 2371 < 2380. Leaving out both (1.4.1f: 9 games kept):
    Ra 2390, 7/9 = 78 % (dp 220), Rp 2610 >= 2600; 6 titled >= 4.5, 4 GMs >= 3."""
    opponents = [*_strong(NINE), NormOpponent(1900, None, "SUI", 2)]
    opponents.append(NormOpponent(2100, None, "AUT", 2))
    full = check_norm("GM", "ENG", opponents)
    assert full.met is False
    assert _values(full)["average_rating"] == (2346, False)
    assert _values(full)["performance"] == (2608, True)
    made = exclude_beaten(full, "ENG", opponents, event=NormEvent(), credited=0)
    assert made is not None
    again, left_out = made
    assert left_out == (9, 10)
    assert again.met is True
    values = _values(again)
    assert values["games"] == (9, True)
    assert values["average_rating"] == (2390, True)
    assert values["score_percent"] == (78, True)
    assert values["performance"] == (2610, True)
    assert values["GM_opponents"] == (4, True)


def test_the_minimum_games_stop_the_leaving_out() -> None:
    """The same with eight 2390s (4 GMs, 2 IMs): 10 games, so one may go (1.4.1a: 9
    kept). Over 10: Ra = (8 x 2390 + 2200 + 2100) / 10 = 2342; leaving out either weak
    win keeps the other at 2200: (19120 + 2200) / 9 = 2368.9 -> 2369 < 2380. Leaving out
    both would keep 8 games: not allowed, the norm is missed."""
    opponents = [*_strong(NINE[:8]), NormOpponent(1900, None, "SUI", 2)]
    opponents.append(NormOpponent(2100, None, "AUT", 2))
    full = check_norm("GM", "ENG", opponents)
    assert _values(full)["average_rating"] == (2342, False)
    assert exclude_beaten(full, "ENG", opponents, event=NormEvent(), credited=0) is None


def test_the_title_holders_stop_the_leaving_out() -> None:
    """Nine 2390s with 2 GMs, and wins against two GMs of 2150 and 2100: 4 GMs of 11
    (>= 3.67). Ra = (21510 + 2150 + 2200) / 11 = 2350.9 -> 2351 < 2380. Leaving out
    one weak GM keeps the other at 2200 or more: Ra (21510 + 2200) / 10 = 2371 at best;
    leaving out both leaves 2 GMs < 3 (1.4.5b); leaving out a 2390 lowers Ra. Missed."""
    titles = ["GM", "GM", "IM", "IM", "IM", "IM", None, None, None]
    opponents = [*_strong(titles), NormOpponent(2150, "GM", "SUI", 2)]
    opponents.append(NormOpponent(2100, "GM", "AUT", 2))
    full = check_norm("GM", "ENG", opponents)
    assert _values(full)["average_rating"] == (2351, False)
    assert _values(full)["GM_opponents"] == (4, True)
    assert exclude_beaten(full, "ENG", opponents, event=NormEvent(), credited=0) is None


def test_a_higher_win_goes_when_the_weakest_is_needed() -> None:
    """The weakest win is a title-holder the shares need. Eight 2480s (3 GMs, an IM;
    3 wins, 5 draws), a win against a GM of 1950 and one against an untitled 2000: 5.5
    + 2 = 7.5/10. Over 10: Ra = (8 x 2480 + 2200 + 2000) / 10 = 2404, 75 % (dp 193),
    Rp 2597 < 2600. Leaving out the 1950 GM leaves 4 titled of 9 (< 4.5, 1.4.5a);
    leaving out the 2000 instead: Ra = (19840 + 2200) / 9 = 2448.9 -> 2449, 6.5/9 =
    72 % (dp 166), Rp 2615, 5 titled, 4 GMs: the norm, without the 2000."""
    titles = ["GM", "GM", "GM", "IM", None, None, None, None]
    opponents = [
        NormOpponent(2480, title, FEDS[n], 2 if n < 3 else 1) for n, title in enumerate(titles)
    ]
    opponents += [NormOpponent(1950, "GM", "SUI", 2), NormOpponent(2000, None, "AUT", 2)]
    full = check_norm("GM", "ENG", opponents)
    assert _values(full)["performance"] == (2597, False)
    made = exclude_beaten(full, "ENG", opponents, event=NormEvent(), credited=0)
    assert made is not None
    again, left_out = made
    assert left_out == (9,)
    values = _values(again)
    assert (values["titled_opponents"], values["GM_opponents"]) == ((5, True), (4, True))
    assert (values["average_rating"], values["performance"]) == ((2449, True), (2615, True))


def test_a_failing_score_or_a_met_norm_is_not_searched() -> None:
    """Leaving out wins lowers the score: a norm under 35 % (1.4.8b) is not searched,
    nor one already met."""
    opponents = [NormOpponent(2600, "GM", FEDS[n], 2 if n < 3 else 0) for n in range(10)]
    full = check_norm("GM", "ENG", opponents)
    assert _values(full)["score_percent"] == (30, False)
    assert exclude_beaten(full, "ENG", opponents, event=NormEvent(), credited=0) is None
    met = [NormOpponent(2600, "GM", FEDS[n], 1) for n in range(10)]
    check = check_norm("GM", "ENG", met)
    assert check.met is True
    assert exclude_beaten(check, "ENG", met, event=NormEvent(), credited=0) is None
