"""Round kinds: the basic round and the narrowing rounds x2, x4, x8 (Formuła FLAMPARK,
"Rundy zawężające"; docs/rules/flampark.md).

A round of factor ``k`` (basic 1, x2 2, x4 4, x8 8) pairs inside the classes of start
numbers that agree modulo ``k``. Inside a class the members are renumbered 1, 2, 3, ...
in start-number order and the basic chains are applied to those positions. For x2 this
is the text's rule: among the even numbers, 2, 6, 10, ... (positions 1, 3, 5, ...) take
the role of the odd players and 4, 8, 12, ... that of the even players; the odd numbers
likewise among themselves. x4 does the same inside each class modulo 4 (the text: 4, 12,
20, ... act as odd, 8, 16, 24, ... as even) and x8 inside each class modulo 8.

The t-th round of a kind (counted in the computed sequence) uses chain round t, so the
first x2 round gives every class its round-1 pairing, the second its round-2 pairing,
and so on. Two opponents in a round of factor k differ by k times an odd number, so
rounds of different kinds can never repeat a game, and rounds of one kind cannot either
(the text's FK6: player 1 meets 2, 6, 4, 10, 8 in five basic rounds, 3, 11, 7 in three
x2 rounds, 5 in the x4 round and 9 in the x8 round: exactly 2 .. 11).

Divisibility (the text: rounds "needing a player count divisible by 4, 8 or 16"): a
round of factor ``k > 1`` pairs the largest prefix of the start list whose length is a
multiple of ``2k``; the players below it sit out (FK6: 56 players, 8 sit out the x8
round). A basic round with an odd count adds a phantom player ``count + 1`` at the foot
of the list; whoever the chains give the phantom sits out. The phantom's opponents are
distinct from round to round, so nobody sits out two basic rounds, and they lie within
about 2 x rounds of the bottom.

The text's worst case, "14 surplus pauses" in a 10-round event, is the x8 round of an
even count 14 above a multiple of 16 (an odd count can reach 15); x2 and x4 rounds add
their own (at most 3 and 7). With ``rematch_byes`` most of these players get a game.

Capacity: a class of ``m`` positions supports ``m / 2`` rounds (each of its even
positions then meets every odd one), so a schedule may hold at most
``count // (2k)`` rounds of factor ``k``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.engine.pairing.flampark.chains import basic_round

__all__ = [
    "KINDS",
    "KIND_FACTORS",
    "RawRound",
    "capacity",
    "group_bounds",
    "group_round",
    "kind_round",
    "list_round",
    "paired_count",
]

KIND_FACTORS: dict[str, int] = {"basic": 1, "x2": 2, "x4": 4, "x8": 8}
"""The factor of each round kind."""

KINDS: tuple[str, ...] = tuple(KIND_FACTORS)
"""The accepted round kinds, widest first."""


@dataclass(frozen=True, slots=True)
class RawRound:
    """One computed round before colours and tables: who plays whom, who sits out."""

    kind: str
    """The round kind ("basic", "x2", "x4", "x8")."""
    games: tuple[tuple[int, int], ...]
    """``(even-role player, odd-role player)`` start numbers, by even-role position."""
    sit_outs: tuple[int, ...]
    """Players without a game in this round, ascending."""
    rematches: tuple[tuple[int, int], ...] = ()
    """Games between players the chains left sitting out (``rematch_byes``)."""

    @property
    def all_games(self) -> tuple[tuple[int, int], ...]:
        """The chain games followed by the rematch games."""
        return self.games + self.rematches


def paired_count(player_count: int, factor: int) -> int:
    """How many players, from the top of the list, a round of ``factor`` pairs."""
    if factor == 1:
        return player_count
    return player_count // (2 * factor) * (2 * factor)


def capacity(player_count: int, factor: int) -> int:
    """The most rounds of ``factor`` one schedule can hold without a repeated game."""
    if factor == 1:
        return (player_count + player_count % 2) // 2
    return player_count // (2 * factor)


def list_round(first: int, length: int, index: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Basic chain round ``index`` on the numbers ``first .. first + length - 1``.

    ``first`` is odd, so positions and start numbers share their parity. An odd
    ``length`` gets a phantom at the foot; its opponent is returned as sitting out.
    """
    size = length + length % 2
    offset = first - 1
    last = first + length - 1
    games: list[tuple[int, int]] = []
    sit_outs: list[int] = []
    for even, odd in basic_round(size, index):
        a, b = even + offset, odd + offset
        if a > last:
            sit_outs.append(b)
        else:
            games.append((a, b))
    return games, sit_outs


def kind_round(kind: str, index: int, player_count: int) -> RawRound:
    """The ``index``-th round of ``kind`` (1-based) for the whole list (individual variant)."""
    factor = KIND_FACTORS[kind]
    if factor == 1:
        games, sit_outs = list_round(1, player_count, index)
        return RawRound(kind, tuple(games), tuple(sit_outs))
    paired = paired_count(player_count, factor)
    size = paired // factor
    pairs: list[tuple[int, int]] = []
    for even, odd in basic_round(size, index):
        for residue in range(1, factor + 1):
            pairs.append((residue + factor * (even - 1), residue + factor * (odd - 1)))
    pairs.sort()
    return RawRound(kind, tuple(pairs), tuple(range(paired + 1, player_count + 1)))


def group_bounds(player_count: int, rounds: int) -> list[tuple[int, int]]:
    """Groups of 2 x rounds consecutive start numbers, ``(first, length)`` each.

    Reading taken (Formuła FLAMPARK, "Wariant grupowy", no rule for a remainder):
    the players left over below the last full group join that group, so every group
    has at least 2 x rounds players and the last one fewer than 4 x rounds.
    """
    size = 2 * rounds
    count = max(1, player_count // size)
    bounds = [(1 + g * size, size) for g in range(count)]
    first, _ = bounds[-1]
    bounds[-1] = (first, player_count - first + 1)
    return bounds


def group_round(bounds: Sequence[tuple[int, int]], index: int) -> RawRound:
    """Chain round ``index`` inside every group (group variant, basic rounds only)."""
    games: list[tuple[int, int]] = []
    sit_outs: list[int] = []
    for first, length in bounds:
        group_games, group_sit_outs = list_round(first, length, index)
        games.extend(group_games)
        sit_outs.extend(group_sit_outs)
    return RawRound("basic", tuple(games), tuple(sorted(sit_outs)))
