"""The last-round forecast of a norm (B.01 1.4), worked by hand: with one round of
nine left, which result gives the norm, against the paired opponent or against an
opponent of what rating, title and federation."""

from __future__ import annotations

from service.engine.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from service.engine.ratings.norm_event import NormSettings
from service.engine.ratings.norm_forecast import Requirement
from service.engine.ratings.norm_players import last_round, player_norms

W, D, L = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS
EIGHT = [W, W, W, D, D, D, L, W]
"""5.5 of 8: four wins, three draws, a loss."""
TITLES = ["GM", "GM", "IM", "IM", "IM", "FM", None, None]
"""Two GMs: a GM norm needs a third; five GM/IM: the IM norm has its three."""


def _event(
    feds: list[str], last: tuple[int, Player] | None = None, results: list[GameResult] = EIGHT
) -> Tournament:
    """Player 1 (ENG, a man) met players 2-9, all rated 2450, in rounds 1-8 of 9;
    round 9 unpaired, or paired against `last` (its start number and player)."""
    players = [Player(1, rating=2400, federation="ENG", sex="m")] + [
        Player(n + 2, rating=2450, federation=fed, title=title)
        for n, (fed, title) in enumerate(zip(feds, TITLES, strict=True))
    ]
    rounds = [
        Round(number, (Game(number, 1, number + 1, result),))
        for number, result in enumerate(results, start=1)
    ]
    if last is not None:
        players.append(last[1])
        rounds.append(Round(9, (Game(9, 1, last[0], None),)))
    return Tournament(players=tuple(players), rounds=tuple(rounds), total_rounds=9)


MIXED = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED", "NED"]


def test_one_round_left() -> None:
    assert last_round(_event(MIXED)) == 9
    assert last_round(_event(MIXED, results=EIGHT[:7])) is None
    paired = _event(MIXED, (10, Player(10, rating=2350, federation="GER")))
    assert last_round(paired) == 9


def test_against_the_paired_opponent() -> None:
    """Round 9 against a GM rated 2350 (GER): Ra = (8 x 2450 + 2350) / 9 = 2438.9 ->
    2439. A win: 6.5/9 = 72 %, dp 166: Rp 2605 >= 2600, and the third GM. A draw: 6/9 =
    67 %, dp 125: 2564. The GM norm needs a win."""
    opponent = Player(10, rating=2350, federation="GER", title="GM")
    gm = player_norms(_event(MIXED, (10, opponent)))[1].forecasts["GM"]
    assert (gm.round, gm.opponent, gm.status, gm.needs) == (9, 10, "open", "win")
    assert [o.result for o in gm.options] == ["win"]


def test_against_an_opponent_not_yet_known() -> None:
    """Unpaired. GM: the opponent must be a GM (two so far, three needed). Eight 2450s
    sum 19600; the ninth opponent's rating r (at least the floor 2200) gives Ra =
    (19600 + r) / 9 rounded. A win (72 %, dp 166) needs Ra >= 2434: r = 2302 gives
    21902 / 9 = 2433.56 -> 2434, r = 2301 gives 2433. A draw (67 %, dp 125) needs Ra
    >= 2475: r >= 2671 (22271 / 9 = 2474.56). A loss (61 %, dp 80) would need Ra 2520,
    r = 3076: above anyone's rating. So: a draw against a GM of 2671 or more, or a win
    against a GM of 2302 or more."""
    gm = player_norms(_event(MIXED))[1].forecasts["GM"]
    assert (gm.opponent, gm.status, gm.needs) == (None, "open", "draw")
    options = {o.result: o.against for o in gm.options}
    assert options == {
        "draw": Requirement(2671, ("GM",), False, ()),
        "win": Requirement(2302, ("GM",), False, ()),
    }


def test_a_norm_any_result_gives() -> None:
    """IM: five GM/IM opponents of nine already; Ra is at least (19600 + 2050) / 9 =
    2405.6 (a ninth opponent below the IM floor 2050 counts 2050), and a loss scores
    5.5/9 = 61 %, dp 80: Rp 2486 >= 2450. Any result, against anyone: secured."""
    im = player_norms(_event(MIXED))[1].forecasts["IM"]
    assert (im.status, im.needs) == ("secured", "loss")
    assert [(o.result, o.against) for o in im.options] == [
        ("loss", None),
        ("draw", None),
        ("win", None),
    ]


def test_the_federation_the_opponent_must_not_have() -> None:
    """Five of eight opponents from ENG, the player's own: a sixth would make 6 of 9,
    over 3/5 x 9 = 5.4 (1.4.4). The opponent must not be from ENG."""
    feds = ["ENG", "ENG", "ENG", "ENG", "ENG", "GER", "FRA", "FRA"]
    im = player_norms(_event(feds))[1].forecasts["IM"]
    assert im.needs == "loss"
    assert im.options[0].against == Requirement(None, None, False, ("ENG",))


def test_a_federation_not_yet_met() -> None:
    """Opponents from GER (five) and ENG (three): one federation other than the
    player's; 1.4.3 wants two, so the ninth opponent must bring a new one."""
    feds = ["GER", "GER", "GER", "GER", "GER", "ENG", "ENG", "ENG"]
    im = player_norms(_event(feds))[1].forecasts["IM"]
    assert im.options[0].against == Requirement(None, None, True, ())


def test_out_of_reach() -> None:
    """1.5/8 against the field: even a win (2.5/9 = 28 %) is under 35 %."""
    results = [W, L, L, L, L, L, D, L]
    gm = player_norms(_event(MIXED, results=results))[1].forecasts["GM"]
    assert (gm.status, gm.needs, gm.options) == ("out-of-reach", None, ())


def test_a_swiss_norm_already_made_is_secured() -> None:
    """1.4.1e: outside predetermined pairings later games may be left out. Nine of ten
    rounds gave the IM norm; in a Swiss the tenth cannot take it away, in a round-robin
    it is played for."""
    players = [Player(1, rating=2400, federation="ENG", sex="m")] + [
        Player(n, rating=2450, federation=("GER", "FRA", "ESP")[n % 3], title="IM")
        for n in range(2, 11)
    ]
    rounds = tuple(Round(n, (Game(n, 1, n + 1, W),)) for n in range(1, 10))
    event = Tournament(players=tuple(players), rounds=rounds, total_rounds=10)
    swiss = player_norms(event, NormSettings(format="swiss"))[1]
    assert swiss.checks[1].met is True
    assert swiss.forecasts["IM"].status == "secured"
    robin = player_norms(event, NormSettings(format="round-robin"))[1]
    # Nine wins: any result in round 10 keeps 90 % or more; the norm stands either way.
    assert robin.forecasts["IM"].status == "secured"
    assert robin.forecasts["IM"].needs == "loss"


def test_no_forecast_once_the_last_round_is_played() -> None:
    opponent = Player(10, rating=2350, federation="GER", title="GM")
    event = _event(MIXED, (10, opponent))
    final = event.rounds[-1]
    done = Round(9, (Game(9, 1, 10, D),))
    over = Tournament(players=event.players, rounds=(*event.rounds[:-1], done), total_rounds=9)
    assert final.games[0].result is None
    assert player_norms(over)[1].forecasts == {}


def test_a_pairing_allocated_bye_in_the_last_round() -> None:
    """Round 9 paired (players 2 and 3 still playing), the seeker has the
    pairing-allocated bye: no game. 1.4.1c: 8 games
    and the bye in 9 rounds. IM: 5.5/8 = 69 % (dp 141) on Ra 2450 is 2591, five GM/IM:
    secured. GM: two GMs of 8 (3 needed): out of reach."""
    event = _event(MIXED)
    final = Round(9, (Game(9, 2, 3),), (Bye(9, 1, ByeKind.PAIRING_ALLOCATED),))
    event = Tournament(players=event.players, rounds=(*event.rounds, final), total_rounds=9)
    norms = player_norms(event)[1]
    assert norms.checks[1].met is True
    assert (norms.forecasts["IM"].status, norms.forecasts["IM"].needs) == ("secured", None)
    assert norms.forecasts["GM"].status == "out-of-reach"
