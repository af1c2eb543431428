"""Each game's share of the change, and why a game is not rated (B.02 5.1, 8.3)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from service.engine.model import Colour, Game, GameResult, Player, Round, Tournament
from service.engine.ratings.changes import rating_changes
from service.engine.ratings.event import PlayerFacts, rate_event
from service.engine.ratings.per_game import game_changes
from service.engine.trf import parse_trf


def _event() -> Tournament:
    players = (Player(1, "A", 2000), Player(2, "B", 1900), Player(3, "C", 0), Player(4, "D", 1500))
    rounds = (
        Round(1, (Game(1, 1, 2, GameResult.DRAW), Game(1, 3, 4, GameResult.WHITE_WINS))),
        Round(2, (Game(2, 4, 1, GameResult.WHITE_WINS), Game(2, 2, 3, GameResult.DRAW))),
        Round(3, (Game(3, 3, 1, GameResult.BLACK_WINS_FORFEIT), Game(3, 2, 4, None))),
        Round(4, (Game(4, 1, 3, GameResult.WHITE_WINS), Game(4, 4, 2, GameResult.BLACK_WINS))),
    )
    return Tournament(players=players, rounds=rounds)


def test_each_rated_game_and_the_reason_of_the_others() -> None:
    """Player 1 (2000, K 20): a draw with 1900 (D 100, PD 0.64: 20 x -0.14 = -2.8), a
    loss to 1500 (D 500 counted 400, PD 0.92: 20 x -0.92 = -18.4), a forfeit win and
    a win over an unrated player, neither rated."""
    lines = game_changes(_event(), 1, 20)
    assert [(g.round, g.opponent, g.colour) for g in lines] == [
        (1, 2, Colour.WHITE),
        (2, 4, Colour.BLACK),
        (3, 3, Colour.BLACK),
        (4, 3, Colour.WHITE),
    ]
    assert [(g.rated, g.reason) for g in lines] == [
        (True, None),
        (True, None),
        (False, "forfeit"),
        (False, "unrated-opponent"),
    ]
    assert [(g.score, g.expected, g.change) for g in lines[:2]] == [
        (Fraction(1, 2), Fraction(64, 100), Fraction(-28, 10)),
        (Fraction(0), Fraction(92, 100), Fraction(-184, 10)),
    ]
    assert lines[2].result == "-+"


def test_the_games_add_up_to_the_events_change() -> None:
    facts = {n: PlayerFacts(k=20) for n in (1, 2, 4)}
    for row in rate_event(_event(), facts):
        if not row.rating:
            continue
        lines = game_changes(_event(), row.start_number, row.k)
        assert sum((g.change for g in lines if g.change is not None), Fraction(0)) == row.change


def test_pending_unrated_player_and_undecided_k() -> None:
    two = game_changes(_event(), 2, None)
    assert [(g.round, g.rated, g.reason) for g in two] == [
        (1, True, None),
        (2, False, "unrated-opponent"),
        (3, False, "pending"),
        (4, True, None),
    ]
    assert two[0].expected == Fraction(36, 100) and two[0].change is None
    assert {g.reason for g in game_changes(_event(), 3, 40)} == {"unrated-player", "forfeit"}


def test_the_changes_alone_are_the_rating_reports_figures() -> None:
    """`rating_changes` (no norms) gives `rate_event`'s figures for every rated player
    of the 40 tie-break reference events, with and without K facts."""
    folder = Path(__file__).resolve().parents[2] / "data" / "tiebreaks"
    compared = 0
    for path in sorted(folder.glob("t-f*.trf")):
        event = parse_trf(path.read_text()).tournament
        for facts in ({}, {p.start_number: PlayerFacts(k=40) for p in event.players[::2]}):
            changes = rating_changes(event, facts, year=2026)
            for row in rate_event(event, facts, year=2026):
                mine = changes[row.start_number]
                assert (mine.games, mine.score, mine.expected, mine.k, mine.k_rule) == (
                    row.games,
                    row.score,
                    row.expected,
                    row.k,
                    row.k_rule,
                )
                assert (mine.change, mine.performance, mine.missing) == (
                    row.change,
                    row.performance,
                    row.missing,
                )
                compared += 1
    assert compared == 2 * 396
    assert rating_changes(_event()).keys() == {1, 2, 4}  # the unrated player is absent
