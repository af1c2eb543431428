"""FLAMPARK results over a tournament (docs/rules/flampark.md): the counted games gathered in
one pass and each player's running sums in integers, from which PF and Ru are a
handful of exact divisions. The rules themselves are in `rules.py`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from service.engine.model import Colour, GameResult, Outcome, Round, Tournament
from service.engine.scoring.flampark.rules import (
    BLACK_BONUS,
    FORFEIT_PERCENT,
    FULL_SHORTENING_POINTS,
    PERCENT,
    RATING_POINTS_PER_PF,
    RU_OFFSET,
    STRENGTH_ZERO_RATING,
    CountedGame,
    FlamparkError,
    FlamparkScore,
    Minutes,
    start_ratings,
    validate_shortening,
)


def flampark_scores(
    tournament: Tournament,
    *,
    base_minutes: int,
    shortened: Mapping[tuple[int, int], Minutes] | None = None,
) -> dict[int, FlamparkScore]:
    """Every player's FLAMPARK result from the games played so far.

    ``base_minutes`` is the base thinking time (FK6: 15); ``shortened`` maps
    ``(round, white start number)`` to the minutes the game's lower start number cut
    from their own time. Players without a counted game are left out.
    """
    shortened = {} if shortened is None else shortened
    collected = collect(tournament, shortened, base_minutes)
    result: dict[int, FlamparkScore] = {}
    for player in sorted(collected.counted):
        games = collected.counted[player]
        result[player] = Sums.of(games).score(player, tuple(games), base_minutes)
    return result


@dataclass(slots=True)
class _Collected:
    """A tournament's finished games, split into counted games per player."""

    ratings: dict[int, int]
    counted: dict[int, list[CountedGame]]
    whites: dict[tuple[int, int], int]
    """(round, white) -> black, for every finished game."""
    seats: dict[tuple[int, int], tuple[int, int]]
    """(round, player) -> (round, white) of that player's finished game."""


def collect(
    tournament: Tournament, shortened: Mapping[tuple[int, int], Minutes], base_minutes: int
) -> _Collected:
    """Validate and gather every counted game (one pass; each player's list in round
    order). A player paired twice in a round, with themselves, or missing from the start
    list is an error."""
    validate_shortening(tournament, shortened, base_minutes=base_minutes)
    ratings = start_ratings(tournament)
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
            for player, side in game_sides(
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


class Sums:
    """A player's running totals in integers (Fractions only for fractional minutes)."""

    __slots__ = ("black_minus_white", "count", "minutes", "percent", "ratings")

    def __init__(self) -> None:
        self.count = 0
        self.ratings = 0
        self.black_minus_white = 0
        self.percent = 0
        self.minutes: Minutes = 0

    @classmethod
    def of(cls, games: Iterable[CountedGame]) -> Sums:
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


_PERCENT_INT = {outcome: int(value) for outcome, value in PERCENT.items()}
_FORFEIT_INT = int(FORFEIT_PERCENT)
_BLACK_BONUS_INT = int(BLACK_BONUS)
_FULL_SHORTENING_INT = int(FULL_SHORTENING_POINTS)


def game_sides(
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
