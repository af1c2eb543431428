"""FLAMPARK scoring: game values, the tournament result PF and its rating scale Ru.

Formuła FLAMPARK ("Punktacja FLAMPARK", "Najlepsze wyniki"); docs/rules/flampark.md.
Every player's result is
the mean, over the games that count, of the game value

    value = Pc + Pt + Pb + P%

* ``Pc = (Rc - 1000) / 8``, ``Rc`` the opponent's starting rating (1000 -> 0,
  1800 -> 100, 2200 -> 150, 3000 -> 250).
* ``Pt``: the higher-rated player of a game (the lower start number) may shorten their
  own thinking time. Shortening the whole base time (increment only) is worth +25 to
  that player and -25 to the opponent; less is proportional: ``25 * minutes / base``.
* ``Pb``: +5 for black, -5 for white.
* ``P%``: 100 win, 50 draw, 0 loss; -50 for the player who forfeited.

``PF`` (the tournament result) is the mean value; ``PF = Pc + Pt + Pb + P%`` holds with
each part read as its own mean. The rating scale (the "red" table) is
``Ru = 8 * PF + 600``.

Everything is computed in exact ``Fraction``s; only :func:`display` turns a value into a
rounded ``Decimal`` for people. The text prints rounded numbers: its "0 - 5 - 25 + 0 =
-30" for a white loss to a 1001-rated player who shortened fully is exactly ``-29.875``
(``Pc = 1/8``), which :func:`display` shows as -30.

Readings taken where the text is open (pinned by tests):

* Which games count. A game counts once its result is known and the player faced an
  opponent: won, drawn or lost over the board, or forfeited by this player. A forfeit
  win, any bye and an absence do not count ("for that player the tournament is one round
  shorter"); an unfinished game does not count yet. A double forfeit counts for both
  players as a forfeit.
* The forfeited game. The text values it at -0.5 point, "equal to lowering the avoided
  opponent's rating by 400": the forfeiter's value is ``Pc - 50`` (``P% = -50``). No
  board was played, so ``Pb`` and ``Pt`` are 0 for it (the text averages the colour
  correction "over the games played"), and a shortening recorded for it has no effect.
* Who may shorten. The text names the player "with the higher own rating (the lower
  start number)" and the start list is sorted by rating, so the lower start number of a
  game is the one who may shorten; :func:`validate_shortening` rejects the shortening
  when the start list contradicts this (the lower number rated strictly below the
  higher one).
* Who records it. The player chooses it, the arbiters set it on the clocks before
  play (the FK6 report counts "skorygowanie czasu gry na zegarach" among their work),
  and it moves Pt between the two players: only the arbiter records it with a result,
  never a player's report (:func:`check_recorded_shortening`), and a forfeited game
  takes none.
* Ratings. The text requires a starting rating for every player ("from a category or
  other evidence" when a player has none), so a rating of 0 (unrated) is rejected.
* Players with no counted game have no result (PF is a mean over nothing); they are left
  out of the returned mapping.
* Ranking (:func:`rank_by_pf`): PF descending; the text gives no tie rule, equal PF is
  ordered by start number.

* The scale of Pt. The text says full shortening is worth 25 "on the scale of the whole
  tournament" and that in FK6 (10 rounds of 15') a minute was worth 0.17; both hold when
  each game's Pt is ``25 * minutes / base`` and PF averages it (25 / 15 / 10 = 0.1667).

Complexity: :func:`flampark_scores` is O(G) for G games: each side of a game adds
integers to its player's running sums (Fractions only for fractional minutes), and each
player's means are a handful of exact divisions; game values are computed on demand
(:attr:`CountedGame.value`). :class:`FlamparkAccumulator` updates the two players of one
result in O(1), gives a player's Ru in O(1) and rebuilds a player's score in O(k).
"""

from service.engine.scoring.flampark.accumulator import FlamparkAccumulator
from service.engine.scoring.flampark.rules import (
    BLACK_BONUS,
    FORFEIT_PERCENT,
    FULL_SHORTENING_POINTS,
    CountedGame,
    FlamparkError,
    FlamparkScore,
    GameValue,
    ShorteningByArbiterError,
    ShorteningError,
    best_games,
    check_recorded_shortening,
    colour_points,
    display,
    game_value,
    opponent_strength,
    pf_from_rating,
    rank_by_pf,
    rating_from_pf,
    result_percent,
    time_points,
    validate_shortening,
)
from service.engine.scoring.flampark.sums import flampark_scores

__all__ = [
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
]
