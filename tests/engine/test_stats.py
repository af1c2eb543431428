"""Pairing-quality figures (the FLAMPARK text's comparison of FK6 and a Swiss open)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import Bye, ByeKind, Game, GameResult, Player, Round
from service.engine.pairing.flampark import flampark_schedule
from service.engine.stats import PairingQuality, counted_games, pairing_quality
from tests.data import seed_000


def _example() -> tuple[list[Player], list[Round]]:
    ratings = {1: 2000, 2: 1960, 3: 1900, 4: 1700, 5: 0, 6: 1690}
    players = [Player(n, rating=r) for n, r in ratings.items()]
    rounds = [
        Round(
            1,
            (
                Game(1, 1, 2, GameResult.WHITE_WINS, 1),
                Game(1, 3, 4, GameResult.DRAW, 2),
                Game(1, 5, 6, None, 3),
            ),
        ),
        Round(
            2,
            (Game(2, 1, 3, GameResult.BLACK_WINS, 1), Game(2, 2, 4, GameResult.DOUBLE_FORFEIT, 2)),
            (Bye(2, 6, ByeKind.PAIRING_ALLOCATED),),
        ),
        Round(3, (Game(3, 4, 6, None, 1),)),
    ]
    return players, rounds


def test_hand_computed_example() -> None:
    """Counted: 1-2 (40), 3-4 (200), 5-6 (unrated), 1-3 (100), 4-6 (10); 2-4 forfeited.

    Deviations: 1 |1930-2000| = 70, 2 |2000-1960| = 40, 3 |1850-1900| = 50,
    4 |1795-1700| = 95, 6 |1700-1690| = 10 (5 is unrated, and left out of 6's mean).
    """
    players, rounds = _example()
    quality = pairing_quality(players, rounds)
    assert quality.games == 5
    assert quality.rated_games == 4
    assert quality.players == 5
    assert quality.share_gap_under_100 == 0.5
    assert quality.share_gap_under_200 == 0.75
    assert quality.share_gap_over_400 == 0.0
    assert quality.share_players_within_50 == pytest.approx(2 / 5)
    assert quality.share_players_within_100 == 1.0
    assert quality.mean_deviation == pytest.approx(53.0)
    assert quality.mean_deviation_top_ten == pytest.approx(53.0)
    expected_percent = (70 / 2000 + 40 / 1960 + 50 / 1900 + 95 / 1700 + 10 / 1690) * 100 / 5
    assert quality.mean_deviation_percent == pytest.approx(expected_percent)
    assert quality.top_ten_opponent_rating == pytest.approx((1930 + 2000 + 1850 + 1795 + 1700) / 5)
    assert quality.largest_start_gap == 2


def test_counted_games_skip_forfeits_and_byes() -> None:
    _, rounds = _example()
    assert [(g.white, g.black) for g in counted_games(rounds)] == [
        (1, 2),
        (3, 4),
        (5, 6),
        (1, 3),
        (4, 6),
    ]


def test_no_games() -> None:
    quality = pairing_quality(
        [Player(1, rating=2000)], [Round(1, (), (Bye(1, 1, ByeKind.ZERO_POINT),))]
    )
    assert quality == PairingQuality(0, 0, 0, *([None] * 10))


def test_unknown_player_is_an_error() -> None:
    with pytest.raises(ValueError, match="start number 9 is not among the players"):
        pairing_quality([Player(1, rating=2000)], [Round(1, (Game(1, 1, 9),))])


def test_top_ten_are_the_ten_best_placed() -> None:
    players = [Player(n, rating=2600 - 10 * n) for n in range(1, 25)]
    games = tuple(Game(1, n, n + 12) for n in range(1, 13))  # every gap 120
    quality = pairing_quality(players, [Round(1, games)])
    assert quality.mean_deviation == pytest.approx(120)
    assert quality.mean_deviation_top_ten == pytest.approx(120)
    assert quality.top_ten_opponent_rating == pytest.approx(
        sum(2600 - 10 * (n + 12) for n in range(1, 11)) / 10
    )
    assert quality.share_gap_under_200 == 1.0 and quality.share_gap_under_100 == 0.0
    assert quality.largest_start_gap == 12


def _fk6_list() -> list[Player]:
    """56 players with ratings spread evenly from the FK6 top rating to its bottom one."""
    fk6 = seed_000()["fk6"]
    high, low, n = fk6["highest_rating"], fk6["lowest_rating"], fk6["listed_players"]
    assert (high, low, n) == (2443, 1008, 56)
    return [
        Player(i, rating=round(high - (high - low) * (i - 1) / (n - 1))) for i in range(1, n + 1)
    ]


def test_fk6_schedule_on_an_even_spread() -> None:
    """FK6 (Formuła FLAMPARK): no game over 400 apart; opponents at most 10 places apart.

    The real FK6 ratings are not in the text; an even spread over its range stands in.
    """
    players = _fk6_list()
    schedule = flampark_schedule(56, 10, kinds=["basic"] * 5 + ["x2"] * 3 + ["x4", "x8"])
    quality = pairing_quality(players, schedule.rounds)
    assert quality.games == 5 * 28 + 4 * 28 + 24
    assert quality.largest_start_gap == 10
    assert quality.share_gap_over_400 == 0.0
    # "opponents' mean ratings within 5 % of the players' own" (Formuła FLAMPARK), on average
    assert quality.mean_deviation_percent is not None and quality.mean_deviation_percent < 5


ratings = st.lists(st.integers(0, 2800), min_size=2, max_size=40)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[Player], list[Round]]:
    values = draw(ratings)
    players = [Player(i, rating=r) for i, r in enumerate(values, start=1)]
    rounds = []
    for number in range(1, draw(st.integers(1, 5)) + 1):
        order = draw(st.permutations(list(range(1, len(values) + 1))))
        results = st.sampled_from([None, *GameResult])
        games = tuple(
            Game(number, order[i], order[i + 1], draw(results), i // 2 + 1)
            for i in range(0, len(order) - 1, 2)
        )
        rounds.append(Round(number, games))
    return players, rounds


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_invariants(data: tuple[list[Player], list[Round]]) -> None:
    players, rounds = data
    quality = pairing_quality(players, rounds)
    games = counted_games(rounds)
    assert quality.games == len(games)
    assert all(g.result is None or g.result.played for g in games)
    if quality.rated_games:
        assert quality.share_gap_under_100 is not None
        assert quality.share_gap_under_200 is not None
        assert quality.share_gap_over_400 is not None
        assert 0 <= quality.share_gap_under_100 <= quality.share_gap_under_200 <= 1
        assert quality.share_gap_under_200 + quality.share_gap_over_400 <= 1
    else:
        assert quality.share_gap_under_100 is None
    if quality.players:
        assert quality.share_players_within_50 is not None
        assert quality.share_players_within_100 is not None
        assert 0 <= quality.share_players_within_50 <= quality.share_players_within_100 <= 1
        assert quality.mean_deviation is not None and quality.mean_deviation >= 0
        assert quality.mean_deviation_percent is not None
        if quality.players <= 10:
            assert quality.mean_deviation_top_ten == pytest.approx(quality.mean_deviation)
    else:
        assert quality.mean_deviation is None and quality.top_ten_opponent_rating is None
    # Colours and the order of rounds do not matter.
    swapped = [
        Round(r.number, tuple(Game(g.round, g.black, g.white, g.result, g.table) for g in r.games))
        for r in reversed(rounds)
    ]
    assert pairing_quality(players, swapped) == quality
