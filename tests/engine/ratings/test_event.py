"""A whole event: which games are rated, for whom, and the rows."""

from __future__ import annotations

from fractions import Fraction

from service.engine.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from service.engine.ratings.event import PlayerFacts, rate_event


def _event() -> Tournament:
    players = (
        Player(1, "A", 2000, birth_year=1990),
        Player(2, "B", 1900, birth_year=2010),
        Player(3, "C", 0),
        Player(4, "D", 1800, birth_year=1980),
    )
    rounds = (
        Round(1, (Game(1, 1, 2, GameResult.WHITE_WINS), Game(1, 3, 4, GameResult.DRAW))),
        Round(2, (Game(2, 2, 1, GameResult.WHITE_WINS_FORFEIT), Game(2, 4, 3, GameResult.DRAW))),
        Round(3, (Game(3, 1, 3, GameResult.BLACK_WINS),), (Bye(3, 2, ByeKind.FULL_POINT),)),
    )
    return Tournament(players=players, rounds=rounds)


def test_forfeits_byes_and_unrated_opponents_are_not_rated() -> None:
    """Player 1: a win over 1900 is rated; the forfeit and the loss to the unrated
    player are not. K = 20: 20 x (1 - 0.64) = 7.2."""
    facts = {1: PlayerFacts(games_before=100, reached_2400=False)}
    rows = {r.start_number: r for r in rate_event(_event(), facts, year=2026)}
    one = rows[1]
    assert (one.games, one.score, one.expected) == (1, Fraction(1), Fraction(64, 100))
    assert (one.k, one.k_rule, one.change) == (20, "standard", Fraction(72, 10))


def test_a_junior_takes_forty_from_the_file_alone_but_needs_the_2400_fact() -> None:
    rows = {r.start_number: r for r in rate_event(_event(), year=2026)}
    assert rows[2].k is None
    assert rows[2].missing == ("reached_2400",)
    facts = {2: PlayerFacts(reached_2400=False)}
    two = {r.start_number: r for r in rate_event(_event(), facts, year=2026)}[2]
    assert (two.k, two.k_rule, two.change) == (40, "junior", 40 * (0 - Fraction(36, 100)))


def test_an_unrated_player_has_no_change_and_too_few_games() -> None:
    three = {r.start_number: r for r in rate_event(_event())}[3]
    assert three.change is None
    # two draws with player 4 and the win over player 1, all rated opponents: 2/3
    assert (three.games, three.score) == (3, Fraction(2))
    assert three.initial is not None and three.initial.status == "not-enough-games"


def test_a_player_rated_2650_or_more_uses_the_whole_difference() -> None:
    """2700 draws with 1900 (800 apart): the 2700 expected 1.00 (K 10: -5.0), the 1900
    keeps the 400 limit and expected 0.08 (K 20: +8.4)."""
    event = Tournament(
        players=(Player(1, "Top", 2700), Player(2, "Club", 1900, birth_year=1980)),
        rounds=(Round(1, (Game(1, 1, 2, GameResult.DRAW),)),),
    )
    facts = {2: PlayerFacts(games_before=300, reached_2400=False)}
    top, club = rate_event(event, facts, year=2026)
    assert (top.expected, top.k, top.change) == (Fraction(1), 10, Fraction(-5))
    assert (club.expected, club.k, club.change) == (Fraction(8, 100), 20, Fraction(84, 10))
