"""Each game's share of a rated player's rating change (FIDE B.02, 2024, art. 8.3):
PD from table 8.1.2 with the 400-point rule of 8.3.1 and K x (W - PD), game by game
(docs/rules/ratings.md#per-game).

A game that is not rated says why: not played over the board (5.1: a forfeit), a
rated player's game against an unrated opponent (8.3.1), an unrated player's game (the
player gets an initial rating, 8.2, not a change), or no result yet. Byes are no
games and are not listed."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from service.engine.model import Colour, GameResult, Outcome, Tournament
from service.engine.ratings.change import expected_score

__all__ = ["GameChange", "game_changes"]

_SCORE = {Outcome.WIN: Fraction(1), Outcome.DRAW: Fraction(1, 2), Outcome.LOSS: Fraction(0)}


@dataclass(frozen=True, slots=True)
class GameChange:
    """One game of a player and what it did to the rating."""

    round: int
    opponent: int
    """The opponent's start number."""
    colour: Colour
    result: str | None
    """The confirmed result (`1-0`, `+--`, ...); None: none confirmed yet."""
    score: Fraction | None
    """The player's score in a rated game (1, 1/2, 0)."""
    expected: Fraction | None
    """PD of a rated game (table 8.1.2, after the 400-point rule)."""
    change: Fraction | None
    """K x (score - PD); None when the game is unrated or K undecided."""
    rated: bool
    reason: str | None
    """Why the game is not rated: `pending`, `forfeit`, `unrated-opponent`,
    `unrated-player`; None for a rated game."""


def game_changes(tournament: Tournament, start_number: int, k: int | None) -> list[GameChange]:
    """The games of the player numbered `start_number` in round order, each rated one
    with PD and (given K, the event's after the 700 cap) its change."""
    ratings = {p.start_number: p.rating for p in tournament.players}
    own = ratings[start_number]
    lines: list[GameChange] = []
    for rnd in sorted(tournament.rounds, key=lambda r: r.number):
        for game in rnd.games:
            if start_number not in (game.white, game.black):
                continue
            colour = game.colour_of(start_number)
            opponent = game.opponent_of(start_number)
            result = None if game.result is None else str(game.result)
            reason = _unrated_reason(game.result, own, ratings[opponent])
            if reason is not None or game.result is None:
                lines.append(
                    GameChange(
                        rnd.number, opponent, colour, result, None, None, None, False, reason
                    )
                )
                continue
            score = _SCORE[game.result.outcome(colour)]
            expected = expected_score(own, ratings[opponent])
            change = None if k is None else k * (score - expected)
            lines.append(
                GameChange(
                    rnd.number, opponent, colour, result, score, expected, change, True, None
                )
            )
    return lines


def _unrated_reason(result: GameResult | None, own: int, opponent: int) -> str | None:
    """Why a game is not rated, or None."""
    if result is None:
        return "pending"
    if not result.played:
        return "forfeit"
    if not own:
        return "unrated-player"
    if not opponent:
        return "unrated-opponent"
    return None
