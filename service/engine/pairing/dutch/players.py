"""What the Dutch system needs to know about each player before a round is paired.

FIDE C.04.3 (2026 edition) art. 1 (definitions) read on the tournament history:

- art. 1.2 order: score (with acceleration virtual points, C.04.5), then pairing
  number. The pairing number used for colours and ties is the player's position
  among the players who take part in the pairing history (players who never took
  part in a pairing and are not paired now do not occupy a number).
- art. 1.4.2 / 1.4.3 floats: a played or forfeited game between different scores
  gives the higher player a downfloat and the lower an upfloat; scoring more than a
  loss without playing (a bye of any kind, a forfeit win) is a downfloat.
- art. 1.6 / 1.7 colour difference and preferences, from played games only
  (C.04.1: a forfeited game is not a played game).
- C.04.1 d (2026 reading): a player who already scored a win without playing (PAB,
  forfeit win, full-point bye) cannot receive the pairing-allocated bye. The 2017
  rules exclude only the PAB and forfeit wins (rounds in which the player was paired).
- C.04.1 b: players who played each other cannot meet again; forbidden pairs (XXP)
  are treated the same way.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

from service.engine.model import (
    ByeKind,
    Colour,
    GameResult,
    Outcome,
    PlayerRound,
    Tournament,
    entry_points,
)

__all__ = ["Float", "RoundRecord", "SwissPlayer", "build_players", "float_of", "scaled"]


class Float(enum.IntEnum):
    """Float direction of a player in a past round (C.04.3 art. 1.4)."""

    DOWN = 0
    UP = 1
    NONE = 2


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One past round of one player, reduced to what pairing needs."""

    opponent: int | None
    """Opponent's start number for a paired game (played or forfeited)."""
    colour: Colour | None
    """Colour in a played game; None otherwise."""
    points: Fraction
    """Points the round earned."""
    played: bool
    """The game was played over the board."""
    paired: bool
    """The player took part in the pairing (a game, forfeited or not, or the PAB)."""


@dataclass(slots=True)
class SwissPlayer:
    """A player as the Dutch pairing sees them before the round."""

    number: int
    """Start number (TRF pairing number)."""
    rank: int
    """Effective 0-based pairing number (art. 1.2.2) among players in the pairing."""
    records: list[RoundRecord]
    """Past rounds, round 1 first."""
    score: Fraction
    """Points without acceleration."""
    accelerations: Sequence[Fraction]
    """Virtual points per round (index 0 = round 1), C.04.5."""
    forbidden: set[int]
    """Start numbers this player may not meet (played opponents, XXP pairs)."""
    played_games: int = 0
    """Games played over the board."""
    imbalance: int = 0
    """|whites - blacks| over played games."""
    preference: Colour | None = None
    """Colour preference (art. 1.7), None when the player has none."""
    repeated: Colour | None = None
    """The colour of the last two played games when they were the same, else None."""
    strong: bool = False
    """Strong (non-absolute) colour preference: colour difference of one."""
    bye_eligible: bool = True
    """May receive the pairing-allocated bye (C.04.1 d)."""
    before: list[Fraction] = field(default_factory=list)
    """Points without acceleration before each round (index r: after r rounds), so that
    the score as it stood some rounds ago is read, not summed again (`acc_score`)."""

    @property
    def absolute_imbalance(self) -> bool:
        """Colour difference beyond +-1 (art. 1.7.1, first half)."""
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        """Absolute colour preference (art. 1.7.1)."""
        return self.imbalance > 1 or self.repeated is not None

    def acc_score(self, rounds_back: int = 0) -> Fraction:
        """Score with acceleration as it stood `rounds_back` rounds ago (art. 1.2.1)."""
        index = len(self.records) - rounds_back
        if 0 <= index < len(self.before):
            score = self.before[index]
        else:
            score = self.score
            index = len(self.records)
            for _ in range(rounds_back):
                index -= 1
                score -= self.records[index].points
        if index < len(self.accelerations):
            score += self.accelerations[index]
        return score


def _record(entry: PlayerRound, tournament: Tournament) -> RoundRecord:
    points = entry_points(entry, tournament.points)
    if entry.opponent is not None:
        played = entry.outcome in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)
        return RoundRecord(entry.opponent, entry.colour if played else None, points, played, True)
    paired = entry.bye is ByeKind.PAIRING_ALLOCATED
    return RoundRecord(None, None, points, False, paired)


def _records(tournament: Tournament) -> dict[int, list[RoundRecord]]:
    """Each player's `RoundRecord`s, round 1 first: `_record` of every entry of
    `player_histories`, built in one pass over the rounds without the entries. The
    records of a bye kind (and of absence, a zero-point bye) are one shared value."""
    points = tournament.points
    byes = {kind: _record(PlayerRound(0, None, None, None, kind), tournament) for kind in ByeKind}
    absent = byes[ByeKind.ZERO_POINT]
    records: dict[int, list[RoundRecord]] = {p.start_number: [] for p in tournament.players}
    sides = ((Colour.WHITE, 0), (Colour.BLACK, 1))
    # A record depends on the opponent, the result and the side only: each is made
    # once and shared (records are frozen), as most rounds repeat a few results.
    made: dict[tuple[int, GameResult | None, int], RoundRecord] = {}
    for rnd in tournament.rounds:
        seen: set[int] = set()
        for game in rnd.games:
            result = game.result
            for colour, side in sides:
                me, them = (game.white, game.black) if side == 0 else (game.black, game.white)
                record = made.get((them, result, side))
                if record is None:
                    outcome = None if result is None else result.outcome(colour)
                    if outcome is None:
                        record = RoundRecord(them, None, Fraction(0), False, True)
                    else:
                        played = outcome in _PLAYED
                        earned = points.for_outcome(outcome)
                        record = RoundRecord(them, colour if played else None, earned, played, True)
                    made[them, result, side] = record
                records.setdefault(me, []).append(record)
                seen.add(me)
        for bye in rnd.byes:
            records.setdefault(bye.player, []).append(byes[bye.kind])
            seen.add(bye.player)
        for number, entries in records.items():
            if number not in seen:
                entries.append(absent)
    return records


_PLAYED = frozenset({Outcome.WIN, Outcome.DRAW, Outcome.LOSS})


def _colours(player: SwissPlayer) -> None:
    """Colour difference and preference from played games (art. 1.6, 1.7)."""
    whites = blacks = 0
    run = 0
    last: Colour | None = None
    for rec in player.records:
        if not rec.played or rec.colour is None:
            continue
        player.played_games += 1
        if rec.colour is Colour.WHITE:
            whites += 1
        else:
            blacks += 1
        run = 1 if (run == 0 or rec.colour is not last) else run + 1
        last = rec.colour
    lower = Colour.BLACK if whites > blacks else Colour.WHITE
    player.imbalance = abs(whites - blacks)
    if player.imbalance > 1:
        player.preference = lower
    elif run > 1:
        assert last is not None
        player.preference = last.other
    elif player.imbalance > 0:
        player.preference = lower
    elif run:
        assert last is not None
        player.preference = last.other
    else:
        player.preference = None
    player.repeated = last if run > 1 else None
    player.strong = not player.absolute and player.imbalance > 0


def _plus(
    sums: dict[tuple[int, int], tuple[Fraction, Fraction, Fraction]], a: Fraction, b: Fraction
) -> Fraction:
    """`a + b`, each sum of the same two values made once: a field's running scores
    add a few values (a win, a draw, a loss, the byes) to a few totals over and over,
    and a fraction's sum takes microseconds. Keyed by identity, the operands kept in the
    entry so that no id is reused while `sums` lives; the values are immutable."""
    key = (id(a), id(b))
    entry = sums.get(key)
    if entry is None:
        entry = (a, b, a + b)
        sums[key] = entry
    return entry[2]


def build_players(
    tournament: Tournament,
    *,
    absent: Iterable[int],
    accelerations: Mapping[int, Sequence[Fraction]] | None,
    forbidden_pairs: Iterable[frozenset[int]],
    rules_2017: bool = False,
) -> tuple[list[SwissPlayer], list[SwissPlayer]]:
    """All players (start-number order) and the ones to pair this round.

    `absent` are the players with a bye announced for this round (not paired).
    """
    histories = _records(tournament)
    absent_set = set(absent)
    accelerations = accelerations or {}
    win = tournament.points.win
    zero = Fraction(0)
    sums: dict[tuple[int, int], tuple[Fraction, Fraction, Fraction]] = {}
    everyone: list[SwissPlayer] = []
    to_pair: list[SwissPlayer] = []
    rank = 0
    for p in tournament.players:
        records = histories.get(p.start_number, [])
        paired_before = any(r.paired for r in records)
        if p.start_number in absent_set and not paired_before:
            rank_here = -1
        else:
            rank_here = rank
            rank += 1
        forbidden = {r.opponent for r in records if r.played and r.opponent is not None}
        before = [zero]
        for r in records:
            before.append(_plus(sums, before[-1], r.points))
        player = SwissPlayer(
            number=p.start_number,
            rank=rank_here,
            records=records,
            score=before[-1],
            accelerations=tuple(accelerations.get(p.start_number, ())),
            forbidden=forbidden,
            before=before,
        )
        _colours(player)
        if rules_2017:
            player.bye_eligible = not any(
                r.paired and not r.played and r.points >= win for r in records
            )
        else:
            player.bye_eligible = not any(not r.played and r.points >= win for r in records)
        everyone.append(player)
        if p.start_number not in absent_set:
            to_pair.append(player)
    by_number = {p.number: p for p in everyone}
    for pair in forbidden_pairs:
        members = sorted(pair)
        for a in members:
            for b in members:
                if a != b and a in by_number:
                    by_number[a].forbidden.add(b)
    return everyone, to_pair


def float_of(
    player: SwissPlayer,
    rounds_back: int,
    by_number: Mapping[int, SwissPlayer],
    loss: Fraction,
    *,
    rules_2017: bool = False,
) -> Float:
    """The float `player` received `rounds_back` rounds ago (art. 1.4.2, 1.4.3).

    2026: a round without a game is a downfloat only when it scored more than a
    loss. 2017 (A.4.b reading): every round without a played game is a downfloat.
    """
    index = len(player.records) - rounds_back
    if index < 0:
        return Float.NONE
    rec = player.records[index]
    if not rec.played:
        if rules_2017:
            return Float.DOWN
        return Float.DOWN if rec.points > loss else Float.NONE
    if rec.opponent is None:
        return Float.NONE
    mine = player.acc_score(rounds_back)
    theirs = by_number[rec.opponent].acc_score(rounds_back)
    if mine is theirs:  # scores are shared values (`_plus`): most games are level
        return Float.NONE
    if mine > theirs:
        return Float.DOWN
    if mine < theirs:
        return Float.UP
    return Float.NONE


def scaled(values: Iterable[Fraction]) -> list[int]:
    """Each of `values` times the least common multiple of their denominators: exact
    integers in the same order, equal where the values are. Sorting or comparing these
    costs an integer comparison instead of a fraction's (a Python-level call of about a
    microsecond), which a round's sorts and score-group scans make hundreds of."""
    fractions = list(values)
    scale = lcm(*{f.denominator for f in fractions})
    return [f.numerator * (scale // f.denominator) for f in fractions]
