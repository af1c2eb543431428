"""Domain values shared by every pairing and scoring module (results: docs/api.md#results).

Everything here is immutable and free of I/O. Players are identified by their start
number (the TRF pairing number) throughout the engine; names and ratings ride along
for the modules that need them (pairing order, performance tie-breaks, FLAMPARK).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = [
    "MAX_PLAYER_ROUNDS",
    "Bye",
    "ByeKind",
    "Colour",
    "Game",
    "GameResult",
    "Outcome",
    "Player",
    "PlayerRound",
    "PointSystem",
    "Round",
    "RoundEntryKind",
    "Tournament",
    "entry_points",
    "player_histories",
]


MAX_PLAYER_ROUNDS = 1_000_000
"""Players times rounds that a tournament read from outside (a TRF file, a compute
request) may span. The standings and the pairing walk every player in every round,
present or not (an unplayed round counts too), so a few hundred kilobytes naming a late
round for a large field would cost hours: 1,000 players over 5,000 rounds took 112 s of
standings. A 1,000-player round robin (999 rounds) spans 999,000."""


class Colour(enum.StrEnum):
    """The colour a player had in a game."""

    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Colour:
        """The opposite colour."""
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class GameResult(enum.StrEnum):
    """Result of a paired game, in the notation the API accepts (docs/api.md#resources).

    Forfeits (`+-`, `-+`, `--`) are pairings whose game was not played: FIDE counts
    them as unplayed for tie-breaks (C.07 art. 16) and does not count them as a meeting
    for the no-rematch rule (C.04.1 b reads "played"; the FIDE-endorsed engine's
    reference pairings agree).
    """

    WHITE_WINS = "1-0"
    DRAW = "1/2-1/2"
    BLACK_WINS = "0-1"
    WHITE_WINS_FORFEIT = "+-"
    BLACK_WINS_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"

    @classmethod
    def parse(cls, text: str) -> GameResult:
        """Accept the canonical notation plus the usual spellings of a draw."""
        normalised = text.strip().replace("½", "1/2").replace(" ", "")
        aliases = {"0.5-0.5": "1/2-1/2", "=-=": "1/2-1/2", "1/2": "1/2-1/2"}
        return cls(aliases.get(normalised, normalised))

    @property
    def played(self) -> bool:
        """True when the game was played over the board."""
        return self in (GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS)

    @property
    def is_forfeit(self) -> bool:
        """True for the three forfeit results."""
        return not self.played

    def outcome(self, colour: Colour) -> Outcome:
        """What the result was for the player of `colour`."""
        table = _OUTCOMES[self]
        return table[0] if colour is Colour.WHITE else table[1]


class Outcome(enum.StrEnum):
    """One player's outcome of a game."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit-win"
    FORFEIT_LOSS = "forfeit-loss"


_OUTCOMES: dict[GameResult, tuple[Outcome, Outcome]] = {
    GameResult.WHITE_WINS: (Outcome.WIN, Outcome.LOSS),
    GameResult.DRAW: (Outcome.DRAW, Outcome.DRAW),
    GameResult.BLACK_WINS: (Outcome.LOSS, Outcome.WIN),
    GameResult.WHITE_WINS_FORFEIT: (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    GameResult.BLACK_WINS_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    GameResult.DOUBLE_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
}


class ByeKind(enum.StrEnum):
    """A round in which a player has no opponent (docs/api.md#byes; TRF letters U, F, H, Z)."""

    PAIRING_ALLOCATED = "pairing-allocated"
    """Chosen by the pairing because the field is odd (TRF `U`); scores a win."""
    FULL_POINT = "full-point"
    """Requested full-point bye (TRF `F`)."""
    HALF_POINT = "half-point"
    """Requested half-point bye (TRF `H`)."""
    ZERO_POINT = "zero-point"
    """Absent, or not paired (withdrawn): TRF `Z` or blank."""

    @property
    def trf_code(self) -> str:
        """The TRF-16 result letter."""
        return _BYE_TRF[self]

    @classmethod
    def from_trf(cls, code: str) -> ByeKind:
        """Map a TRF letter (case-insensitive; blank reads as `Z`) to a bye kind."""
        letter = code.strip().upper() or "Z"
        for kind, trf in _BYE_TRF.items():
            if trf == letter:
                return kind
        raise ValueError(f"not a bye code: {code!r}")


_BYE_TRF = {
    ByeKind.PAIRING_ALLOCATED: "U",
    ByeKind.FULL_POINT: "F",
    ByeKind.HALF_POINT: "H",
    ByeKind.ZERO_POINT: "Z",
}


@dataclass(frozen=True, slots=True)
class PointSystem:
    """Points per outcome (chess 1/½/0 by default, football 3/1/0 allowed).

    Values are Fractions so that sums of halves stay exact.
    """

    win: Fraction = Fraction(1)
    """A game won over the board."""
    draw: Fraction = Fraction(1, 2)
    """A drawn game."""
    loss: Fraction = Fraction(0)
    """A game lost over the board."""
    forfeit_win: Fraction | None = None
    """A win by forfeit; `None` means the same as `win`."""
    forfeit_loss: Fraction | None = None
    """A loss by forfeit; `None` means the same as `loss`."""
    pairing_bye: Fraction | None = None
    """The pairing-allocated bye; `None` means the same as `win` (FIDE C.04.1 c)."""
    full_bye: Fraction | None = None
    """A requested full-point bye; `None` means `win`."""
    half_bye: Fraction | None = None
    """A requested half-point bye; `None` means `draw`."""
    zero_bye: Fraction = Fraction(0)
    """Absence or zero-point bye."""

    @classmethod
    def football(cls) -> PointSystem:
        """3 points a win, 1 a draw, 0 a loss (the tie-break notes' football group)."""
        return cls(win=Fraction(3), draw=Fraction(1), loss=Fraction(0))

    def for_outcome(self, outcome: Outcome) -> Fraction:
        """Points a player earns for a game outcome."""
        if outcome is Outcome.WIN:
            return self.win
        if outcome is Outcome.DRAW:
            return self.draw
        if outcome is Outcome.LOSS:
            return self.loss
        if outcome is Outcome.FORFEIT_WIN:
            return self.win if self.forfeit_win is None else self.forfeit_win
        return self.loss if self.forfeit_loss is None else self.forfeit_loss

    def for_bye(self, kind: ByeKind) -> Fraction:
        """Points a player earns for a round without an opponent."""
        if kind is ByeKind.PAIRING_ALLOCATED:
            return self.win if self.pairing_bye is None else self.pairing_bye
        if kind is ByeKind.FULL_POINT:
            return self.win if self.full_bye is None else self.full_bye
        if kind is ByeKind.HALF_POINT:
            return self.draw if self.half_bye is None else self.half_bye
        return self.zero_bye


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player; `start_number` is the pairing number (TRF 001 cols 5-8)."""

    start_number: int
    """Pairing number, 1 = top of the start list."""
    name: str = ""
    """Display name, `Lastname, Firstname` in TRF."""
    rating: int = 0
    """Rating at the start of the event; 0 = unrated."""
    fide_id: str | None = None
    """FIDE identifier, when known."""
    federation: str | None = None
    """Three-letter federation code."""
    sex: str | None = None
    """`m` / `w` as in TRF."""
    birth_year: int | None = None
    """Year of birth."""
    title: str | None = None
    """FIDE title (GM, IM, ...)."""


@dataclass(frozen=True, slots=True)
class Game:
    """A pairing of two players in one round; `result` is None until it is known."""

    round: int
    """Round number, 1-based."""
    white: int
    """Start number of the player with white."""
    black: int
    """Start number of the player with black."""
    result: GameResult | None = None
    """The result, or None while the game is unfinished."""
    table: int = 0
    """Board number, 1-based; 0 when the source gave none."""

    def colour_of(self, player: int) -> Colour:
        """Colour of `player`, who must be in this game."""
        if player == self.white:
            return Colour.WHITE
        if player == self.black:
            return Colour.BLACK
        raise ValueError(f"player {player} is not in this game")

    def opponent_of(self, player: int) -> int:
        """Start number of the other player."""
        return self.black if player == self.white else self.white


@dataclass(frozen=True, slots=True)
class Bye:
    """A player without an opponent in a round."""

    round: int
    """Round number, 1-based."""
    player: int
    """Start number."""
    kind: ByeKind
    """Why the player had no game."""


@dataclass(frozen=True, slots=True)
class Round:
    """One round's pairings."""

    number: int
    """Round number, 1-based."""
    games: tuple[Game, ...] = ()
    """Games, in table order."""
    byes: tuple[Bye, ...] = ()
    """Players without an opponent."""


class RoundEntryKind(enum.StrEnum):
    """What a player's round was, seen from that player."""

    GAME = "game"
    BYE = "bye"
    ABSENT = "absent"


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One player's view of one round: a game (with colour and outcome) or a bye."""

    round: int
    """Round number."""
    opponent: int | None
    """Opponent's start number, None for a bye or absence."""
    colour: Colour | None
    """Colour played, None without a game."""
    outcome: Outcome | None
    """Outcome of the game; None for a bye or an unfinished game."""
    bye: ByeKind | None = None
    """The bye kind when there was no game."""

    @property
    def played(self) -> bool:
        """True for a game played over the board (not forfeited, not a bye)."""
        return self.outcome in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)


@dataclass(frozen=True, slots=True)
class Tournament:
    """A whole event as the engine sees it: start list, rounds so far, settings.

    `rounds` holds rounds 1..k in order. A player with no entry in a round of
    `rounds` was absent from it (zero-point bye).
    """

    players: tuple[Player, ...]
    """The start list, in start-number order."""
    rounds: tuple[Round, ...] = ()
    """Rounds played or paired so far."""
    total_rounds: int | None = None
    """Rounds announced for the event (TRF XXR)."""
    points: PointSystem = field(default_factory=PointSystem)
    """Points per outcome."""
    name: str = ""
    """Tournament name."""
    initial_colour: Colour | None = None
    """Colour of the top player in round 1 (TRF XXC white1/black1)."""

    def player(self, start_number: int) -> Player:
        """Look a player up by start number."""
        for candidate in self.players:
            if candidate.start_number == start_number:
                return candidate
        raise KeyError(start_number)

    def history(self) -> dict[int, list[PlayerRound]]:
        """Each player's rounds in order, one entry per round (absence included)."""
        return player_histories(self.players, self.rounds)

    def scores(self) -> dict[int, Fraction]:
        """Points per player after all rounds in `rounds` (results known so far)."""
        totals = {p.start_number: Fraction(0) for p in self.players}
        for number, entries in self.history().items():
            totals[number] = sum(
                (entry_points(entry, self.points) for entry in entries), Fraction(0)
            )
        return totals


def entry_points(entry: PlayerRound, points: PointSystem) -> Fraction:
    """Points one round earned a player."""
    if entry.outcome is not None:
        return points.for_outcome(entry.outcome)
    if entry.bye is not None:
        return points.for_bye(entry.bye)
    return Fraction(0)


def player_histories(
    players: Iterable[Player], rounds: Iterable[Round]
) -> dict[int, list[PlayerRound]]:
    """Build every player's round-by-round record (absent rounds as zero-point byes)."""
    histories: dict[int, list[PlayerRound]] = {p.start_number: [] for p in players}
    for rnd in rounds:
        seen: set[int] = set()
        for game in rnd.games:
            for colour, me, them in (
                (Colour.WHITE, game.white, game.black),
                (Colour.BLACK, game.black, game.white),
            ):
                outcome = None if game.result is None else game.result.outcome(colour)
                histories.setdefault(me, []).append(PlayerRound(rnd.number, them, colour, outcome))
                seen.add(me)
        for bye in rnd.byes:
            histories.setdefault(bye.player, []).append(
                PlayerRound(rnd.number, None, None, None, bye.kind)
            )
            seen.add(bye.player)
        for number, entries in histories.items():
            if number not in seen:
                entries.append(PlayerRound(rnd.number, None, None, None, ByeKind.ZERO_POINT))
    return histories
