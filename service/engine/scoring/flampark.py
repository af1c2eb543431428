"""FLAMPARK scoring: game values, the tournament result PF and its rating scale Ru.

Seed 000 ("Punktacja FLAMPARK", "Najlepsze wyniki"); SPEC 3. Every player's result is
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

Readings taken where seed 000 is open (pinned by tests):

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
* Ratings. Seed 000 requires a starting rating for every player ("from a category or
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

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple, TypeAlias

from service.engine.errors import EngineError
from service.engine.model import Colour, GameResult, Outcome, Round, Tournament

__all__ = [
    "BLACK_BONUS",
    "FORFEIT_PERCENT",
    "FULL_SHORTENING_POINTS",
    "CountedGame",
    "FlamparkAccumulator",
    "FlamparkError",
    "FlamparkScore",
    "GameValue",
    "ShorteningError",
    "best_games",
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

Minutes: TypeAlias = Fraction | int
"""A number of minutes; Fractions allow seconds (30 s = Fraction(1, 2))."""

STRENGTH_ZERO_RATING = 1000
"""The rating whose strength Pc is 0 (seed 000: Pc = (Rc - 1000) / 8)."""
RATING_POINTS_PER_PF = 8
"""Rating points per FLAMPARK point (seed 000: Pc = (Rc - 1000) / 8, Ru = 8 PF + 600)."""
RU_OFFSET = 600
"""The rating of PF = 0 on the red scale (seed 000: PF = (Ru - 600) / 8)."""
BLACK_BONUS = Fraction(5)
"""Pb for black; white gets its negative (seed 000: "Korekta za kolor Pb")."""
FULL_SHORTENING_POINTS = Fraction(25)
"""Pt for shortening one's time to zero, "half a draw" (seed 000: "Czas gry")."""
FORFEIT_PERCENT = Fraction(-50)
"""P% of the player who forfeited (seed 000: "-50% - kara za oddanie walkowera")."""

_PERCENT = {
    Outcome.WIN: Fraction(100),
    Outcome.DRAW: Fraction(50),
    Outcome.LOSS: Fraction(0),
    Outcome.FORFEIT_LOSS: FORFEIT_PERCENT,
}
_ZERO = Fraction(0)


class FlamparkError(EngineError):
    """Input that FLAMPARK scoring cannot use; ``field`` names the offending input
    (``"base_minutes"``, ``"shortened[3,12]"``, ...)."""


class ShorteningError(FlamparkError):
    """A time shortening that seed 000 does not allow (wrong game, too long, ...)."""


# --------------------------------------------------------------------------- parts


def opponent_strength(rating: int) -> Fraction:
    """Pc, the strength of an opponent of starting rating ``rating`` (seed 000).

    ``Pc = (Rc - 1000) / 8``: 1000 -> 0, 1800 -> 100, 2200 -> 150, 3000 -> 250.
    """
    return Fraction(rating - STRENGTH_ZERO_RATING, RATING_POINTS_PER_PF)


def time_points(minutes: Minutes, base_minutes: int) -> Fraction:
    """Pt earned by shortening one's time by ``minutes`` of ``base_minutes`` (seed 000).

    Shortening to zero is worth 25 ("half a draw"); less is proportional. The player
    who shortens gains this much, the opponent loses it.
    """
    _check_base(base_minutes)
    _check_minutes(minutes, base_minutes, field="minutes")
    return FULL_SHORTENING_POINTS * Fraction(minutes) / base_minutes


def colour_points(colour: Colour) -> Fraction:
    """Pb: +5 for black, -5 for white (seed 000: white wins about 10 % more often)."""
    return BLACK_BONUS if colour is Colour.BLACK else -BLACK_BONUS


def result_percent(outcome: Outcome) -> Fraction:
    """P% of one game: 100 win, 50 draw, 0 loss, -50 for forfeiting (seed 000).

    A forfeit win has no percentage: the game does not count for the winner.
    """
    try:
        return _PERCENT[outcome]
    except KeyError:
        raise FlamparkError(
            "a forfeit win is not counted in FLAMPARK scoring (seed 000)", field="outcome"
        ) from None


def rating_from_pf(pf: Fraction) -> Fraction:
    """Ru on the red scale: ``Ru = 8 * PF + 600`` (seed 000)."""
    return RATING_POINTS_PER_PF * pf + RU_OFFSET


def pf_from_rating(rating: Fraction | int) -> Fraction:
    """The inverse of :func:`rating_from_pf`: ``PF = (Ru - 600) / 8`` (seed 000)."""
    return Fraction(rating - RU_OFFSET, RATING_POINTS_PER_PF)


def display(value: Fraction, places: int = 2) -> Decimal:
    """Round an exact value for people: ``places`` decimals, halves away from zero."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True, slots=True)
class GameValue:
    """One player's value of one game (seed 000, "Najlepsze wyniki")."""

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
    """The value of one counted game for one player (seed 000; SPEC 3).

    ``own_shortening`` is the minutes this player cut from their own time,
    ``opponent_shortening`` the minutes the opponent cut; at most one is non-zero and
    either needs ``base_minutes``. For a forfeit loss the value is ``Pc - 50`` with no
    colour or time part (the game was not played). A forfeit win raises
    :class:`FlamparkError`: it is not counted.
    """
    if outcome is Outcome.FORFEIT_WIN:
        raise FlamparkError(
            "a forfeit win is not counted in FLAMPARK scoring (seed 000)", field="outcome"
        )
    _check_rating(opponent_rating, field="opponent_rating")
    if own_shortening and opponent_shortening:
        raise ShorteningError(
            "only one player of a game may shorten their time (seed 000)",
            field="opponent_shortening",
        )
    pc = opponent_strength(opponent_rating)
    if outcome is Outcome.FORFEIT_LOSS:
        return GameValue(pc, _ZERO, _ZERO, FORFEIT_PERCENT)
    pt = _ZERO
    if own_shortening or opponent_shortening:
        if base_minutes is None:
            raise ShorteningError("a shortening needs base_minutes", field="base_minutes")
        if own_shortening:
            pt = time_points(own_shortening, base_minutes)
        else:
            pt = -time_points(opponent_shortening, base_minutes)
    return GameValue(pc, pt, colour_points(colour), _PERCENT[outcome])


# --------------------------------------------------------------------------- a tournament


class CountedGame(NamedTuple):
    """A game that counts for a player's FLAMPARK result (seed 000), from that side.

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
            return GameValue(pc, _ZERO, _ZERO, FORFEIT_PERCENT)
        pt = FULL_SHORTENING_POINTS * Fraction(self.shortening) / self.base_minutes
        return GameValue(pc, pt, colour_points(self.colour), _PERCENT[self.outcome])


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
            sum((v.pc for v in values), _ZERO) / count,
            sum((v.pt for v in values), _ZERO) / count,
            sum((v.pb for v in values), _ZERO) / count,
            sum((v.ppct for v in values), _ZERO) / count,
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
    """Check time shortenings against seed 000's rule; raise :class:`ShorteningError`.

    ``shortened`` maps ``(round, white start number)`` to the minutes cut by the
    player allowed to cut: the game's higher-rated player, i.e. its lower start number.
    Each key must name a game of ``tournament``; the minutes must lie in
    ``0 .. base_minutes``; and the lower start number must not be rated below the other
    player (otherwise the start list contradicts who may shorten).
    """
    _check_base(base_minutes)
    games = {(rnd.number, game.white): game for rnd in tournament.rounds for game in rnd.games}
    ratings = {p.start_number: p.rating for p in tournament.players}
    for key, minutes in shortened.items():
        field = f"shortened[{key[0]},{key[1]}]"
        game = games.get(key)
        if game is None:
            raise ShorteningError(
                f"no game in round {key[0]} with player {key[1]} as white", field=field
            )
        _check_minutes(minutes, base_minutes, field=field)
        first, second = sorted((game.white, game.black))
        if ratings.get(first, 0) < ratings.get(second, 0):
            raise ShorteningError(
                f"only the higher-rated player may shorten (seed 000): player {first} is "
                f"rated {ratings.get(first, 0)}, below player {second} "
                f"({ratings.get(second, 0)})",
                field=field,
            )


def flampark_scores(
    tournament: Tournament,
    *,
    base_minutes: int,
    shortened: Mapping[tuple[int, int], Minutes] | None = None,
) -> dict[int, FlamparkScore]:
    """Every player's FLAMPARK result from the games played so far (seed 000; SPEC 3).

    ``base_minutes`` is the base thinking time (FK6: 15); ``shortened`` maps
    ``(round, white start number)`` to the minutes the game's lower start number cut
    from their own time. Players without a counted game are left out.
    """
    shortened = {} if shortened is None else shortened
    collected = _collect(tournament, shortened, base_minutes)
    result: dict[int, FlamparkScore] = {}
    for player in sorted(collected.counted):
        games = collected.counted[player]
        result[player] = _Sums.of(games).score(player, tuple(games), base_minutes)
    return result


def rank_by_pf(scores: Mapping[int, FlamparkScore]) -> list[int]:
    """Start numbers by PF, best first; equal PF by start number (a reading: seed 000
    gives no tie rule). Players with different numbers of games rank together."""
    return sorted(scores, key=lambda number: (-scores[number].pf, number))


def best_games(
    scores: Mapping[int, FlamparkScore], *, limit: int = 100
) -> list[tuple[int, CountedGame]]:
    """The most valuable games, ``(player, game)`` by game value (seed 000, "Najlepsze
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


# --------------------------------------------------------------------------- live


class FlamparkAccumulator:
    """FLAMPARK results kept up to date one game result at a time (seed 000: "live").

    Recording a result touches only the two players of that game: O(1) integer updates
    of their running sums; :meth:`ru` is then O(1) and :meth:`score` O(k) for a player's
    k games. A result recorded again for the same ``(round, white)`` replaces the earlier
    one (a correction), and ``None`` withdraws it. The results always equal
    :func:`flampark_scores` over the same games.
    """

    def __init__(self, ratings: Mapping[int, int], *, base_minutes: int) -> None:
        _check_base(base_minutes)
        for number, rating in ratings.items():
            _check_rating(rating, field=f"ratings[{number}]")
        self._ratings = dict(ratings)
        self._base = base_minutes
        self._games: dict[tuple[int, int], int] = {}
        self._seat: dict[tuple[int, int], tuple[int, int]] = {}
        self._counted: dict[int, dict[int, CountedGame]] = {}
        self._sums: dict[int, _Sums] = {}
        self._scores: dict[int, FlamparkScore] = {}
        self._ru: dict[int, Fraction] = {}

    @classmethod
    def from_tournament(
        cls,
        tournament: Tournament,
        *,
        base_minutes: int,
        shortened: Mapping[tuple[int, int], Minutes] | None = None,
    ) -> FlamparkAccumulator:
        """An accumulator holding every known result of ``tournament``."""
        shortened = {} if shortened is None else shortened
        collected = _collect(tournament, shortened, base_minutes)
        acc = cls(collected.ratings, base_minutes=base_minutes)
        acc._games = collected.whites
        acc._seat = collected.seats
        for player, games in collected.counted.items():
            acc._counted[player] = {game.round: game for game in games}
            acc._sums[player] = _Sums.of(games)
        return acc

    def record(
        self,
        round: int,
        white: int,
        black: int,
        result: GameResult | None,
        *,
        shortened: Minutes = 0,
    ) -> None:
        """Record (or correct, or with ``None`` withdraw) one game's result.

        ``shortened`` is the minutes the game's lower start number cut from their time.
        """
        key = (round, white)
        if white == black:
            raise FlamparkError("a player cannot play themselves", field="black")
        for player in (white, black):
            if player not in self._ratings:
                raise FlamparkError(f"unknown player {player}", field="player")
            seat = self._seat.get((round, player))
            if seat is not None and seat != key:
                raise FlamparkError(
                    f"player {player} already has a game in round {round}", field="player"
                )
        previous = self._games.get(key)
        if previous is not None and previous != black:
            raise FlamparkError(
                f"round {round}: player {white} already has white against {previous}",
                field="black",
            )
        field = f"shortened[{round},{white}]"
        _check_minutes(shortened, self._base, field=field)
        first, second = (white, black) if white < black else (black, white)
        if shortened and self._ratings[first] < self._ratings[second]:
            raise ShorteningError(
                f"only the higher-rated player may shorten (seed 000): player {first} is "
                f"rated below player {second}",
                field=field,
            )
        if previous is not None:
            self._withdraw(round, white, black)
        if result is None:
            return
        self._games[key] = black
        self._seat[(round, white)] = key
        self._seat[(round, black)] = key
        for player, side in _game_sides(
            round, white, black, result, shortened, self._base, self._ratings
        ):
            self._counted.setdefault(player, {})[round] = side
            total = self._sums.get(player)
            if total is None:
                total = self._sums[player] = _Sums()
            total.add(side, 1)
            self._forget(player)

    def score(self, player: int) -> FlamparkScore | None:
        """The player's current result, or None before their first counted game."""
        cached = self._scores.get(player)
        if cached is not None:
            return cached
        games = self._counted.get(player)
        if not games:
            return None
        ordered = tuple(games[r] for r in sorted(games))
        built = self._sums[player].score(player, ordered, self._base)
        self._scores[player] = built
        return built

    def scores(self) -> dict[int, FlamparkScore]:
        """Every player with a counted game, as :func:`flampark_scores` returns them."""
        result: dict[int, FlamparkScore] = {}
        for player in sorted(self._counted):
            score = self.score(player)
            if score is not None:
                result[player] = score
        return result

    def ru(self, player: int) -> Fraction | None:
        """The player's current Ru from the running sums (O(1)); None without games."""
        cached = self._ru.get(player)
        if cached is not None:
            return cached
        total = self._sums.get(player)
        if total is None or total.count == 0:
            return None
        value = total.ru(self._base)
        self._ru[player] = value
        return value

    def ru_map(self) -> dict[int, Fraction]:
        """Ru of every player with a counted game (the input of the progress premium)."""
        result: dict[int, Fraction] = {}
        for player in self._counted:
            value = self.ru(player)
            if value is not None:
                result[player] = value
        return result

    def _withdraw(self, round: int, white: int, black: int) -> None:
        del self._games[(round, white)]
        for player in (white, black):
            self._seat.pop((round, player), None)
            games = self._counted.get(player)
            if games is None or round not in games:
                continue
            self._sums[player].add(games.pop(round), -1)
            self._forget(player)
            if not games:
                del self._counted[player]
                del self._sums[player]

    def _forget(self, player: int) -> None:
        self._scores.pop(player, None)
        self._ru.pop(player, None)


# --------------------------------------------------------------------------- helpers


@dataclass(slots=True)
class _Collected:
    """A tournament's finished games, split into counted games per player."""

    ratings: dict[int, int]
    counted: dict[int, list[CountedGame]]
    whites: dict[tuple[int, int], int]
    """(round, white) -> black, for every finished game."""
    seats: dict[tuple[int, int], tuple[int, int]]
    """(round, player) -> (round, white) of that player's finished game."""


def _collect(
    tournament: Tournament, shortened: Mapping[tuple[int, int], Minutes], base_minutes: int
) -> _Collected:
    """Validate and gather every counted game (one pass; each player's list in round
    order). A player paired twice in a round, with themselves, or missing from the start
    list is an error."""
    validate_shortening(tournament, shortened, base_minutes=base_minutes)
    ratings = _ratings(tournament)
    counted: dict[int, list[CountedGame]] = {}
    whites: dict[tuple[int, int], int] = {}
    seats: dict[tuple[int, int], tuple[int, int]] = {}
    paired: set[tuple[int, int]] = set()
    for rnd in sorted(tournament.rounds, key=_number_of):
        number = rnd.number
        for game in rnd.games:
            white, black = game.white, game.black
            for player in (white, black):
                if player not in ratings:
                    raise FlamparkError(
                        f"round {number}: player {player} is not on the start list",
                        field="rounds",
                    )
                if (number, player) in paired:
                    raise FlamparkError(
                        f"round {number}: player {player} is paired twice", field="rounds"
                    )
                paired.add((number, player))
            if white == black:
                raise FlamparkError(
                    f"round {number}: player {white} is paired with themselves", field="rounds"
                )
            if game.result is None:
                continue
            key = (number, white)
            whites[key] = black
            seats[(number, white)] = key
            seats[(number, black)] = key
            minutes = shortened.get(key, 0) if shortened else 0
            for player, side in _game_sides(
                number, white, black, game.result, minutes, base_minutes, ratings
            ):
                games = counted.get(player)
                if games is None:
                    counted[player] = [side]
                else:
                    games.append(side)
    return _Collected(ratings, counted, whites, seats)


def _number_of(rnd: Round) -> int:
    return rnd.number


class _Sums:
    """A player's running totals in integers (Fractions only for fractional minutes)."""

    __slots__ = ("black_minus_white", "count", "minutes", "percent", "ratings")

    def __init__(self) -> None:
        self.count = 0
        self.ratings = 0
        self.black_minus_white = 0
        self.percent = 0
        self.minutes: Minutes = 0

    @classmethod
    def of(cls, games: Iterable[CountedGame]) -> _Sums:
        """The totals of ``games`` in one pass (the batch path)."""
        sums = cls()
        count = ratings = black_minus_white = percent = 0
        minutes: Minutes = 0
        for game in games:
            count += 1
            ratings += game.opponent_rating
            outcome = game.outcome
            if outcome is Outcome.FORFEIT_LOSS:
                percent += _FORFEIT_INT
                continue
            percent += _PERCENT_INT[outcome]
            black_minus_white += 1 if game.colour is Colour.BLACK else -1
            if game.shortening:
                minutes += game.shortening
        sums.count = count
        sums.ratings = ratings
        sums.black_minus_white = black_minus_white
        sums.percent = percent
        sums.minutes = minutes
        return sums

    def add(self, game: CountedGame, sign: int) -> None:
        self.count += sign
        self.ratings += sign * game.opponent_rating
        if game.outcome is Outcome.FORFEIT_LOSS:
            self.percent += sign * _FORFEIT_INT
            return
        self.percent += sign * _PERCENT_INT[game.outcome]
        self.black_minus_white += sign if game.colour is Colour.BLACK else -sign
        if game.shortening:
            self.minutes += sign * game.shortening

    def score(
        self, player: int, games: tuple[CountedGame, ...], base_minutes: int
    ) -> FlamparkScore:
        k = self.count
        return FlamparkScore(
            player,
            games,
            Fraction(self.ratings - STRENGTH_ZERO_RATING * k, RATING_POINTS_PER_PF * k),
            Fraction(_FULL_SHORTENING_INT * self.minutes, base_minutes * k),
            Fraction(_BLACK_BONUS_INT * self.black_minus_white, k),
            Fraction(self.percent, k),
        )

    def ru(self, base_minutes: int) -> Fraction:
        """``8 * PF + 600`` as one exact division (see :class:`FlamparkScore`)."""
        k = self.count
        scaled = (
            (self.ratings - STRENGTH_ZERO_RATING * k) * base_minutes
            + RATING_POINTS_PER_PF * _FULL_SHORTENING_INT * self.minutes
            + RATING_POINTS_PER_PF
            * base_minutes
            * (_BLACK_BONUS_INT * self.black_minus_white + self.percent)
            + RU_OFFSET * base_minutes * k
        )
        return Fraction(scaled, base_minutes * k)


_PERCENT_INT = {outcome: int(value) for outcome, value in _PERCENT.items()}
_FORFEIT_INT = int(FORFEIT_PERCENT)
_BLACK_BONUS_INT = int(BLACK_BONUS)
_FULL_SHORTENING_INT = int(FULL_SHORTENING_POINTS)


def _game_sides(
    round: int,
    white: int,
    black: int,
    result: GameResult,
    minutes: Minutes,
    base_minutes: int,
    ratings: Mapping[int, int],
) -> list[tuple[int, CountedGame]]:
    """The counted games one result produces (zero, one or two)."""
    white_outcome, black_outcome = _SIDES[result]
    signed: Minutes = 0
    if minutes and result.played:
        signed = minutes if white < black else -minutes
    sides: list[tuple[int, CountedGame]] = []
    if white_outcome is not Outcome.FORFEIT_WIN:
        sides.append(
            (
                white,
                CountedGame(
                    round, black, Colour.WHITE, white_outcome, ratings[black], signed, base_minutes
                ),
            )
        )
    if black_outcome is not Outcome.FORFEIT_WIN:
        sides.append(
            (
                black,
                CountedGame(
                    round, white, Colour.BLACK, black_outcome, ratings[white], -signed, base_minutes
                ),
            )
        )
    return sides


_SIDES = {
    result: (result.outcome(Colour.WHITE), result.outcome(Colour.BLACK)) for result in GameResult
}


def _ratings(tournament: Tournament) -> dict[int, int]:
    ratings: dict[int, int] = {}
    for index, player in enumerate(tournament.players):
        _check_rating(player.rating, field=f"players[{index}].rating")
        ratings[player.start_number] = player.rating
    return ratings


def _check_rating(rating: int, *, field: str) -> None:
    if isinstance(rating, bool) or not isinstance(rating, int) or rating <= 0:
        raise FlamparkError(
            f"FLAMPARK needs a starting rating for every player (seed 000), got {rating!r}",
            field=field,
        )


def _check_base(base_minutes: int) -> None:
    if isinstance(base_minutes, bool) or not isinstance(base_minutes, int) or base_minutes < 1:
        raise FlamparkError(
            f"base_minutes must be a positive whole number of minutes, got {base_minutes!r}",
            field="base_minutes",
        )


def _check_minutes(minutes: Minutes, base_minutes: int, *, field: str) -> None:
    if isinstance(minutes, bool) or not isinstance(minutes, int | Fraction):
        raise ShorteningError(f"minutes must be an int or a Fraction, got {minutes!r}", field=field)
    if minutes < 0 or minutes > base_minutes:
        raise ShorteningError(
            f"a shortening must lie between 0 and the base time of {base_minutes} minutes, "
            f"got {minutes}",
            field=field,
        )
