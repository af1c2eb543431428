"""FLAMPARK progress premium PP (Formuła FLAMPARK, "Premia za postęp PP";
docs/rules/flampark.md)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import Colour, Outcome
from service.engine.scoring import progress_premium as pp_module
from service.engine.scoring.flampark import (
    CountedGame,
    FlamparkError,
    FlamparkScore,
    pf_from_rating,
)
from service.engine.scoring.progress_premium import (
    PremiumError,
    apportion,
    premium_factor,
    premium_weights,
    progress_premium,
    progress_premium_from_ru,
)
from tests.data import seed_000


def score_with_ru(player: int, ru: Fraction) -> FlamparkScore:
    """A one-game score whose Ru is exactly ``ru`` (the parts are set directly)."""
    game = CountedGame(1, 0, Colour.WHITE, Outcome.DRAW, 1000)
    pf = pf_from_rating(ru)
    return FlamparkScore(player, (game,), pf, Fraction(0), Fraction(0), Fraction(0))


def test_public_surface() -> None:
    assert set(pp_module.__all__) == {
        "CENT",
        "WB_RANGE",
        "PremiumError",
        "apportion",
        "premium_factor",
        "premium_weights",
        "progress_premium",
        "progress_premium_from_ru",
    }


def test_the_formula_on_a_small_field() -> None:
    """PP = dR (R - wB) wA: gains 100 at 2000 and 50 at 1500 with wB = 1000 weigh
    100000 and 25000, so a pool of 500 splits 400 / 100."""
    ratings = {1: 2000, 2: 1500, 3: 1200}
    scores = {
        1: score_with_ru(1, Fraction(2100)),
        2: score_with_ru(2, Fraction(1550)),
        3: score_with_ru(3, Fraction(1100)),  # lost rating: no premium
    }
    premiums = progress_premium(scores, ratings, pool=Decimal("500"), wb=1000)
    assert premiums == {1: Decimal("400.00"), 2: Decimal("100.00"), 3: Decimal("0.00")}
    weights = premium_weights({n: s.ru for n, s in scores.items()}, ratings, wb=1000)
    assert weights == {1: 100_000, 2: 25_000, 3: 0}
    assert premium_factor(weights, pool=Decimal("500")) == Fraction(1, 250)


def test_fk6_grandmaster_against_the_last_player() -> None:
    """ "80-cio punktowy przyrost rankingu otwierającego listę startową arcymistrza był
    dwukrotnie wyżej wyceniony niż wzrost o 280 punktów gracza ostatniego", with FK6's
    highest and lowest ratings (2443, 1008). At wB = 800 the ratio is 2.26, the text's
    "twice"; at wB = 1000 it would be 55, so FK6's wB sat at the bottom of the range."""
    gains, fk6 = seed_000()["progress_premium"], seed_000()["fk6"]
    top_gain, bottom_gain = gains["top_gain"], gains["bottom_gain"]
    top_rating, bottom_rating = fk6["highest_rating"], fk6["lowest_rating"]
    ratings = {1: top_rating, 56: bottom_rating}
    ru = {1: Fraction(top_rating + top_gain), 56: Fraction(bottom_rating + bottom_gain)}
    weights = premium_weights(ru, ratings, wb=800)
    ratio = weights[1] / weights[56]
    assert round(ratio) == 2
    assert weights[1] > weights[56]
    extreme = premium_weights(ru, ratings, wb=1000)
    assert extreme[1] / extreme[56] > 50


def test_rating_at_or_below_wb_gets_nothing() -> None:
    ratings = {1: 1500, 2: 900, 3: 800}
    ru = {1: Fraction(1600), 2: Fraction(1300), 3: Fraction(1200)}
    weights = premium_weights(ru, ratings, wb=900)
    assert weights == {1: 100 * 600, 2: 0, 3: 0}
    scores = {n: score_with_ru(n, r) for n, r in ru.items()}
    premiums = progress_premium(scores, ratings, pool=Decimal("10.00"), wb=900)
    assert premiums == {1: Decimal("10.00"), 2: Decimal("0.00"), 3: Decimal("0.00")}


def test_nobody_improved_leaves_the_pool_undistributed() -> None:
    ratings = {1: 2000, 2: 1900}
    scores = {1: score_with_ru(1, Fraction(1990)), 2: score_with_ru(2, Fraction(1900))}
    premiums = progress_premium(scores, ratings, pool=Decimal("100"), wb=800)
    assert premiums == {1: Decimal("0.00"), 2: Decimal("0.00")}
    assert premium_factor(premium_weights({}, ratings, wb=800), pool=Decimal(1)) is None


def test_players_without_a_result_get_zero() -> None:
    ratings = {1: 2000, 2: 1900}
    scores = {1: score_with_ru(1, Fraction(2050))}
    premiums = progress_premium(scores, ratings, pool=Decimal("1"), wb=800)
    assert premiums == {1: Decimal("1.00"), 2: Decimal("0.00")}


def test_remainders_go_to_the_largest_then_to_the_lower_start_number() -> None:
    """Three equal weights share 1.00: 0.34 / 0.33 / 0.33, start number 1 first."""
    weights = {3: Fraction(1), 1: Fraction(1), 2: Fraction(1)}
    assert apportion(weights, pool=Decimal("1.00")) == {
        1: Decimal("0.34"),
        2: Decimal("0.33"),
        3: Decimal("0.33"),
    }
    # A larger remainder wins over a lower start number.
    weights = {1: Fraction(1), 2: Fraction(2)}
    assert apportion(weights, pool=Decimal("0.01")) == {1: Decimal("0.00"), 2: Decimal("0.01")}


def test_whole_currency_units() -> None:
    weights = {1: Fraction(1), 2: Fraction(1), 3: Fraction(1)}
    shares = apportion(weights, pool=Decimal("100"), unit=Decimal("1"))
    assert shares == {1: Decimal("34"), 2: Decimal("33"), 3: Decimal("33")}


@pytest.mark.parametrize("wb", [799, 1001, 0, True, 900.0])
def test_wb_out_of_range(wb: int) -> None:
    with pytest.raises(PremiumError) as info:
        progress_premium({}, {1: 2000}, pool=Decimal(10), wb=wb)
    assert info.value.field == "wb"
    assert isinstance(info.value, FlamparkError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("pool", "unit"),
    [
        (Decimal("10.005"), Decimal("0.01")),
        (Decimal("-1"), Decimal("0.01")),
        (Decimal("NaN"), Decimal("0.01")),
        (10.5, Decimal("0.01")),
        (Decimal("10.5"), Decimal("1")),
    ],
)
def test_bad_pool(pool: Decimal, unit: Decimal) -> None:
    with pytest.raises(PremiumError) as info:
        progress_premium({}, {1: 2000}, pool=pool, wb=800, unit=unit)
    assert info.value.field == "pool"


def test_bad_unit_and_ratings() -> None:
    with pytest.raises(PremiumError) as info:
        progress_premium({}, {1: 2000}, pool=Decimal(1), wb=800, unit=Decimal(0))
    assert info.value.field == "unit"
    with pytest.raises(PremiumError) as info:
        progress_premium({}, {1: 0}, pool=Decimal(1), wb=800)
    assert info.value.field == "ratings[1]"
    with pytest.raises(PremiumError):
        progress_premium({2: score_with_ru(2, Fraction(1))}, {1: 2000}, pool=Decimal(1), wb=800)
    with pytest.raises(PremiumError):
        apportion({1: Fraction(-1)}, pool=Decimal(1))
    with pytest.raises(PremiumError) as info:
        premium_factor({1: Fraction(1)}, pool=Decimal("-1"))
    assert info.value.field == "pool"


# ------------------------------------------------------------------ properties

_fields = st.dictionaries(
    st.integers(1, 200),
    st.tuples(st.integers(1, 2800), st.fractions(-300, 300, max_denominator=120)),
    min_size=1,
    max_size=40,
)
_pools = st.decimals(min_value=0, max_value=100_000, places=2)


@settings(max_examples=150, deadline=None)
@given(_fields, _pools, st.integers(800, 1000))
def test_premiums_sum_to_the_pool_and_skip_non_improvers(field, pool, wb) -> None:
    ratings = {n: r for n, (r, _) in field.items()}
    scores = {n: score_with_ru(n, r + gain) for n, (r, gain) in field.items()}
    premiums = progress_premium(scores, ratings, pool=pool, wb=wb)
    ru = {n: s.ru for n, s in scores.items()}
    assert progress_premium_from_ru(ru, ratings, pool=pool, wb=wb) == premiums
    assert apportion(premium_weights(ru, ratings, wb=wb), pool=pool) == premiums
    assert set(premiums) == set(ratings)
    qualified = {n for n, (r, gain) in field.items() if gain > 0 and r > wb}
    for number, premium in premiums.items():
        assert premium >= 0
        assert premium == premium.quantize(Decimal("0.01"))
        if number not in qualified:
            assert premium == 0
    if qualified:
        assert sum(premiums.values(), Decimal(0)) == pool
    else:
        assert all(p == 0 for p in premiums.values())


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.integers(1, 100), st.fractions(0, 10_000, max_denominator=50), min_size=1, max_size=30
    ),
    _pools,
)
def test_apportion_is_within_one_cent_and_monotone(weights, pool) -> None:
    shares = apportion(weights, pool=pool)
    total = sum(weights.values(), Fraction(0))
    if total == 0:
        assert all(s == 0 for s in shares.values())
        return
    assert sum(shares.values(), Decimal(0)) == pool
    for number, share in shares.items():
        exact = Fraction(pool) * weights[number] / total
        assert abs(Fraction(share) - exact) < Fraction(1, 100)
    for a in weights:
        for b in weights:
            if weights[a] > weights[b]:
                assert shares[a] >= shares[b]
