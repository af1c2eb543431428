"""FLAMPARK scoring rules (Formuła FLAMPARK, "Punktacja FLAMPARK"; docs/rules/flampark.md):
what one game is worth to each player, a player's result PF and its rating scale Ru, the
shortening check, and the rankings. How the values are summed over a tournament is in
`sums.py`; the live accumulator in `accumulator.py`. The readings taken are listed in
the package's docstring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple, TypeAlias

from service.engine.errors import EngineError
from service.engine.model import Colour, GameResult, Outcome, Tournament

Minutes: TypeAlias = Fraction | int
"""A number of minutes; Fractions allow seconds (30 s = Fraction(1, 2))."""


STRENGTH_ZERO_RATING = 1000
"""The rating whose strength Pc is 0 (Formuła FLAMPARK: Pc = (Rc - 1000) / 8)."""
RATING_POINTS_PER_PF = 8
"""Rating points per FLAMPARK point (Pc = (Rc - 1000) / 8, Ru = 8 PF + 600)."""
RU_OFFSET = 600
"""The rating of PF = 0 on the red scale (Formuła FLAMPARK: PF = (Ru - 600) / 8)."""
BLACK_BONUS = Fraction(5)
"""Pb for black; white gets its negative (Formuła FLAMPARK: "Korekta za kolor Pb")."""
FULL_SHORTENING_POINTS = Fraction(25)
"""Pt for shortening one's time to zero, "half a draw" (Formuła FLAMPARK: "Czas gry")."""
FORFEIT_PERCENT = Fraction(-50)
"""P% of the player who forfeited (Formuła FLAMPARK: "-50% - kara za oddanie walkowera")."""

PERCENT = {
    Outcome.WIN: Fraction(100),
    Outcome.DRAW: Fraction(50),
    Outcome.LOSS: Fraction(0),
    Outcome.FORFEIT_LOSS: FORFEIT_PERCENT,
}
ZERO = Fraction(0)


class FlamparkError(EngineError):
    """Input that FLAMPARK scoring cannot use; ``field`` names the offending input
    (``"base_minutes"``, ``"shortened[3,12]"``, ...)."""


class ShorteningError(FlamparkError):
    """A time shortening that the FLAMPARK rules do not allow (wrong game, too long, ...)."""


class ShorteningByArbiterError(ShorteningError):
    """A player's result report carried a time shortening: the arbiter records it
    (:func:`check_recorded_shortening`)."""


# --------------------------------------------------------------------------- parts


def opponent_strength(rating: int) -> Fraction:
    """Pc, the strength of an opponent of starting rating ``rating`` (Formuła FLAMPARK).

    ``Pc = (Rc - 1000) / 8``: 1000 -> 0, 1800 -> 100, 2200 -> 150, 3000 -> 250.
    """
    return Fraction(rating - STRENGTH_ZERO_RATING, RATING_POINTS_PER_PF)


def time_points(minutes: Minutes, base_minutes: int) -> Fraction:
    """Pt earned by shortening one's time by ``minutes`` of ``base_minutes``.

    Shortening to zero is worth 25 ("half a draw"); less is proportional. The player
    who shortens gains this much, the opponent loses it.
    """
    check_base(base_minutes)
    check_minutes(minutes, base_minutes, field="minutes")
    return FULL_SHORTENING_POINTS * Fraction(minutes) / base_minutes


def colour_points(colour: Colour) -> Fraction:
    """Pb: +5 for black, -5 for white (the text: white wins about 10 % more often)."""
    return BLACK_BONUS if colour is Colour.BLACK else -BLACK_BONUS


def result_percent(outcome: Outcome) -> Fraction:
    """P% of one game: 100 win, 50 draw, 0 loss, -50 for forfeiting.

    A forfeit win has no percentage: the game does not count for the winner.
    """
    try:
        return PERCENT[outcome]
    except KeyError:
        raise FlamparkError(
            "a forfeit win is not counted in FLAMPARK scoring", field="outcome"
        ) from None


def rating_from_pf(pf: Fraction) -> Fraction:
    """Ru on the red scale: ``Ru = 8 * PF + 600``."""
    return RATING_POINTS_PER_PF * pf + RU_OFFSET


def pf_from_rating(rating: Fraction | int) -> Fraction:
    """The inverse of :func:`rating_from_pf`: ``PF = (Ru - 600) / 8``."""
    return Fraction(rating - RU_OFFSET, RATING_POINTS_PER_PF)


def display(value: Fraction, places: int = 2) -> Decimal:
    """Round an exact value for people: ``places`` decimals, halves away from zero."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True, slots=True)
class GameValue:
    """One player's value of one game (Formuła FLAMPARK, "Najlepsze wyniki")."""

    pc: Fraction
    """Opponent's strength, ``(Rc - 1000) / 8``."""
    pt: Fraction
    """Time premium: + for the player who shortened, - for the opponent."""
    pb: Fraction
    """Colour correction: +5 black, -5 white, 0 for a forfeited game."""
    ppct: Fraction
    """Result percentage: 100 / 50 / 0, -50 for forfeiting."""

    @property
    def total(self) -> Fraction:
        """The game value ``Pc + Pt + Pb + P%``."""
        return self.pc + self.pt + self.pb + self.ppct


def game_value(
    outcome: Outcome,
    colour: Colour,
    opponent_rating: int,
    *,
    base_minutes: int | None = None,
    own_shortening: Minutes = 0,
    opponent_shortening: Minutes = 0,
) -> GameValue:
    """The value of one counted game for one player (docs/rules/flampark.md).

    ``own_shortening`` is the minutes this player cut from their own time,
    ``opponent_shortening`` the minutes the opponent cut; at most one is non-zero and
    either needs ``base_minutes``. For a forfeit loss the value is ``Pc - 50`` with no
    colour or time part (the game was not played). A forfeit win raises
    :class:`FlamparkError`: it is not counted.
    """
    if outcome is Outcome.FORFEIT_WIN:
        raise FlamparkError("a forfeit win is not counted in FLAMPARK scoring", field="outcome")
    check_rating(opponent_rating, field="opponent_rating")
    if own_shortening and opponent_shortening:
        raise ShorteningError(
            "only one player of a game may shorten their time (the FLAMPARK rules)",
            field="opponent_shortening",
        )
    pc = opponent_strength(opponent_rating)
    if outcome is Outcome.FORFEIT_LOSS:
        return GameValue(pc, ZERO, ZERO, FORFEIT_PERCENT)
    pt = ZERO
    if own_shortening or opponent_shortening:
        if base_minutes is None:
            raise ShorteningError("a shortening needs base_minutes", field="base_minutes")
        if own_shortening:
            pt = time_points(own_shortening, base_minutes)
        else:
            pt = -time_points(opponent_shortening, base_minutes)
    return GameValue(pc, pt, colour_points(colour), PERCENT[outcome])


# --------------------------------------------------------------------------- a tournament


class CountedGame(NamedTuple):
    """A game that counts for a player's FLAMPARK result, from that side.

    An immutable named tuple rather than a frozen dataclass: a large event creates one
    per side of every game, and a named tuple is built about three times faster.
    """

    round: int
    """Round number."""
    opponent: int
    """Opponent's start number."""
    colour: Colour
    """This player's colour."""
    outcome: Outcome
    """This player's outcome (never a forfeit win)."""
    opponent_rating: int
    """The opponent's starting rating Rc."""
    shortening: Minutes = 0
    """Minutes of shortening: positive when this player cut their own time, negative
    when the opponent did; 0 for a forfeited game."""
    base_minutes: int = 1
    """The base thinking time the shortening is measured against."""

    @property
    def value(self) -> GameValue:
        """The game value for this player (computed on demand, exact)."""
        pc = opponent_strength(self.opponent_rating)
        if self.outcome is Outcome.FORFEIT_LOSS:
            return GameValue(pc, ZERO, ZERO, FORFEIT_PERCENT)
        pt = FULL_SHORTENING_POINTS * Fraction(self.shortening) / self.base_minutes
        return GameValue(pc, pt, colour_points(self.colour), PERCENT[self.outcome])


@dataclass(frozen=True, slots=True)
class FlamparkScore:
    """A player's FLAMPARK result: the means of the parts over the counted games."""

    player: int
    """Start number."""
    games: tuple[CountedGame, ...]
    """The counted games in round order (at least one)."""
    pc: Fraction
    """Mean opponents' strength."""
    pt: Fraction
    """Mean time premium."""
    pb: Fraction
    """Mean colour correction."""
    ppct: Fraction
    """Mean result percentage (``100 * points / games``)."""

    @classmethod
    def from_games(cls, player: int, games: Iterable[CountedGame]) -> FlamparkScore:
        """Average the values of ``games`` (which must not be empty)."""
        ordered = tuple(sorted(games, key=lambda g: g.round))
        if not ordered:
            raise FlamparkError(f"player {player} has no counted game", field="games")
        count = len(ordered)
        values = [g.value for g in ordered]
        return cls(
            player,
            ordered,
            sum((v.pc for v in values), ZERO) / count,
            sum((v.pt for v in values), ZERO) / count,
            sum((v.pb for v in values), ZERO) / count,
            sum((v.ppct for v in values), ZERO) / count,
        )

    @property
    def games_counted(self) -> int:
        """How many games count (the player's own tournament length)."""
        return len(self.games)

    @property
    def values(self) -> tuple[GameValue, ...]:
        """The value of every counted game, in round order."""
        return tuple(g.value for g in self.games)

    @property
    def pf(self) -> Fraction:
        """The tournament result ``PF = Pc + Pt + Pb + P%``."""
        return self.pc + self.pt + self.pb + self.ppct

    @property
    def ru(self) -> Fraction:
        """The result on the rating scale, ``Ru = 8 * PF + 600``."""
        return rating_from_pf(self.pf)


def validate_shortening(
    tournament: Tournament,
    shortened: Mapping[tuple[int, int], Minutes],
    *,
    base_minutes: int,
) -> None:
    """Check time shortenings against the FLAMPARK rule; raise :class:`ShorteningError`.

    ``shortened`` maps ``(round, white start number)`` to the minutes cut by the
    player allowed to cut: the game's higher-rated player, i.e. its lower start number.
    Each key must name a game of ``tournament``; the minutes must lie in
    ``0 .. base_minutes``; and the lower start number must not be rated below the other
    player (otherwise the start list contradicts who may shorten).
    """
    check_base(base_minutes)
    games = {(rnd.number, game.white): game for rnd in tournament.rounds for game in rnd.games}
    ratings = {p.start_number: p.rating for p in tournament.players}
    for key, minutes in shortened.items():
        field = f"shortened[{key[0]},{key[1]}]"
        game = games.get(key)
        if game is None:
            raise ShorteningError(
                f"no game in round {key[0]} with player {key[1]} as white", field=field
            )
        check_minutes(minutes, base_minutes, field=field)
        first, second = sorted((game.white, game.black))
        if ratings.get(first, 0) < ratings.get(second, 0):
            raise ShorteningError(
                f"only the higher-rated player may shorten (the FLAMPARK rules): player {first} is "
                f"rated {ratings.get(first, 0)}, below player {second} "
                f"({ratings.get(second, 0)})",
                field=field,
            )


def check_recorded_shortening(
    minutes: Minutes,
    *,
    base_minutes: int,
    by_arbiter: bool,
    result: GameResult,
    ratings: tuple[int, int],
    field: str = "time_shortened_minutes",
) -> None:
    """Check a time shortening recorded with one game's result; raise
    :class:`ShorteningError` naming ``field``.

    ``ratings`` are those of the game's lower start number (who may shorten) and of
    its higher one. The rules (Formuła FLAMPARK, "Premia za szybkość gry Pt"):

    * Only the arbiter records it (:class:`ShorteningByArbiterError` for any value in a
      player's report). The higher-rated player chooses it before the game and the
      arbiters set it on the clocks (the FK6 report lists "skorygowanie czasu gry na
      zegarach" in 40 % of the games among their work), so the arbiter knows it first
      hand; and it moves Pt from one player to the other, so no player's word alone
      may set or change it.
    * It lies in ``0 .. base_minutes``.
    * A forfeited game was not played: it has no Pt, so only 0 goes with it.
    * The lower start number shortens; refused when rated below the other player (the
      start list then contradicts who is the higher-rated player).
    """
    if not by_arbiter:
        raise ShorteningByArbiterError(
            "the time shortening is the arbiter's to record (the FLAMPARK rules: the higher-rated "
            "player chooses it before the game and the arbiter sets it on the clock); "
            "report the result without time_shortened_minutes and ask the arbiter",
            field=field,
        )
    check_minutes(minutes, base_minutes, field=field)
    if minutes and result.is_forfeit:
        raise ShorteningError(
            f"a forfeited game ({result.value}) was not played and has no time premium "
            "(the FLAMPARK rules); send 0 or no shortening with it",
            field=field,
        )
    shortener, opponent = ratings
    if minutes and shortener < opponent:
        raise ShorteningError(
            "only the higher-rated player, the lower start number, may shorten their time "
            f"(the FLAMPARK rules): the lower start number is rated {shortener}, below {opponent}",
            field=field,
        )


def rank_by_pf(scores: Mapping[int, FlamparkScore]) -> list[int]:
    """Start numbers by PF, best first; equal PF by start number (a reading: the text
    gives no tie rule). Players with different numbers of games rank together."""
    return sorted(scores, key=lambda number: (-scores[number].pf, number))


def best_games(
    scores: Mapping[int, FlamparkScore], *, limit: int = 100
) -> list[tuple[int, CountedGame]]:
    """The most valuable games, ``(player, game)`` by game value (Formuła FLAMPARK, "Najlepsze
    wyniki": the 100 best games). Equal values: earlier round, then lower start number.
    A forfeited game is never listed: it was not played."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise FlamparkError(f"limit must be a non-negative integer, got {limit!r}", field="limit")
    ranked = [
        (game.value.total, game.round, player, game)
        for player, score in scores.items()
        for game in score.games
        if game.outcome is not Outcome.FORFEIT_LOSS
    ]
    ranked.sort(key=lambda item: (-item[0], item[1], item[2]))
    return [(player, game) for _, _, player, game in ranked[:limit]]


def start_ratings(tournament: Tournament) -> dict[int, int]:
    ratings: dict[int, int] = {}
    for index, player in enumerate(tournament.players):
        check_rating(player.rating, field=f"players[{index}].rating")
        ratings[player.start_number] = player.rating
    return ratings


def check_rating(rating: int, *, field: str) -> None:
    if isinstance(rating, bool) or not isinstance(rating, int) or rating <= 0:
        raise FlamparkError(
            f"FLAMPARK needs a starting rating for every player, got {rating!r}",
            field=field,
        )


def check_base(base_minutes: int) -> None:
    if isinstance(base_minutes, bool) or not isinstance(base_minutes, int) or base_minutes < 1:
        raise FlamparkError(
            f"base_minutes must be a positive whole number of minutes, got {base_minutes!r}",
            field="base_minutes",
        )


def check_minutes(minutes: Minutes, base_minutes: int, *, field: str) -> None:
    if isinstance(minutes, bool) or not isinstance(minutes, int | Fraction):
        raise ShorteningError(f"minutes must be an int or a Fraction, got {minutes!r}", field=field)
    if minutes < 0 or minutes > base_minutes:
        raise ShorteningError(
            f"a shortening must lie between 0 and the base time of {base_minutes} minutes, "
            f"got {minutes}",
            field=field,
        )
