"""The live FLAMPARK accumulator (Formuła FLAMPARK: results "live"): one game result at a time,
touching only that game's two players. It always agrees with `sums.flampark_scores`
over the same games."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from service.engine.model import GameResult, Tournament
from service.engine.scoring.flampark.rules import (
    CountedGame,
    FlamparkError,
    FlamparkScore,
    Minutes,
    ShorteningError,
    check_base,
    check_minutes,
    check_rating,
)
from service.engine.scoring.flampark.sums import Sums, collect, game_sides


class FlamparkAccumulator:
    """FLAMPARK results kept up to date one game result at a time (results "live").

    Recording a result touches only the two players of that game: O(1) integer updates
    of their running sums; :meth:`ru` is then O(1) and :meth:`score` O(k) for a player's
    k games. A result recorded again for the same ``(round, white)`` replaces the earlier
    one (a correction), and ``None`` withdraws it. The results always equal
    :func:`flampark_scores` over the same games.
    """

    def __init__(self, ratings: Mapping[int, int], *, base_minutes: int) -> None:
        check_base(base_minutes)
        for number, rating in ratings.items():
            check_rating(rating, field=f"ratings[{number}]")
        self._ratings = dict(ratings)
        self._base = base_minutes
        self._games: dict[tuple[int, int], int] = {}
        self._seat: dict[tuple[int, int], tuple[int, int]] = {}
        self._counted: dict[int, dict[int, CountedGame]] = {}
        self._sums: dict[int, Sums] = {}
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
        collected = collect(tournament, shortened, base_minutes)
        acc = cls(collected.ratings, base_minutes=base_minutes)
        acc._games = collected.whites
        acc._seat = collected.seats
        for player, games in collected.counted.items():
            acc._counted[player] = {game.round: game for game in games}
            acc._sums[player] = Sums.of(games)
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
        check_minutes(shortened, self._base, field=field)
        first, second = (white, black) if white < black else (black, white)
        if shortened and self._ratings[first] < self._ratings[second]:
            raise ShorteningError(
                f"only the higher-rated player may shorten (the FLAMPARK rules): player {first} is "
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
        for player, side in game_sides(
            round, white, black, result, shortened, self._base, self._ratings
        ):
            self._counted.setdefault(player, {})[round] = side
            total = self._sums.get(player)
            if total is None:
                total = self._sums[player] = Sums()
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
