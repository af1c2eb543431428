"""The games an event counts for ratings and norms: those played over the board.

Forfeits and byes are not rated (B.02, 2024, art. 5.1) and are not games for norms
(B.01 1.4.2c); a game counts 1, 1/2 or 0 whatever points the event itself awards (a
football scoring changes the standings, not the ratings)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from service.engine.model import Colour, Outcome, Tournament

__all__ = ["PlayedGame", "played_games"]

_HALVES = {Outcome.WIN: 2, Outcome.DRAW: 1, Outcome.LOSS: 0}


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One game a player played over the board."""

    round: int
    opponent: int
    """The opponent's start number."""
    halves: int
    """The player's score in half points: 2, 1 or 0."""


def played_games(tournament: Tournament) -> dict[int, list[PlayedGame]]:
    """Every player's games played over the board, in round order (players without
    one are absent)."""
    games: dict[int, list[PlayedGame]] = defaultdict(list)
    for rnd in tournament.rounds:
        for game in rnd.games:
            if game.result is None or not game.result.played:
                continue
            for player, colour in ((game.white, Colour.WHITE), (game.black, Colour.BLACK)):
                halves = _HALVES[game.result.outcome(colour)]
                games[player].append(PlayedGame(rnd.number, game.opponent_of(player), halves))
    return dict(games)
