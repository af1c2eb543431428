"""Norm performance (B.01: unrated opponents at 1400, the adjusted rating floor) and
the norm conditions, worked by hand."""

from __future__ import annotations

from service.engine.ratings.norms import NormOpponent, check_norms
from service.engine.ratings.performance import norm_performance


def test_only_the_lowest_opponent_is_raised_to_the_floor() -> None:
    """Eight 2500s and a 2000 and a 2100 with the GM floor 2200: only the 2000 counts
    as 2200: Ra = (20000 + 2200 + 2100) / 10 = 2430; 5/10 -> dp 0."""
    figures = norm_performance([2500] * 8 + [2000, 2100], 10, 2200)
    assert figures is not None
    assert (figures.average, figures.percent, figures.performance) == (2430, 50, 2430)


def test_an_unrated_opponent_counts_1400_before_the_floor() -> None:
    """Nine opponents, one unrated: 8 x 2450 + 1400 -> the unrated is the lowest and is
    raised to the IM floor 2050: Ra = (19600 + 2050) / 9 = 2405.56 -> 2406; 6.5/9 =
    0.722 -> 0.72, dp 166: Rp = 2572."""
    figures = norm_performance([2450] * 8 + [0], 13, 2050)
    assert figures is not None
    assert (figures.average, figures.percent, figures.performance) == (2406, 72, 2572)


def _gm_field(feds: list[str]) -> list[NormOpponent]:
    titles = ["GM", "GM", "GM", "IM", "IM", "FM", None, None, None]
    return [
        NormOpponent(2480, title, fed, 2 if n < 5 else 1)
        for n, (title, fed) in enumerate(zip(titles, feds, strict=True))
    ]


def test_a_gm_norm_met() -> None:
    """9 games, 6 titled (>= 4.5), 3 GMs (>= 3), four other federations, 2480 average,
    7/9 = 0.78 -> dp 220: Rp 2700 >= 2600."""
    feds = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED", "NED", "NED"]
    gm = check_norms("ENG", _gm_field(feds))[0]
    assert gm.title == "GM"
    assert gm.met is True
    figures = {c.name: c.value for c in gm.conditions}
    assert figures["performance"] == 2700
    assert figures["GM_opponents"] == 3


def test_too_many_of_one_federation() -> None:
    """Seven of nine from the player's own federation: over 3/5 and over 2/3."""
    feds = ["ENG"] * 7 + ["FRA", "ESP"]
    gm = check_norms("ENG", _gm_field(feds))[0]
    verdicts = {c.name: c.met for c in gm.conditions}
    assert gm.met is False
    assert verdicts["own_federation"] is False
    assert verdicts["one_federation"] is False
    assert verdicts["other_federations"] is True


def test_fid_is_no_federation() -> None:
    """Opponents under FID (no federation, B.01 1.4.2a) count as games but not as a
    foreign federation: ENG against 7 FID and 2 FRA has one other federation only."""
    feds = ["FID"] * 7 + ["FRA", "FRA"]
    gm = check_norms("ENG", _gm_field(feds))[0]
    verdicts = {c.name: (c.value, c.met) for c in gm.conditions}
    assert verdicts["other_federations"] == (1, False)
    assert verdicts["one_federation"] == (2, True)


def test_at_least_35_percent() -> None:
    """B.01 1.4.8b: 3/9 = 33 % fails even where the performance would not matter;
    3.5/9 = 38.9 -> 39 % passes."""
    low = [NormOpponent(2700, "GM", "GER", 1)] * 6 + [NormOpponent(2700, "GM", "FRA", 0)] * 3
    score = next(c for c in check_norms("ENG", low)[0].conditions if c.name == "score_percent")
    assert (score.value, score.met) == (33, False)
    enough = [*low[:-1], NormOpponent(2700, "GM", "FRA", 1)]
    score = next(c for c in check_norms("ENG", enough)[0].conditions if c.name == "score_percent")
    assert (score.value, score.met) == (39, True)


def test_unknown_federation_is_missing_not_met() -> None:
    feds = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED", "NED", "NED"]
    gm = check_norms(None, _gm_field(feds))[0]
    assert gm.met is None
    federation = next(c for c in gm.conditions if c.name == "own_federation")
    assert federation.missing == ("federation",)


def test_a_man_is_not_checked_for_the_women_titles() -> None:
    feds = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED", "NED", "NED"]
    assert [n.title for n in check_norms("ENG", _gm_field(feds), sex="m")] == ["GM", "IM"]
    every = ["GM", "IM", "WGM", "WIM"]
    assert [n.title for n in check_norms("ENG", _gm_field(feds), sex="w")] == every
    assert [n.title for n in check_norms("ENG", _gm_field(feds))] == every
