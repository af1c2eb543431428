"""Berger round-robin schedules (FIDE C.05 Annex 1; docs/rules/round-robin.md).

Construction (an even count ``n``; an odd count is scheduled as ``n + 1`` with a dummy):

* Player ``n`` is the pivot. In round ``r`` (1-based) the pivot meets
  ``p(r) = ((r - 1) * n/2) mod (n - 1) + 1``. That game is board 1; ``p(r)`` has white in
  odd rounds and the pivot has white in even rounds.
* Board ``k`` (``k = 2 .. n/2``) pairs ``p(r) + (k - 1)`` (white) with ``p(r) - (k - 1)``
  (black), both counted cyclically in ``1 .. n - 1``.

This reproduces every table printed in Annex 1 (3 to 16 players), board order and
colours included; the tests compare every printed table (tests/data/seeds).

Odd counts (Annex 1: "the player who was to play the last player is free"): the table
for ``n + 1`` is used, the dummy is ``n + 1``, and whoever meets it has no game that round
(a zero-point bye: the text says only "free from play", and a round-robin gives no
points for it). The dummy's board (always board 1) is dropped and the remaining boards
are numbered 1, 2, ... in table order.

Double round-robin (Annex 1: "for double round-robins it is recommended to reverse the
order of the last two rounds of the first cycle, to avoid three consecutive games with
the same colour"). Reading taken: the first cycle plays the Berger rounds
``1 .. m - 2, m, m - 1`` (``m = n - 1`` rounds; with a single round nothing moves); the
second cycle plays the Berger rounds ``1 .. m`` in their original order with every
game's colours reversed. Board numbers stay those of the Berger round. Round numbers in
the result run 1 .. 2m in playing order.

Complexity: O(n^2) for the whole schedule (n/2 boards in each of n - 1 rounds).
"""

from __future__ import annotations

from service.engine.model import Bye, ByeKind, Game, Round
from service.engine.pairing.round_pairing import PairingError

__all__ = ["berger_table", "round_robin_rounds"]


def _even_size(player_count: int) -> int:
    if isinstance(player_count, bool) or not isinstance(player_count, int):
        raise PairingError(f"player count must be an integer, got {player_count!r}")
    if player_count < 2:
        raise PairingError(f"a round-robin needs at least 2 players, got {player_count}")
    return player_count + player_count % 2


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``n`` players (FIDE C.05 Annex 1).

    Returns rounds -> boards -> ``(white, black)`` start numbers. For an odd ``n`` this
    is the table for ``n + 1``, whose player ``n + 1`` is the dummy.
    """
    size = _even_size(n)
    cycle = size - 1
    half = size // 2
    table: list[list[tuple[int, int]]] = []
    for rnd in range(1, size):
        pivot_opponent = ((rnd - 1) * half) % cycle + 1
        # Board 1: the pivot takes white in even rounds.
        pivot_board = (size, pivot_opponent) if rnd % 2 == 0 else (pivot_opponent, size)
        boards = [pivot_board]
        for offset in range(1, half):
            white = (pivot_opponent - 1 + offset) % cycle + 1
            black = (pivot_opponent - 1 - offset) % cycle + 1
            boards.append((white, black))
        table.append(boards)
    return table


def _berger_order(rounds: int, *, double: bool) -> list[tuple[int, bool]]:
    """Playing order as (Berger round index, colours reversed) pairs."""
    first = list(range(rounds))
    if double and rounds >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    order = [(index, False) for index in first]
    if double:
        order.extend((index, True) for index in range(rounds))
    return order


def round_robin_rounds(player_count: int, *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a (double) round-robin for start numbers ``1 .. player_count``.

    Games carry ``round``, ``white``, ``black`` and ``table``; for an odd count the
    player who meets the dummy gets ``Bye(round, player, ByeKind.ZERO_POINT)``.
    See the module docstring for the double round-robin order and colours.
    """
    table = berger_table(player_count)
    dummy = player_count + 1 if player_count % 2 else None
    result: list[Round] = []
    for number, (index, reverse) in enumerate(_berger_order(len(table), double=double), 1):
        games: list[Game] = []
        byes: list[Bye] = []
        for white, black in table[index]:
            if dummy is not None and dummy in (white, black):
                free = black if white == dummy else white
                byes.append(Bye(number, free, ByeKind.ZERO_POINT))
                continue
            if reverse:
                white, black = black, white
            games.append(Game(number, white, black, table=len(games) + 1))
        result.append(Round(number, tuple(games), tuple(byes)))
    return tuple(result)
