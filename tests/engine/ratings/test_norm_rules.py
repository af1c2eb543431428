"""The B.01 (2024) norm rules beyond the figures: the game counts of 1.4.1b-c, the
federation exemptions of 1.4.3a-d, a double round-robin's field (1.4.5), the games
left out by 1.4.2b and the last-round forfeit of 1.4.2c, worked by hand."""

from __future__ import annotations

from service.engine.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from service.engine.ratings.norm_event import (
    NormSettings,
    swiss_exemption,
    zero_scoring_unrated,
)
from service.engine.ratings.norm_players import player_norms
from service.engine.ratings.norms import NormEvent, NormOpponent, check_norm


def _field(feds: list[str], games: int = 9) -> list[NormOpponent]:
    """A GM-norm field: 2480 average, 3 GMs, 6 titled, 2 points in the first 5 games
    and draws after (7/9 = 78 %, dp 220: Rp 2700)."""
    titles = ["GM", "GM", "GM", "IM", "IM", "FM", None, None, None][:games]
    return [
        NormOpponent(2480, title, fed, 2 if n < 5 else 1)
        for n, (title, fed) in enumerate(zip(titles, feds, strict=True))
    ]


def _conditions(check: object) -> dict[str, tuple[object, bool | None, str]]:
    return {c.name: (c.value, c.met, c.exempt) for c in check.conditions}  # type: ignore[attr-defined]


def test_national_championship_exempts_the_host_players() -> None:
    """1.4.3a: nine opponents all of the player's federation fail 1.4.3 (no other
    federation) and 1.4.4 (9 > 3/5 x 9 = 5.4 and > 2/3 x 9 = 6); in the national
    championship of that federation the rules are waived for its players."""
    field = _field(["ENG"] * 9)
    strict = check_norm("GM", "ENG", field)
    assert strict.met is False
    assert _conditions(strict)["own_federation"][:2] == (9, False)
    event = NormEvent(kind="national-championship", host_federation="ENG")
    exempt = check_norm("GM", "ENG", field, event=event)
    assert exempt.met is True
    figures = _conditions(exempt)
    assert figures["own_federation"] == (9, True, "1.4.3a national championship")
    assert figures["other_federations"][1:] == (True, "1.4.3a national championship")
    # A guest of another federation in that championship is not exempt.
    guest = check_norm("GM", "SCO", _field(["ENG"] * 9), event=event)
    assert _conditions(guest)["one_federation"] == (9, False, "")


def test_host_federation_unknown_is_missing() -> None:
    event = NormEvent(kind="national-team-championship")
    check = check_norm("GM", "ENG", _field(["ENG"] * 9), event=event)
    assert check.met is None
    own = next(c for c in check.conditions if c.name == "own_federation")
    assert own.missing == ("host_federation",)


def test_zonal_exempts_everyone() -> None:
    """1.4.3c: zonal and sub-zonal tournaments."""
    check = check_norm("GM", "ENG", _field(["GER"] * 9), event=NormEvent(kind="zonal"))
    assert check.met is True
    assert _conditions(check)["one_federation"] == (9, True, "1.4.3c zonal or sub-zonal tournament")


def test_team_championships_and_world_cup_need_fewer_games() -> None:
    """1.4.1b: 7 games in a 7-round Team Championship; 8 in a World Cup. Seven games
    against the GM field (titles GM GM GM IM IM FM -, 5 wins 2 draws = 6/7 = 86 %,
    dp 309: Rp 2789) are a norm there and not in an ordinary event."""
    feds = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED"]
    seven = _field(feds, games=7)
    assert check_norm("GM", "ENG", seven).met is False
    team = NormEvent(kind="team-championship", rounds=7)
    check = check_norm("GM", "ENG", seven, event=team)
    assert check.met is True
    assert _conditions(check)["games"][:2] == (7, True)
    assert _conditions(check)["performance"][:2] == (2789, True)
    # A 10-round team championship is not among 1.4.1b's: 9 games.
    assert (
        check_norm("GM", "ENG", seven, event=NormEvent("team-championship", rounds=10)).met is False
    )
    eight = _field([*feds, "NED"], games=8)
    assert check_norm("GM", "ENG", eight, event=NormEvent(kind="world-cup")).met is True


def test_eight_games_and_a_forfeit_win_in_nine_rounds() -> None:
    """1.4.1c: in a 9-round event, 8 games and a round won by forfeit (or a
    pairing-allocated bye) make a 9-game norm; without it 8 games are too few."""
    feds = ["GER", "GER", "FRA", "FRA", "ESP", "ESP", "NED", "NED"]
    eight = _field(feds, games=8)
    nine_rounds = NormEvent(rounds=9)
    assert check_norm("GM", "ENG", eight, event=nine_rounds).met is False
    check = check_norm("GM", "ENG", eight, event=nine_rounds, credited=1)
    assert check.met is True
    assert _conditions(check)["games"][:2] == (8, True)
    assert check_norm("GM", "ENG", eight, event=NormEvent(rounds=10), credited=1).met is False


def test_a_double_round_robin_needs_six_players() -> None:
    """1.4.5: a double round-robin of 5 players (8 games each) cannot give a norm."""
    check = check_norm(
        "GM", "ENG", _field(["GER"] * 9), event=NormEvent(format="double-round-robin", players=5)
    )
    assert _conditions(check)["players"] == (5, False, "")


def _swiss(byes: dict[int, ByeKind] | None = None, forfeit: bool = False) -> Tournament:
    """Round 1 of a Swiss hosted by ENG: 20 rated foreigners (GER, FRA, ESP in turn,
    the first 10 GMs) and 2 ENG players, paired 1-2, 3-4, ..."""
    players = [
        Player(
            n, rating=2300, federation=("GER", "FRA", "ESP")[n % 3], title="GM" if n <= 10 else None
        )
        for n in range(1, 21)
    ] + [Player(21, rating=2200, federation="ENG"), Player(22, rating=2200, federation="ENG")]
    byes = byes or {}
    seated = [p.start_number for p in players if p.start_number not in byes]
    games = tuple(
        Game(
            1,
            seated[i],
            seated[i + 1],
            GameResult.DOUBLE_FORFEIT if forfeit and i == 0 else GameResult.DRAW,
        )
        for i in range(0, len(seated) - 1, 2)
    )
    return Tournament(
        players=tuple(players),
        rounds=(Round(1, games, tuple(Bye(1, n, k) for n, k in byes.items())),),
        total_rounds=9,
    )


def test_the_swiss_exemption_counts_every_round() -> None:
    """1.4.3d: 20 rated non-host players of 3 federations, 10 of them GMs, in the
    round: exempt. A double forfeit leaves 18 at the boards: not. A foreigner with the
    pairing-allocated bye (21 players) is there; one absent (a zero-point bye) is not."""
    assert swiss_exemption(_swiss(), "ENG") is True
    assert swiss_exemption(_swiss(), None) is None
    assert swiss_exemption(_swiss(forfeit=True), "ENG") is False
    odd = _swiss({22: ByeKind.ZERO_POINT, 1: ByeKind.PAIRING_ALLOCATED})
    assert swiss_exemption(odd, "ENG") is True
    away = _swiss({22: ByeKind.ZERO_POINT, 1: ByeKind.ZERO_POINT})
    assert swiss_exemption(away, "ENG") is False
    # Hosted by GER, the GER players are not foreigners: 14 remain.
    assert swiss_exemption(_swiss(), "GER") is False


def test_unrated_zero_scorers_of_a_round_robin() -> None:
    """1.4.2b: an unrated player who lost every game against rated opponents."""
    players = (Player(1, rating=2400), Player(2, rating=2300), Player(3), Player(4))
    rounds = (
        Round(1, (Game(1, 1, 3, GameResult.WHITE_WINS), Game(1, 2, 4, GameResult.DRAW))),
        Round(2, (Game(2, 3, 2, GameResult.BLACK_WINS), Game(2, 4, 1, GameResult.BLACK_WINS))),
        Round(3, (Game(3, 3, 4, GameResult.WHITE_WINS),)),
    )
    assert zero_scoring_unrated(Tournament(players=players, rounds=rounds)) == {3}


def _seeker_event(results: list[tuple[int, GameResult | None]], total: int) -> Tournament:
    """Player 1 (ENG) against players 2.. in rounds 1..; a None pair is an absence."""
    feds = ["GER", "GER", "GER", "FRA", "FRA", "FRA", "ESP", "ESP", "ESP"]
    titles = ["GM", "GM", "GM", "IM", "IM", None, None, None, None]
    players = [Player(1, rating=2450, federation="ENG", sex="m")] + [
        Player(n + 2, rating=2500, federation=fed, title=title)
        for n, (fed, title) in enumerate(zip(feds, titles, strict=True))
    ]
    rounds = tuple(
        Round(number, (Game(number, 1, opponent, result),) if result else ())
        for number, (opponent, result) in enumerate(results, start=1)
    )
    return Tournament(players=tuple(players), rounds=rounds, total_rounds=total)


def test_a_last_round_forfeit_counts_as_a_loss_when_the_games_fall_short() -> None:
    """1.4.2c: 10 rounds; 8 games (5 wins, 3 draws = 6.5), an absence in round 9 and a
    forfeit win against player 10 in round 10: 8 games are too few. Counted as a game
    lost to player 10: 6.5/9 = 72 % (dp 166) on Ra 2500 gives Rp 2666, 5 titled, 3 GMs,
    three federations of 3: a GM norm."""
    win, draw = GameResult.WHITE_WINS, GameResult.DRAW
    results: list[tuple[int, GameResult | None]] = [
        (2, win), (3, win), (4, win), (5, win), (6, win), (7, draw), (8, draw), (9, draw),
        (0, None), (10, GameResult.WHITE_WINS_FORFEIT),
    ]  # fmt: skip
    gm = player_norms(_seeker_event(results, 10))[1].checks[0]
    assert gm.met is True
    figures = _conditions(gm)
    assert figures["games"][:2] == (9, True)
    assert figures["performance"][:2] == (2666, True)
    assert figures["last_round_forfeit"][:2] == (10, True)
    # The same forfeit in round 9, round 10 still to come, is only an unplayed game.
    earlier = [*results[:8], (10, GameResult.WHITE_WINS_FORFEIT)]
    gm = player_norms(_seeker_event(earlier, 10))[1].checks[0]
    assert _conditions(gm)["games"][:2] == (8, False)
    assert "last_round_forfeit" not in _conditions(gm)


def test_settings_reach_the_checks() -> None:
    """The organizer's kind, format and host federation reach the conditions."""
    win = GameResult.WHITE_WINS
    results: list[tuple[int, GameResult | None]] = [(n, win) for n in range(2, 11)]
    event = _seeker_event(results, 9)
    zonal = player_norms(event, NormSettings(kind="zonal"))[1].checks[0]
    assert _conditions(zonal)["own_federation"][2] == "1.4.3c zonal or sub-zonal tournament"


def test_a_qualifying_swiss_exempts_everyone() -> None:
    """1.4.3d reaches the conditions: nine GER opponents of an ENG player (9 > 2/3 x 9
    = 6) in a Swiss whose field qualifies; not when the field does not, nor when the
    format is not a Swiss."""
    field = _field(["GER"] * 9)
    exempt = check_norm("GM", "ENG", field, event=NormEvent(format="swiss", swiss_exemption=True))
    assert exempt.met is True
    assert _conditions(exempt)["one_federation"][2].startswith("1.4.3d Swiss event")
    plain = NormEvent(format="swiss", swiss_exemption=False)
    assert check_norm("GM", "ENG", field, event=plain).met is False
    robin = NormEvent(format="round-robin", swiss_exemption=True)
    assert check_norm("GM", "ENG", field, event=robin).met is False
