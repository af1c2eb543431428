"""Per-player aggregates that every tie-break reads, computed once per standings.

A tie-break must never walk the raw rounds again: `build_context` makes one pass over
the tournament and records, for every player and every round, what happened (an
`Entry`), with points held as integers in a common unit (`TieBreakContext.unit` units
= 1 point). Integer arithmetic keeps 10,000-player standings fast; values become
`Fraction`s only when a tie-break hands them back.

Every tie-break reads the columns of `PlayerData` (kinds, opponents, colours,
points, results), whatever happened in the rounds: byes, forfeits, absences and
unfinished games have column paths of their own (see `opponents.opponent_columns`),
and the `Entry` records are built only for explanations and for the reference walks
(`TieBreak.reference_raw`) the tests compare the columns with.

Readings taken here (documented once, pinned by tests):

* A game with no result yet (`Game.result is None`) counts for nothing: no points, no
  opponent, no round played. It is `Kind.PENDING`, which every tie-break skips (the
  task: "only games with a result count").
* A player missing from a round of `Tournament.rounds` was absent: a zero-point bye
  (model.Tournament docstring), category "absence" for FIDE C.07 art. 16.
* Double forfeit (`--`) is a forfeit loss for both players.
* A game or bye naming a start number that is not in the start list, or a player
  twice in one round, is an error (`TieBreakError`), not something to guess about.
* Round-robins (pre-determined pairings, C.07 2026 art. 15.2): the zero-point bye of
  an odd round-robin's free round is no round at all (`Kind.FREE`): the tie-break notes
  count a round-robin player's opponents' real scores, and an absence in a round-robin
  is a forfeit against the scheduled opponent, not a bye. A tournament is taken as a
  round-robin when asked (`round_robin=True`) or, by default, when its announced
  rounds (else rounds so far) equal one or two Berger cycles for its player count.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import compress
from math import lcm
from typing import TypeVar, cast

from service.engine.model import (
    ByeKind,
    Colour,
    GameResult,
    Outcome,
    PointSystem,
    Round,
    Tournament,
)
from service.engine.scoring.tiebreaks.errors import TieBreakError

__all__ = [
    "SKIPPED_KINDS",
    "UNPLAYED_KINDS",
    "Entry",
    "Kind",
    "PlayerData",
    "Row",
    "TieBreakContext",
    "build_context",
    "is_round_robin",
    "last_decided_round",
    "opponent_points",
]

T = TypeVar("T")


class Kind(enum.IntEnum):
    """What one round was for one player (the split FIDE C.07 art. 16.2 needs)."""

    PLAYED = 0
    """A game played over the board (win, draw or loss)."""
    FORFEIT_WIN = 1
    """Won by forfeit (C.07 art. 16.2.2)."""
    FORFEIT_LOSS = 2
    """Lost by forfeit, including a double forfeit (C.07 art. 16.2.4)."""
    PAB = 3
    """Pairing-allocated bye (C.07 art. 16.2.1)."""
    FULL_BYE = 4
    """Requested full-point bye (C.07 art. 16.2.1)."""
    HALF_BYE = 5
    """Requested half-point bye (C.07 art. 16.2.3 / 16.2.5)."""
    ZERO_BYE = 6
    """Requested zero-point bye, absence or withdrawal (C.07 art. 16.2.3 / 16.2.5)."""
    PENDING = 7
    """Paired, result not known yet: ignored by every tie-break."""
    FREE = 8
    """A round-robin's free round (odd count, the Berger tables' dummy): not a round
    for tie-break purposes, ignored by every tie-break."""


SKIPPED_KINDS = frozenset({Kind.PENDING, Kind.FREE})
"""Rounds that do not exist for tie-breaks."""


UNPLAYED_KINDS = frozenset(
    {Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS, Kind.PAB, Kind.FULL_BYE, Kind.HALF_BYE, Kind.ZERO_BYE}
)
"""Rounds that count for points but were not played over the board."""

_BYE_KIND = {
    ByeKind.PAIRING_ALLOCATED: Kind.PAB,
    ByeKind.FULL_POINT: Kind.FULL_BYE,
    ByeKind.HALF_POINT: Kind.HALF_BYE,
    ByeKind.ZERO_POINT: Kind.ZERO_BYE,
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's round, seen from that player."""

    round: int
    """Round number, 1-based."""
    kind: Kind
    """What the round was."""
    opponent: int
    """Scheduled opponent's start number (games and forfeits); 0 without one."""
    colour: int
    """+1 white, -1 black, 0 without a game."""
    points: int
    """Points earned, in context units."""
    share: int
    """The game's result on the 1/½/0 scale, in halves: 2 win, 1 draw, 0 loss.

    For byes: 2 when the bye scores a win's points, 1 a draw's, else 0.
    """


Row = tuple[Kind, int, int, int, int]
"""One player's round as the digest stores it: (kind, opponent, colour, points, share)."""


class PlayerData:
    """Everything precomputed about one player, stored by column for speed.

    Index i of every column is the participant's i-th round of the tournament.
    """

    __slots__ = (
        "_entries",
        "_own",
        "_played",
        "_sums",
        "all_played",
        "colours",
        "kinds",
        "number",
        "opponents",
        "points",
        "rating",
        "rounds",
        "score",
        "shares",
    )

    def __init__(
        self,
        number: int,
        rating: int,
        rounds: Sequence[int],
        rows: Sequence[Row],
    ) -> None:
        self.number = number
        """Start number."""
        self.rating = rating
        """Rating at the start; 0 = unrated."""
        self.rounds = rounds
        """Round numbers by index (shared by all participants)."""
        kinds, opponents, colours, points, shares = (
            zip(*rows, strict=True) if rows else ((), (), (), (), ())
        )
        self._columns(kinds, opponents, colours, points, shares)

    def _columns(
        self,
        kinds: Sequence[Kind],
        opponents: Sequence[int],
        colours: Sequence[int],
        points: Sequence[int],
        shares: Sequence[int],
        counts: tuple[int, int] | None = None,
    ) -> None:
        """Store the columns; `counts` (score, rounds played over the board) when the
        caller knows them already (a patched digest), else they are counted."""
        self.kinds: tuple[Kind, ...] = tuple(kinds)
        """What each round was."""
        self.opponents: tuple[int, ...] = tuple(opponents)
        """Scheduled opponent per round; 0 without one."""
        self.colours: tuple[int, ...] = tuple(colours)
        """+1 white, -1 black, 0 without a game."""
        self.points: tuple[int, ...] = tuple(points)
        """Points earned per round (context units)."""
        self.shares: tuple[int, ...] = tuple(shares)
        """Result per round in halves (see `Entry.share`)."""
        score, played = (
            (sum(self.points), self.kinds.count(Kind.PLAYED)) if counts is None else counts
        )
        self.score: int = score
        """Total points in context units (pending games count nothing)."""
        self._played = played
        self.all_played: bool = played == len(self.kinds)
        """True when every round is a game played over the board (the shortest paths)."""
        self._entries: list[Entry] | None = None
        self._own: dict[str, object] = {}
        self._sums: dict[str, tuple[int, Callable[[Row], int]]] = {}

    def patched(self, rounds: Sequence[int], rows: dict[int, Row]) -> PlayerData:
        """This player with the rounds at the indexes of `rows` replaced (a digest
        brought forward: O(rounds) in C-level copies, not a Python pass per round);
        `rounds`, the round numbers, are as many as before. The score, the count of
        rounds played and the sums kept with `own_sum` move by the changed rounds alone."""
        kinds, points, shares = list(self.kinds), list(self.points), list(self.shares)
        score, played = self.score, self._played
        before = [self.row(index) for index in rows] if self._sums else []
        repaired = False
        for index, (kind, opponent, colour, earned, share) in rows.items():
            score += earned - points[index]
            played += (kind == Kind.PLAYED) - (kinds[index] == Kind.PLAYED)
            kinds[index], points[index], shares[index] = kind, earned, share
            repaired = repaired or (
                opponent != self.opponents[index] or colour != self.colours[index]
            )
        opponents: Sequence[int] = self.opponents  # results alone: the pairs are kept
        colours: Sequence[int] = self.colours
        if repaired:
            opponents, colours = list(self.opponents), list(self.colours)
            for index, (_, opponent, colour, _, _) in rows.items():
                opponents[index], colours[index] = opponent, colour
        player = PlayerData.__new__(PlayerData)
        player.number, player.rating, player.rounds = self.number, self.rating, rounds
        player._columns(kinds, opponents, colours, points, shares, (score, played))
        after = rows.values()
        for key, (value, term) in self._sums.items():
            moved = value + sum(map(term, after)) - sum(map(term, before))
            player._sums[key] = (moved, term)
        return player

    def row(self, index: int) -> Row:
        """The round at `index` as a `Row`."""
        return (
            self.kinds[index],
            self.opponents[index],
            self.colours[index],
            self.points[index],
            self.shares[index],
        )

    def own_sum(
        self,
        key: str,
        term: Callable[[Row], int],
        compute: Callable[[PlayerData], int] | None = None,
    ) -> int:
        """The sum of `term` over the player's rounds (`compute`, when given, gives the
        same from the columns, faster): kept with the digest as `own` keeps its values,
        and brought forward by `patched` at the changed rounds alone, so a player whose
        result moved does not pay a pass over every round. Same reading as `own`:
        `term` may read the context's reading, never other players."""
        kept = self._sums.get(key)
        if kept is not None:
            return kept[0]
        if compute is not None:
            value = compute(self)
        else:
            rows = zip(
                self.kinds, self.opponents, self.colours, self.points, self.shares, strict=True
            )
            value = sum(map(term, rows))
        self._sums[key] = (value, term)
        return value

    def own(self, key: str, compute: Callable[[PlayerData], T]) -> T:
        """A value computed from this player's own columns and the context's reading
        (point system, edition, round-robin or not), computed once per digest: a
        context brought forward keeps the digest of a player whose rounds did not
        change only under the same reading (`build_context(previous=)`), so the value
        holds there too. Never for values that read other players (their scores)."""
        if key not in self._own:
            self._own[key] = compute(self)
        return cast(T, self._own[key])

    @property
    def entries(self) -> list[Entry]:
        """The rounds as `Entry` records (built on first use; explanations, references)."""
        if self._entries is None:
            self._entries = [
                Entry(self.rounds[i], k, o, c, p, s)
                for i, (k, o, c, p, s) in enumerate(
                    zip(
                        self.kinds,
                        self.opponents,
                        self.colours,
                        self.points,
                        self.shares,
                        strict=True,
                    )
                )
            ]
        return self._entries


@dataclass(frozen=True, slots=True)
class TieBreakContext:
    """The tournament digested for tie-breaks; shared by every tie-break module."""

    players: dict[int, PlayerData]
    """Players by start number, in start-number order."""
    unit: int
    """Context units per point (the least common denominator of the point system)."""
    win: int
    """A win's points in units."""
    draw: int
    """A draw's points in units."""
    loss: int
    """A loss's points in units."""
    rounds: int
    """Number of rounds in the tournament so far (`len(tournament.rounds)`)."""
    total_rounds: int
    """Rounds announced for the event (`Tournament.total_rounds`, else `rounds`)."""
    edition: str
    """FIDE C.07 edition: "2026" (default) or "2024"."""
    round_robin: bool = False
    """True for pre-determined pairings (C.07 2026 art. 15.2)."""
    memo: dict[str, object] = field(default_factory=dict)
    """Derived aggregates shared between tie-breaks (adjusted scores, ...)."""
    source: Tournament | None = field(default=None, compare=False, repr=False)
    """The tournament digested, for `build_context(..., previous=)`."""
    by_round: tuple[dict[int, Row], ...] = field(default=(), compare=False, repr=False)
    """Each round's rows by start number, for `build_context(..., previous=)`."""
    decided: tuple[bool, ...] = field(default=(), compare=False, repr=False)
    """Per round (by index), whether any of its games has a result: kept for the rounds
    a digest brought forward did not touch, so `last_decided_round` never rescans a
    large round-robin's unplayed schedule (79,800 games at 400 players)."""

    def last_decided_round(self) -> int:
        """The highest round number with a game result; 0 before the first result."""
        assert self.source is not None, "a digest built by build_context"
        return last_decided_round(self.source.rounds, self.decided)

    def cached(self, key: str, compute: Callable[[], T]) -> T:
        """Compute a derived aggregate once per context."""
        if key not in self.memo:
            self.memo[key] = compute()
        return cast(T, self.memo[key])

    def fraction(self, value: int | Fraction) -> Fraction:
        """Convert a value in units to points (a Fraction of units: DE's averaged
        mini-table scores)."""
        return Fraction(value, self.unit)

    def fraction2(self, value: int) -> Fraction:
        """Convert a value in units x units (a product of two scores) to points."""
        return Fraction(value, self.unit * self.unit)


def opponent_points(
    pd: PlayerData, kinds: frozenset[Kind]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The player's opponents and points in the rounds of `kinds`, in round order, as
    two columns: read from the player's own rounds, so kept with the digest
    (`PlayerData.own`)."""

    def collect(data: PlayerData) -> tuple[tuple[int, ...], tuple[int, ...]]:
        counted = list(map(kinds.__contains__, data.kinds))
        return tuple(compress(data.opponents, counted)), tuple(compress(data.points, counted))

    return pd.own(_opponent_points_key(kinds), collect)


@cache
def _opponent_points_key(kinds: frozenset[Kind]) -> str:
    """The memo key of `opponent_points` for `kinds` (made once: spelling the kinds out
    for every player of every read cost 3 % of a live reader's time)."""
    return f"opponent points {sorted(kinds)}"


def _unit_of(points: PointSystem) -> int:
    values = [
        points.win,
        points.draw,
        points.loss,
        points.zero_bye,
        *(
            v
            for v in (
                points.forfeit_win,
                points.forfeit_loss,
                points.pairing_bye,
                points.full_bye,
                points.half_bye,
            )
            if v is not None
        ),
    ]
    unit = 1
    for value in values:
        unit = lcm(unit, Fraction(value).denominator)
    return unit


def _units(value: Fraction, unit: int) -> int:
    scaled = Fraction(value) * unit
    assert scaled.denominator == 1, "unit is a common denominator of every point value"
    return scaled.numerator


def is_round_robin(tournament: Tournament) -> bool:
    """Detect pre-determined (Berger) pairings from the shape of the event.

    True when the announced rounds (else the rounds so far) are one or two cycles for
    the player count (n - 1 or 2(n - 1) for even n, n or 2n for odd n), no bye other
    than the zero-point "free" round occurs, and no pair has met more often than
    there are cycles. A Swiss event of that exact length with only such rounds is
    indistinguishable; pass `round_robin=False` for it.
    """
    n = len(tournament.players)
    rounds = tournament.total_rounds or len(tournament.rounds)
    if n < 3:
        return False
    cycle = n - 1 if n % 2 == 0 else n
    if rounds not in (cycle, 2 * cycle):
        return False
    cycles = rounds // cycle
    meetings: dict[tuple[int, int], int] = {}
    for rnd in tournament.rounds:
        if any(bye.kind is not ByeKind.ZERO_POINT for bye in rnd.byes):
            return False
        for game in rnd.games:
            pair = (min(game.white, game.black), max(game.white, game.black))
            meetings[pair] = meetings.get(pair, 0) + 1
            if meetings[pair] > cycles:
                return False
    return True


def build_context(
    tournament: Tournament,
    edition: str = "2026",
    round_robin: bool | None = None,
    *,
    previous: TieBreakContext | None = None,
) -> TieBreakContext:
    """Digest a tournament in one pass over its rounds (O(players x rounds)).

    Each round becomes a map from start number to the player's row; every player's
    columns are then read across the maps (a player missing from one was absent).

    `previous`, the context of an earlier state of the same tournament (same players,
    point system and reading), makes the pass incremental: a round that is the very
    object the previous tournament held keeps its map, and a player whose rows did not
    change keeps its columns, so one more result costs O(rounds) instead of
    O(players x rounds) (the live table of a 400-player round-robin after each result).
    """
    if round_robin is None:
        round_robin = is_round_robin(tournament)
    free_kind = Kind.FREE if round_robin else Kind.ZERO_BYE
    ps = tournament.points
    unit = _unit_of(ps)
    win = _units(ps.win, unit)
    draw = _units(ps.draw, unit)
    loss = _units(ps.loss, unit)
    bye_points = {kind: _units(ps.for_bye(kind), unit) for kind in ByeKind}
    absent_points = bye_points[ByeKind.ZERO_POINT]
    round_numbers = [rnd.number for rnd in tournament.rounds]

    absent: Row = (free_kind, 0, 0, absent_points, 0)
    # result (None while unfinished) -> (kind, points, share), as white and as black
    pending = (Kind.PENDING, 0, 0)
    white_rows: dict[GameResult | None, tuple[Kind, int, int]] = {None: pending}
    black_rows: dict[GameResult | None, tuple[Kind, int, int]] = {None: pending}
    for result in GameResult:
        white_rows[result] = _game_entry(result, True, ps, unit)
        black_rows[result] = _game_entry(result, False, ps, unit)
    bye_rows: dict[ByeKind, Row] = {}
    for bye_kind, pts in bye_points.items():
        share = 2 if pts == win else 1 if pts == draw and pts != loss else 0
        kind = _BYE_KIND[bye_kind]
        bye_rows[bye_kind] = (free_kind if kind is Kind.ZERO_BYE else kind, 0, 0, pts, share)
    ratings = {p.start_number: p.rating for p in tournament.players}

    old_rounds, old_maps, old_players, old_decided = _reusable(
        previous, tournament, edition, round_robin
    )
    # One map per round (start number -> row); a player missing from it was absent.
    by_round: list[dict[int, Row]] = []
    decided: list[bool] = []
    # Brought forward: per player whose rows changed, the new row at each round index.
    changed: dict[int, dict[int, Row]] = {}
    for index, rnd in enumerate(tournament.rounds):
        if index < len(old_rounds):
            if old_rounds[index] is rnd:
                by_round.append(old_maps[index])
                decided.append(old_decided[index])
                continue
            patched = _patched_round(
                old_rounds[index], rnd, old_maps[index], index, white_rows, black_rows, changed
            )
            if patched is not None:
                by_round.append(patched)
                unchanged = patched is old_maps[index]
                decided.append(old_decided[index] if unchanged else _has_result(rnd))
                continue
        found: dict[int, Row] = {}
        for game in rnd.games:
            white, black = game.white, game.black
            kind, pts, share = white_rows[game.result]
            found[white] = (kind, black, 1, pts, share)
            kind, pts, share = black_rows[game.result]
            found[black] = (kind, white, -1, pts, share)
        for bye in rnd.byes:
            found[bye.player] = bye_rows[bye.kind]
        if len(found) != 2 * len(rnd.games) + len(rnd.byes) or not found.keys() <= ratings.keys():
            _raise_first_error(rnd.number, rnd, ratings)
        if index < len(old_maps):
            before = old_maps[index]
            for n in found.keys() | before.keys():
                row = found.get(n, absent)
                if row != before.get(n, absent):
                    changed.setdefault(n, {})[index] = row
        by_round.append(found)
        decided.append(_has_result(rnd))
    count = len(round_numbers)
    same_rounds = bool(old_players) and len(old_rounds) == count
    players: dict[int, PlayerData] = {}
    for number in sorted(ratings):
        if same_rounds:
            rows_changed = changed.get(number)
            old = old_players[number]
            players[number] = (
                old if rows_changed is None else old.patched(round_numbers, rows_changed)
            )
            continue
        rows = [found.get(number, absent) for found in by_round]
        players[number] = PlayerData(number, ratings[number], round_numbers, rows)
    return TieBreakContext(
        players=players,
        unit=unit,
        win=win,
        draw=draw,
        loss=loss,
        rounds=count,
        total_rounds=max(tournament.total_rounds or 0, count),
        edition=edition,
        round_robin=round_robin,
        source=tournament,
        by_round=tuple(by_round),
        decided=tuple(decided),
    )


def _has_result(rnd: Round) -> bool:
    """Whether any game of the round has a result."""
    return any(game.result is not None for game in rnd.games)


def last_decided_round(rounds: Sequence[Round], decided: Sequence[bool] | None = None) -> int:
    """The highest number among `rounds` with a game result (0 before the first);
    `decided`, when given, says per round whether it has one (`TieBreakContext.decided`)
    instead of its games being looked at."""
    flags = map(_has_result, rounds) if decided is None else decided
    return max((rnd.number for rnd in compress(rounds, flags)), default=0)


def _patched_round(
    before: Round,
    rnd: Round,
    rows: dict[int, Row],
    index: int,
    white_rows: dict[GameResult | None, tuple[Kind, int, int]],
    black_rows: dict[GameResult | None, tuple[Kind, int, int]],
    changed: dict[int, dict[int, Row]],
) -> dict[int, Row] | None:
    """The map of `rnd` from the map of `before`, an earlier state of the same round
    (the same byes and the same pairs, board by board) in which only results moved:
    a copy with the rows of the games whose result changed, each recorded in `changed`
    by player and round index. None when the pairs or byes differ (the round is
    digested anew)."""
    games, old_games = rnd.games, before.games
    if len(games) != len(old_games) or not (rnd.byes is before.byes or rnd.byes == before.byes):
        return None
    found: dict[int, Row] | None = None
    for game, old in zip(games, old_games, strict=True):
        if game is old:
            continue
        white, black = game.white, game.black
        if white != old.white or black != old.black:
            return None
        if game.result == old.result:
            continue
        if found is None:
            found = dict(rows)
        kind, pts, share = white_rows[game.result]
        row: Row = (kind, black, 1, pts, share)
        found[white] = changed.setdefault(white, {})[index] = row
        kind, pts, share = black_rows[game.result]
        row = (kind, white, -1, pts, share)
        found[black] = changed.setdefault(black, {})[index] = row
    return rows if found is None else found


def _reusable(
    previous: TieBreakContext | None, tournament: Tournament, edition: str, round_robin: bool
) -> tuple[tuple[Round, ...], tuple[dict[int, Row], ...], dict[int, PlayerData], tuple[bool, ...]]:
    """What `previous` digested (its rounds, their maps, its players, which rounds had a
    result) when it is an earlier state of this tournament under the same reading: the
    same start list and ratings, point system and announced rounds; nothing otherwise."""
    if previous is None or previous.source is None:
        return (), (), {}, ()
    before = previous.source
    same = (
        previous.edition == edition
        and previous.round_robin == round_robin
        and before.points == tournament.points
        and before.total_rounds == tournament.total_rounds
        and (before.players is tournament.players or before.players == tournament.players)
    )
    if not same:
        return (), (), {}, ()
    return before.rounds, previous.by_round, previous.players, previous.decided


def _raise_first_error(number: int, rnd: Round, known: dict[int, int]) -> None:
    """Name the first start number of a round that is unknown or seen twice."""
    seen: set[int] = set()
    names = [n for game in rnd.games for n in (game.white, game.black)]
    for player in (*names, *(bye.player for bye in rnd.byes)):
        if player not in known:
            raise TieBreakError(
                f"round {number} has start number {player}, who is not in the start list"
            )
        if player in seen:
            raise TieBreakError(f"player {player} appears more than once in round {number}")
        seen.add(player)


def _game_entry(
    result: GameResult, white: bool, ps: PointSystem, unit: int
) -> tuple[Kind, int, int]:
    outcome = result.outcome(Colour.WHITE if white else Colour.BLACK)
    pts = _units(ps.for_outcome(outcome), unit)
    if outcome is Outcome.WIN:
        return Kind.PLAYED, pts, 2
    if outcome is Outcome.DRAW:
        return Kind.PLAYED, pts, 1
    if outcome is Outcome.LOSS:
        return Kind.PLAYED, pts, 0
    if outcome is Outcome.FORFEIT_WIN:
        return Kind.FORFEIT_WIN, pts, 2
    return Kind.FORFEIT_LOSS, pts, 0
