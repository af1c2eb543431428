"""FLAMPARK scoring (Formuła FLAMPARK, "Punktacja"): the text's worked numbers
(tests/data/seeds)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    Tournament,
)
from service.engine.scoring import flampark
from service.engine.scoring.flampark import (
    FlamparkAccumulator,
    FlamparkError,
    FlamparkScore,
    ShorteningByArbiterError,
    ShorteningError,
    best_games,
    check_recorded_shortening,
    colour_points,
    display,
    flampark_scores,
    game_value,
    opponent_strength,
    pf_from_rating,
    rank_by_pf,
    rating_from_pf,
    result_percent,
    time_points,
    validate_shortening,
)
from tests.data import seed_000

# The FLAMPARK text's scoring figures (tests/data/seeds/000-flampark.json).
SCORING = seed_000()["scoring"]


def fk6_format() -> tuple[int, int]:
    """(rounds, base minutes) of FK6: "rozegranie 10 rund tempem 15'+1''/ruch"."""
    fk6 = seed_000()["fk6"]
    return fk6["rounds_at_that_pace"], fk6["base_minutes"]


def make_tournament(
    ratings: dict[int, int],
    games: Sequence[tuple[int, int, int, GameResult | None]],
    byes: Sequence[tuple[int, int, ByeKind]] = (),
) -> Tournament:
    """A tournament from (round, white, black, result) rows."""
    numbers = sorted({g[0] for g in games} | {b[0] for b in byes})
    rounds = tuple(
        Round(
            number,
            tuple(Game(number, w, b, res) for r, w, b, res in games if r == number),
            tuple(Bye(number, p, kind) for r, p, kind in byes if r == number),
        )
        for number in numbers
    )
    players = tuple(Player(n, rating=ratings[n]) for n in sorted(ratings))
    return Tournament(players, rounds)


def test_public_surface() -> None:
    assert set(flampark.__all__) == {
        "BLACK_BONUS",
        "FORFEIT_PERCENT",
        "FULL_SHORTENING_POINTS",
        "CountedGame",
        "FlamparkAccumulator",
        "FlamparkError",
        "FlamparkScore",
        "GameValue",
        "ShorteningByArbiterError",
        "ShorteningError",
        "best_games",
        "check_recorded_shortening",
        "colour_points",
        "display",
        "flampark_scores",
        "game_value",
        "opponent_strength",
        "pf_from_rating",
        "rank_by_pf",
        "rating_from_pf",
        "result_percent",
        "time_points",
        "validate_shortening",
    }


# ------------------------------------------------------------------ the parts


def test_strength_table_from_the_text() -> None:
    """ "siła gry graczy o rankingu 1000 wynosi 0, ... 1800 ... 100, 2200 to 150" and
    "od 0 (ranking rywala 1000) do 250 (rywal o rankingu 3000)"."""
    pairs = SCORING["strength_by_rating"]
    assert len(pairs) == 5
    for rating, strength in pairs:
        assert opponent_strength(rating) == strength


def test_white_loss_to_a_1001_player_who_shortened_fully() -> None:
    """ "Porażka białymi z graczem o rankingu 1001, przy jego maksymalnym skróceniu czasu
    gry daje wynik: 0 - 5 - 25 + 0% = -30". Exactly Pc = 1/8, so -29.875; the text
    shows the rounded value."""
    example = SCORING["white_loss_full_shortening"]
    rating, printed = example["opponent_rating"], example["printed_total"]
    _, base = fk6_format()
    value = game_value(
        Outcome.LOSS, Colour.WHITE, rating, base_minutes=base, opponent_shortening=base
    )
    assert [value.pc, value.pb, value.pt, value.ppct] == [Fraction(1, 8), -5, -25, 0]
    assert value.total == Fraction(-239, 8)
    assert display(value.total, 0) == printed == -30


def test_black_win_over_2800_with_full_shortening() -> None:
    """ "225(Rc=2800) +5 +25 +100% = 355"."""
    example = SCORING["black_win_full_shortening"]
    pc, rating, pb, pt, pct, total = (
        example[key] for key in ("pc", "opponent_rating", "pb", "pt", "percent", "total")
    )
    _, base = fk6_format()
    value = game_value(Outcome.WIN, Colour.BLACK, rating, base_minutes=base, own_shortening=base)
    assert [value.pc, value.pb, value.pt, value.ppct] == [pc, pb, pt, pct]
    assert value.total == total == 355


def test_result_percentages() -> None:
    assert result_percent(Outcome.WIN) == 100
    assert result_percent(Outcome.DRAW) == 50
    assert result_percent(Outcome.LOSS) == 0
    assert result_percent(Outcome.FORFEIT_LOSS) == -50
    with pytest.raises(FlamparkError):
        result_percent(Outcome.FORFEIT_WIN)


def test_colour_points() -> None:
    assert colour_points(Colour.BLACK) == 5
    assert colour_points(Colour.WHITE) == -5


def test_full_shortening_equals_a_200_point_stronger_opponent() -> None:
    """ "Maksymalne skrócenie dodaje tyle do wyniku ile dałby wzrost rankingu rywala o
    200 punktów"."""
    gain = SCORING["full_shortening_as_rating_gain"]
    _, base = fk6_format()
    assert time_points(base, base) == opponent_strength(1800 + gain) - opponent_strength(1800)


def test_forfeit_is_a_loss_to_an_opponent_400_weaker() -> None:
    """ "Zawodnik oddający walkowera otrzymuje w danej partii -0.5 punkta. Odpowiada to
    obniżeniu rankingu przeciwnika ... o 400 punktów ELO"."""
    drop = SCORING["forfeit_as_rating_drop"]
    forfeit = game_value(Outcome.FORFEIT_LOSS, Colour.WHITE, 2000)
    loss = game_value(Outcome.LOSS, Colour.WHITE, 2000 - drop)
    assert forfeit.ppct == Fraction(-1, 2) * 100
    assert forfeit.pc + forfeit.ppct == loss.pc + loss.ppct
    # Reading: no board was played, so no colour or time part.
    assert forfeit.pb == forfeit.pt == 0


def test_forfeit_win_has_no_value() -> None:
    with pytest.raises(FlamparkError) as info:
        game_value(Outcome.FORFEIT_WIN, Colour.WHITE, 2000)
    assert info.value.field == "outcome"


def test_game_value_errors() -> None:
    with pytest.raises(ShorteningError):
        game_value(Outcome.WIN, Colour.WHITE, 2000, own_shortening=3)  # no base
    with pytest.raises(ShorteningError):
        game_value(
            Outcome.WIN, Colour.WHITE, 2000, base_minutes=15, own_shortening=1,
            opponent_shortening=1,
        )  # fmt: skip
    with pytest.raises(ShorteningError):
        game_value(Outcome.WIN, Colour.WHITE, 2000, base_minutes=15, own_shortening=16)
    with pytest.raises(ShorteningError):
        game_value(Outcome.WIN, Colour.WHITE, 2000, base_minutes=15, own_shortening=-1)
    with pytest.raises(ShorteningError):
        game_value(Outcome.WIN, Colour.WHITE, 2000, base_minutes=15, own_shortening=1.5)  # type: ignore[arg-type]
    with pytest.raises(FlamparkError):
        game_value(Outcome.WIN, Colour.WHITE, 0)
    with pytest.raises(FlamparkError) as info:
        time_points(1, 0)
    assert info.value.field == "base_minutes"


def test_seconds_are_exact() -> None:
    assert time_points(Fraction(1, 2), 15) == Fraction(5, 6)


def test_rating_scale_round_trip() -> None:
    assert rating_from_pf(Fraction(0)) == 600
    assert rating_from_pf(Fraction(150)) == 1800
    assert pf_from_rating(1800) == 150
    assert pf_from_rating(rating_from_pf(Fraction(7, 3))) == Fraction(7, 3)


def test_display_rounds_half_away_from_zero() -> None:
    assert display(Fraction(1, 6)) == Decimal("0.17")
    assert display(Fraction(4, 3)) == Decimal("1.33")
    assert display(Fraction(-5, 8), 1) == Decimal("-0.6")
    assert display(Fraction(1, 8), 2) == Decimal("0.13")


# ------------------------------------------------------------------ FK6 figures


def _ten_round_event(
    results: list[GameResult], shortening: dict[int, int] | None = None
) -> dict[int, FlamparkScore]:
    """Player 1 (2000) meets players 2..11 (1900) in rounds 1..10, alternating colours."""
    rounds, base = fk6_format()
    ratings = {1: 2000} | {n: 1900 for n in range(2, rounds + 2)}
    games = []
    for r in range(1, rounds + 1):
        opponent = r + 1
        white, black = (1, opponent) if r % 2 else (opponent, 1)
        result = results[r - 1]
        if white != 1:  # results are given from player 1's side as white
            result = {
                GameResult.WHITE_WINS: GameResult.BLACK_WINS,
                GameResult.BLACK_WINS: GameResult.WHITE_WINS,
                GameResult.WHITE_WINS_FORFEIT: GameResult.BLACK_WINS_FORFEIT,
                GameResult.BLACK_WINS_FORFEIT: GameResult.WHITE_WINS_FORFEIT,
            }.get(result, result)
        games.append((r, white, black, result))
    tournament = make_tournament(ratings, games)
    shortened = {}
    for r, minutes in (shortening or {}).items():
        white = 1 if r % 2 else r + 1
        shortened[(r, white)] = minutes
    return flampark_scores(tournament, base_minutes=base, shortened=shortened)


def test_fk6_one_minute_of_shortening() -> None:
    """ "0.17 dodatkowego punktu za każdą minutę skrócenia" and "1.33 punktu za każdą
    minutę skrócenia czasu" (FK6: 10 rounds of 15')."""
    per_minute_pf = Decimal(SCORING["fk6_one_minute_shortening"]["pf"])
    per_minute_ru = Decimal(SCORING["fk6_one_minute_shortening"]["ru"])
    losses = [GameResult.BLACK_WINS] * 10
    plain = _ten_round_event(losses)[1]
    shortened = _ten_round_event(losses, {4: 1})[1]
    assert shortened.pt - plain.pt == Fraction(1, 6)
    assert display(shortened.pf - plain.pf) == per_minute_pf
    assert display(shortened.ru - plain.ru) == per_minute_ru
    # The opponent of that game loses the same amount from that game.
    opponent = _ten_round_event(losses, {4: 1})[5]
    assert opponent.pt == -time_points(1, 15)


def test_fk6_a_win_adds_80_and_a_draw_40() -> None:
    """ "dodawane było 80 punktów za każde zwycięstwo (40 pkt. za remis)"."""
    win, draw = SCORING["fk6_ru_per_result"]["win"], SCORING["fk6_ru_per_result"]["draw"]
    base = [GameResult.BLACK_WINS] * 10
    with_win = [GameResult.WHITE_WINS, *base[1:]]
    with_draw = [GameResult.DRAW, *base[1:]]
    assert _ten_round_event(with_win)[1].ru - _ten_round_event(base)[1].ru == win
    assert _ten_round_event(with_draw)[1].ru - _ten_round_event(base)[1].ru == draw


def test_a_draw_instead_of_a_win_costs_five_in_ten_rounds() -> None:
    """ "straty np.5 pocent (remis zamiast zwycięstwa w turnieju 10-cio rundowym)"."""
    loss = SCORING["draw_instead_of_win_percent"]
    wins = [GameResult.WHITE_WINS] * 10
    one_draw = [GameResult.DRAW, *wins[1:]]
    assert _ten_round_event(wins)[1].pf - _ten_round_event(one_draw)[1].pf == loss


def test_one_win_of_ten_and_of_nine() -> None:
    """ "wygrana jednej z dziesięciu to 10% ale jednej z dziewięciu to 11.1%": the
    forfeit win shortens the tournament by one round for the winner."""
    printed = SCORING["one_win_percent"]
    ten, nine = Decimal(printed["of_ten"]), Decimal(printed["of_nine"])
    results = [GameResult.WHITE_WINS] + [GameResult.BLACK_WINS] * 9
    assert display(_ten_round_event(results)[1].ppct, 0) == ten
    results[-1] = GameResult.WHITE_WINS_FORFEIT  # player 1 wins round 10 by forfeit
    score = _ten_round_event(results)[1]
    assert score.games_counted == 9
    assert display(score.ppct, 1) == nine


def test_nine_rounds_colour_imbalance() -> None:
    """ "Przy 9 rundach przewaga jednego koloru to +/- 0.6 punktu"."""
    imbalance = SCORING["colour_imbalance"]
    rounds, printed = imbalance["rounds"], Decimal(imbalance["points"])
    ratings = {n: 2000 - n for n in range(1, rounds + 2)}
    games = [
        (r, 1, r + 1, GameResult.DRAW) if r % 2 else (r, r + 1, 1, GameResult.DRAW)
        for r in range(1, rounds + 1)
    ]
    score = flampark_scores(make_tournament(ratings, games), base_minutes=15)[1]
    assert score.pb == Fraction(-5, rounds)
    assert display(abs(score.pb), 1) == printed


def test_children_and_adults_rank_together() -> None:
    """FK2: "dzieci grały na dystansie 5 rund, podczas gdy pozostali grali 9 rund"."""
    short, long = SCORING["fk2_rounds"]["children"], SCORING["fk2_rounds"]["adults"]
    # Player 1 (adult) and player 2 (child) face the same 1500 field; the child wins
    # every one of 5 games, the adult wins 8 of 9: the child ranks first.
    ratings = {1: 1600, 2: 1590} | {n: 1500 for n in range(3, 3 + long + short)}
    games = []
    for r in range(1, long + 1):
        games.append((r, 1, 2 + r, GameResult.DRAW if r == 1 else GameResult.WHITE_WINS))
    for r in range(1, short + 1):
        games.append((r, 2, 2 + long + r, GameResult.WHITE_WINS))
    scores = flampark_scores(make_tournament(ratings, games), base_minutes=15)
    assert scores[1].games_counted == long
    assert scores[2].games_counted == short
    assert scores[2].ppct == 100
    assert rank_by_pf(scores)[:2] == [2, 1]
    assert scores[2].pf - scores[1].pf == Fraction(100) - Fraction(100 * long - 50, long)


# ------------------------------------------------------------------ which games count


def test_byes_absences_and_unfinished_games_do_not_count() -> None:
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700}
    games = [
        (1, 1, 2, GameResult.WHITE_WINS),
        (1, 3, 4, GameResult.DRAW),
        (2, 4, 1, GameResult.WHITE_WINS_FORFEIT),  # 1 forfeited: counts for 1 only
        (3, 2, 3, None),  # unfinished
        (4, 2, 3, GameResult.DOUBLE_FORFEIT),
    ]
    byes = [(2, 2, ByeKind.PAIRING_ALLOCATED), (2, 3, ByeKind.HALF_POINT)]
    scores = flampark_scores(make_tournament(ratings, games, byes), base_minutes=10)
    assert scores[1].games_counted == 2
    assert [g.outcome for g in scores[1].games] == [Outcome.WIN, Outcome.FORFEIT_LOSS]
    assert scores[1].games[1].value.total == opponent_strength(1700) - 50
    assert scores[4].games_counted == 1  # the forfeit win is left out
    assert scores[2].games_counted == 2  # round 1 loss and the double forfeit
    assert scores[2].games[1].value.ppct == -50
    assert scores[3].games[1].value.ppct == -50


def test_players_without_counted_games_are_left_out() -> None:
    ratings = {1: 2000, 2: 1900, 3: 1800}
    games = [(1, 1, 2, GameResult.WHITE_WINS_FORFEIT)]
    scores = flampark_scores(make_tournament(ratings, games), base_minutes=10)
    assert set(scores) == {2}


def test_shortening_on_a_forfeited_game_has_no_effect() -> None:
    ratings = {1: 2000, 2: 1900}
    games = [(1, 1, 2, GameResult.BLACK_WINS_FORFEIT)]
    scores = flampark_scores(
        make_tournament(ratings, games), base_minutes=10, shortened={(1, 1): 5}
    )
    assert scores[1].pt == 0


def test_the_lower_start_number_shortens_whatever_its_colour() -> None:
    ratings = {1: 2000, 2: 1900}
    tournament = make_tournament(ratings, [(1, 2, 1, GameResult.DRAW)])
    scores = flampark_scores(tournament, base_minutes=10, shortened={(1, 2): 4})
    assert scores[1].pt == 10
    assert scores[2].pt == -10


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    ("shortened", "field"),
    [
        ({(2, 1): 3}, "shortened[2,1]"),  # no such round
        ({(1, 2): 3}, "shortened[1,2]"),  # 2 is black in round 1
        ({(1, 1): 11}, "shortened[1,1]"),  # more than the base time
        ({(1, 1): -1}, "shortened[1,1]"),
        ({(1, 1): 0.5}, "shortened[1,1]"),  # floats are not exact minutes
        ({(1, 3): 2}, "shortened[1,3]"),  # 3 is rated above 4: start list out of order
    ],
)
def test_validate_shortening_names_the_field(
    shortened: dict[tuple[int, int], int], field: str
) -> None:
    ratings = {1: 2000, 2: 1900, 3: 1700, 4: 1800}
    tournament = make_tournament(ratings, [(1, 1, 2, None), (1, 3, 4, None)])
    with pytest.raises(ShorteningError) as info:
        validate_shortening(tournament, shortened, base_minutes=10)
    assert info.value.field == field
    assert isinstance(info.value, ValueError)


def test_validate_shortening_accepts_equal_ratings_and_the_full_base() -> None:
    ratings = {1: 2000, 2: 2000}
    tournament = make_tournament(ratings, [(1, 1, 2, None)])
    validate_shortening(tournament, {(1, 1): 10}, base_minutes=10)
    validate_shortening(tournament, {(1, 1): Fraction(19, 2)}, base_minutes=10)


@pytest.mark.parametrize("minutes", [0, 5, 15])
def test_a_players_report_never_records_a_shortening(minutes: int) -> None:
    """Formuła FLAMPARK: the arbiter sets the shortening on the clock; no player's word sets it,
    not even 0 (which would take back the arbiter's)."""
    with pytest.raises(ShorteningByArbiterError) as info:
        check_recorded_shortening(
            minutes,
            base_minutes=15,
            by_arbiter=False,
            result=GameResult.WHITE_WINS,
            ratings=(2000, 1900),
        )
    assert info.value.field == "time_shortened_minutes"
    assert "arbiter" in str(info.value) and "FLAMPARK rules" in str(info.value)


@pytest.mark.parametrize(
    ("minutes", "result", "ratings"),
    [
        (16, GameResult.DRAW, (2000, 1900)),  # over the base time
        (-1, GameResult.DRAW, (2000, 1900)),
        (5, GameResult.WHITE_WINS_FORFEIT, (2000, 1900)),  # not played: no Pt
        (5, GameResult.BLACK_WINS_FORFEIT, (2000, 1900)),
        (5, GameResult.DOUBLE_FORFEIT, (2000, 1900)),
        (5, GameResult.DRAW, (1800, 1900)),  # the lower number rated below the other
    ],
)
def test_the_arbiters_shortening_follows_the_rules(
    minutes: int, result: GameResult, ratings: tuple[int, int]
) -> None:
    with pytest.raises(ShorteningError) as info:
        check_recorded_shortening(
            minutes, base_minutes=15, by_arbiter=True, result=result, ratings=ratings
        )
    assert not isinstance(info.value, ShorteningByArbiterError)
    assert info.value.field == "time_shortened_minutes"


def test_the_arbiters_shortening_is_accepted() -> None:
    accepted: list[tuple[Fraction | int, GameResult, tuple[int, int]]] = [
        (15, GameResult.BLACK_WINS, (2000, 1900)),
        (Fraction(15, 2), GameResult.DRAW, (2000, 2000)),  # equal ratings
        (0, GameResult.WHITE_WINS_FORFEIT, (2000, 1900)),  # 0 with a forfeit
        (0, GameResult.DRAW, (1800, 1900)),  # 0 needs no right to shorten
    ]
    for minutes, result, ratings in accepted:
        check_recorded_shortening(
            minutes, base_minutes=15, by_arbiter=True, result=result, ratings=ratings
        )


@pytest.mark.parametrize("base", [0, -5, True])
def test_base_minutes_must_be_positive(base: int) -> None:
    tournament = make_tournament({1: 2000, 2: 1900}, [(1, 1, 2, GameResult.DRAW)])
    with pytest.raises(FlamparkError) as info:
        flampark_scores(tournament, base_minutes=base)
    assert info.value.field == "base_minutes"


def test_unrated_player_is_rejected() -> None:
    tournament = make_tournament({1: 2000, 2: 0}, [(1, 1, 2, GameResult.DRAW)])
    with pytest.raises(FlamparkError) as info:
        flampark_scores(tournament, base_minutes=15)
    assert info.value.field == "players[1].rating"


# ------------------------------------------------------------------ properties

_RESULTS = st.sampled_from([*GameResult, None])


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Tournament, dict[tuple[int, int], Fraction | int], int]:
    """Random events: players rated in start-list order, rounds of disjoint games."""
    count = draw(st.integers(2, 12))
    rounds = draw(st.integers(1, 6))
    base = draw(st.integers(1, 30))
    top = draw(st.integers(1500, 2800))
    steps = draw(st.lists(st.integers(0, 60), min_size=count, max_size=count))
    ratings: dict[int, int] = {}
    rating = top
    for number in range(1, count + 1):
        rating -= steps[number - 1]
        ratings[number] = max(rating, 1)
    games: list[tuple[int, int, int, GameResult | None]] = []
    shortened: dict[tuple[int, int], Fraction | int] = {}
    for r in range(1, rounds + 1):
        order = draw(st.permutations(list(range(1, count + 1))))
        for i in range(0, count - 1, 2):
            white, black = order[i], order[i + 1]
            games.append((r, white, black, draw(_RESULTS)))
            if draw(st.booleans()):
                shortened[(r, white)] = draw(
                    st.fractions(0, base, max_denominator=60) | st.integers(0, base)
                )
    return make_tournament(ratings, games), shortened, base


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_pf_is_the_sum_of_the_means_and_the_mean_of_the_values(case) -> None:
    tournament, shortened, base = case
    scores = flampark_scores(tournament, base_minutes=base, shortened=shortened)
    for score in scores.values():
        totals = [g.value.total for g in score.games]
        assert score.pf == sum(totals, Fraction(0)) / len(totals)
        assert score.pf == score.pc + score.pt + score.pb + score.ppct
        assert score.ru == 8 * score.pf + 600
        assert FlamparkScore.from_games(score.player, reversed(score.games)) == score
        assert score.values == tuple(g.value for g in score.games)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_red_scale_identity(case) -> None:
    """Ru = mean opponents' rating - 400 + 8 (P% + Pt + Pb): the text's red table
    ("do rankingu średniego rywali pomniejszonego o 400 ...")."""
    tournament, shortened, base = case
    ratings = {p.start_number: p.rating for p in tournament.players}
    for score in flampark_scores(tournament, base_minutes=base, shortened=shortened).values():
        if any(g.outcome is Outcome.FORFEIT_LOSS for g in score.games):
            continue
        mean_rc = Fraction(sum(ratings[g.opponent] for g in score.games), score.games_counted)
        assert score.ru == mean_rc - 400 + 8 * (score.ppct + score.pt + score.pb)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_time_premium_is_zero_sum_per_game(case) -> None:
    tournament, shortened, base = case
    scores = flampark_scores(tournament, base_minutes=base, shortened=shortened)
    pts: dict[tuple[int, int], Fraction] = {}
    for player, score in scores.items():
        for game in score.games:
            pair = (game.round, min(player, game.opponent))
            pts[pair] = pts.get(pair, Fraction(0)) + game.value.pt
    assert all(total == 0 for total in pts.values())


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_accumulator_matches_batch_after_corrections(case, rnd) -> None:
    tournament, shortened, base = case
    expected = flampark_scores(tournament, base_minutes=base, shortened=shortened)
    ratings = {p.start_number: p.rating for p in tournament.players}
    acc = FlamparkAccumulator(ratings, base_minutes=base)
    entries = [
        (r.number, g.white, g.black, g.result, shortened.get((r.number, g.white), 0))
        for r in tournament.rounds
        for g in r.games
    ]
    # Record a wrong result first for some games, then the right one, in random order.
    rnd.shuffle(entries)
    for number, white, black, _result, _minutes in entries:
        if rnd.random() < 0.3:
            acc.record(number, white, black, rnd.choice(list(GameResult)))
    for number, white, black, result, minutes in entries:
        acc.record(number, white, black, result, shortened=minutes)
    assert acc.scores() == expected
    for player, score in expected.items():
        assert acc.ru(player) == score.ru
    assert acc.ru_map() == {n: s.ru for n, s in expected.items()}
    batch = FlamparkAccumulator.from_tournament(tournament, base_minutes=base, shortened=shortened)
    assert batch.scores() == expected


@settings(max_examples=100, deadline=None)
@given(tournaments())
def test_ranking_is_by_pf(case) -> None:
    tournament, shortened, base = case
    scores = flampark_scores(tournament, base_minutes=base, shortened=shortened)
    order = rank_by_pf(scores)
    assert sorted(order) == sorted(scores)
    pfs = [scores[n].pf for n in order]
    assert pfs == sorted(pfs, reverse=True)


# ------------------------------------------------------------------ accumulator errors


def test_accumulator_rejects_double_booking_and_unknown_players() -> None:
    acc = FlamparkAccumulator({1: 2000, 2: 1900, 3: 1800}, base_minutes=15)
    acc.record(1, 1, 2, GameResult.DRAW)
    with pytest.raises(FlamparkError):
        acc.record(1, 3, 2, GameResult.DRAW)  # 2 already plays in round 1
    with pytest.raises(FlamparkError):
        acc.record(1, 1, 3, GameResult.DRAW)  # same key, different opponent
    with pytest.raises(FlamparkError):
        acc.record(2, 1, 9, GameResult.DRAW)
    with pytest.raises(FlamparkError):
        acc.record(2, 1, 1, GameResult.DRAW)
    with pytest.raises(ShorteningError):
        acc.record(2, 3, 1, GameResult.DRAW, shortened=20)


def test_accumulator_withdraws_a_result() -> None:
    acc = FlamparkAccumulator({1: 2000, 2: 1900}, base_minutes=15)
    acc.record(1, 1, 2, GameResult.WHITE_WINS, shortened=3)
    assert acc.score(1) is not None
    acc.record(1, 1, 2, None)
    assert acc.score(1) is None
    assert acc.ru(2) is None
    assert acc.scores() == {}


def test_best_games_by_value() -> None:
    """Formuła FLAMPARK, "Najlepsze wyniki": games listed by their value, forfeits left out."""
    ratings = {1: 2400, 2: 2300, 3: 1500, 4: 1400}
    games = [
        (1, 1, 2, GameResult.BLACK_WINS),  # 2 beats a 2400 with black: 175 + 5 + 100
        (1, 3, 4, GameResult.WHITE_WINS),  # 3 beats a 1400 with white: 50 - 5 + 100
        (2, 2, 1, GameResult.DRAW),
        (2, 4, 3, GameResult.WHITE_WINS_FORFEIT),
    ]
    scores = flampark_scores(make_tournament(ratings, games), base_minutes=15)
    best = best_games(scores, limit=3)
    assert [(p, g.round) for p, g in best] == [(2, 1), (2, 2), (1, 2)]  # 280, 220, 217.5
    assert best[0][1].value.total == 280
    listed = best_games(scores)
    assert all(g.outcome is not Outcome.FORFEIT_LOSS for _, g in listed)
    totals = [g.value.total for _, g in listed]
    assert totals == sorted(totals, reverse=True)
    with pytest.raises(FlamparkError):
        best_games(scores, limit=-1)


@pytest.mark.parametrize(
    "games",
    [
        [(1, 1, 2, GameResult.DRAW), (1, 3, 1, None)],  # player 1 paired twice
        [(1, 1, 9, GameResult.DRAW)],  # 9 is not on the start list
        [(1, 2, 2, GameResult.DRAW)],  # paired with themselves
    ],
)
def test_inconsistent_rounds_are_rejected(games) -> None:
    tournament = make_tournament({1: 2000, 2: 1900, 3: 1800}, games)
    with pytest.raises(FlamparkError) as info:
        flampark_scores(tournament, base_minutes=15)
    assert info.value.field == "rounds"
    with pytest.raises(FlamparkError):
        FlamparkAccumulator.from_tournament(tournament, base_minutes=15)


def test_accumulator_from_tournament_continues_live() -> None:
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700}
    tournament = make_tournament(
        ratings, [(1, 1, 2, GameResult.DRAW), (1, 3, 4, None), (2, 4, 1, GameResult.BLACK_WINS)]
    )
    acc = FlamparkAccumulator.from_tournament(tournament, base_minutes=15, shortened={(2, 4): 3})
    acc.record(1, 3, 4, GameResult.WHITE_WINS)
    acc.record(2, 4, 1, GameResult.WHITE_WINS, shortened=3)  # a correction
    with pytest.raises(FlamparkError):
        acc.record(2, 3, 1, GameResult.DRAW)  # 1 already plays 4 in round 2
    final = make_tournament(
        ratings,
        [
            (1, 1, 2, GameResult.DRAW),
            (1, 3, 4, GameResult.WHITE_WINS),
            (2, 4, 1, GameResult.WHITE_WINS),
        ],
    )
    assert acc.scores() == flampark_scores(final, base_minutes=15, shortened={(2, 4): 3})
