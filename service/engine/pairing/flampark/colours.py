"""Colours (Formuła FLAMPARK, "Kolor gry"): colours follow the played order.

The text fixes colours only for the basic variant: every player alternates from round
to round. Narrowing rounds pair two players of one parity class, who are usually due
the same colour, so one of them has to repeat; the text says nothing about who. The
reading taken: nobody gets one colour three games running (a round without a game
does not break a run) unless that is unavoidable; then as few repeats and as small a
colour surplus as practical. Three passes over the played order:

1. Greedy, game by game. Each of the two ways to give the colours is scored, in order
   of importance, by (a) the players who would get one colour three games running,
   (b) the players who would not get the colour they are due, (c) the larger colour
   surplus ``|whites - blacks|`` of the two afterwards, and (d) as a last resort the
   basic pattern: the even-role player (the one the chains are computed for) has white
   in even-numbered played rounds when the top of the list starts with white. A player
   is "due" the colour that continues alternation round by round: after a round
   without a game (a bye) the player resumes the pattern instead of forcing the next
   opponent to repeat, so byes do not ripple through the field.
2. Only if the greedy pass left a three-in-a-row: a deterministic tabu search. It takes
   the lowest-numbered player with a three-in-a-row, and swaps the colours of the one
   of its three games that best lowers (three-in-a-rows, then the cost below), even
   when nothing improves; a swapped game may not be swapped back for 7 steps unless
   that reaches a new best. It stops when no three-in-a-row is left or after
   ``20 x (initial three-in-a-rows) + 100`` steps, and returns to the best state seen.
   On every mix of kinds we tried (thousands of random schedules, 6 to 400 players,
   3 to 13 rounds) it leaves none.
3. Polish: the games the search swapped, and those in which a player with surplus
   colour had that colour, are swapped back or over whenever that lowers the cost of
   their two players: 1000 per three-in-a-row, 10 per unit of surplus beyond the one
   an odd number of games forces, 1 per repeat. Each swap lowers the cost, so it ends.

With basic rounds only the greedy pass decides everything and reproduces the text
exactly: in round 1 the odd-numbered player has the top colour (white by default, so
player 1 has white), and everyone alternates after that (a player returning from a bye
keeps their pattern).

Complexity: O(games) for the greedy pass; the search and polish touch O(1) per step.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from service.engine.model import Colour

__all__ = ["assign_colours", "sequence_cost"]

_TRIPLE = 1000
_SURPLUS = 10
_REPEAT = 1


def sequence_cost(colours: Sequence[bool]) -> int:
    """Repair cost of one player's colours in played order (True = white).

    1000 per three-in-a-row, 10 per unit of colour surplus beyond the one an odd
    number of games forces, 1 per repeated colour.
    """
    triples = repeats = 0
    for i in range(1, len(colours)):
        if colours[i] == colours[i - 1]:
            repeats += 1
            if i >= 2 and colours[i - 2] == colours[i]:
                triples += 1
    whites = sum(colours)
    surplus = abs(2 * whites - len(colours)) - len(colours) % 2
    return _TRIPLE * triples + _SURPLUS * surplus + _REPEAT * repeats


def _local(colours: Sequence[bool], k: int) -> tuple[int, int]:
    """Three-in-a-rows and repeats that involve position ``k`` (all a swap can change)."""
    n = len(colours)
    triples = repeats = 0
    for i in range(max(0, k - 2), min(k, n - 3) + 1):
        if colours[i] == colours[i + 1] == colours[i + 2]:
            triples += 1
    if k >= 1 and colours[k - 1] == colours[k]:
        repeats += 1
    if k + 1 < n and colours[k + 1] == colours[k]:
        repeats += 1
    return triples, repeats


def _surplus(whites: int, games: int) -> int:
    return abs(2 * whites - games) - games % 2


def _option_score(
    a: tuple[bool, int, int, int] | None,
    b: tuple[bool, int, int, int] | None,
    even_white: bool,
    number: int,
) -> tuple[int, int, int]:
    """(three-in-a-rows, colours not due, larger surplus) if the even role gets white."""
    triples = not_due = surplus = 0
    for state, white in ((a, even_white), (b, not even_white)):
        if state is None:
            surplus = max(surplus, 1)
            continue
        was_white, run, balance, when = state
        repeat = was_white == white
        if repeat and run >= 2:
            triples += 1
        if repeat != ((number - when) % 2 == 0):
            not_due += 1
        surplus = max(surplus, abs(balance + (1 if white else -1)))
    return triples, not_due, surplus


def _greedy(
    rounds: Sequence[Sequence[tuple[int, int]]], top_white: bool
) -> tuple[list[int], list[int], list[bool], int]:
    """First pass: the games flattened (even role, odd role, even role white?) and the
    number of three-in-a-rows it left."""
    evens: list[int] = []
    odds: list[int] = []
    choices: list[bool] = []
    # Per player: last colour (True white), run length, whites - blacks, last round.
    last: dict[int, tuple[bool, int, int, int]] = {}
    triples = 0
    for number, games in enumerate(rounds, start=1):
        pattern = (number % 2 == 0) == top_white
        for even, odd in games:
            a = last.get(even)
            b = last.get(odd)
            if (
                a is not None
                and b is not None
                and (number - a[3]) % 2
                and (number - b[3]) % 2
                and a[0] != b[0]
            ):
                # Both played last round and are due opposite colours: both alternate.
                choice = not a[0]
                evens.append(even)
                odds.append(odd)
                choices.append(choice)
                last[even] = (choice, 1, a[2] + (1 if choice else -1), number)
                last[odd] = (not choice, 1, b[2] - (1 if choice else -1), number)
                continue
            choice = pattern
            best = _option_score(a, b, pattern, number)
            other = _option_score(a, b, not pattern, number)
            if other < best:
                choice = not pattern
            evens.append(even)
            odds.append(odd)
            choices.append(choice)
            for player, state, white in ((even, a, choice), (odd, b, not choice)):
                if state is None:
                    last[player] = (white, 1, 1 if white else -1, number)
                else:
                    run = state[1] + 1 if state[0] == white else 1
                    triples += run >= 3
                    last[player] = (white, run, state[2] + (1 if white else -1), number)
    return evens, odds, choices, triples


class _Colouring:
    """Every player's colour sequence, kept in step with the per-game choices."""

    def __init__(self, evens: list[int], odds: list[int], choices: list[bool]) -> None:
        self.evens, self.odds, self.choices = evens, odds, choices
        self.sequences: dict[int, list[bool]] = {}
        self.games_of: dict[int, list[int]] = {}
        self.slots: list[tuple[int, int]] = []
        for game, (even, odd) in enumerate(zip(evens, odds, strict=True)):
            even_seq = self.sequences.setdefault(even, [])
            odd_seq = self.sequences.setdefault(odd, [])
            self.slots.append((len(even_seq), len(odd_seq)))
            even_seq.append(choices[game])
            odd_seq.append(not choices[game])
            self.games_of.setdefault(even, []).append(game)
            self.games_of.setdefault(odd, []).append(game)
        self.whites = {p: sum(seq) for p, seq in self.sequences.items()}
        self.triples = {
            p: sum(1 for i in range(2, len(seq)) if seq[i] == seq[i - 1] == seq[i - 2])
            for p, seq in self.sequences.items()
        }
        self.total_triples = sum(self.triples.values())

    def _sides(self, game: int) -> tuple[tuple[int, int], tuple[int, int]]:
        even_slot, odd_slot = self.slots[game]
        return (self.evens[game], even_slot), (self.odds[game], odd_slot)

    def change(self, game: int) -> tuple[int, int]:
        """(triple change, cost change) if the game's colours were swapped; O(1)."""
        triples = cost = 0
        for player, slot in self._sides(game):
            seq = self.sequences[player]
            old_t, old_r = _local(seq, slot)
            white = seq[slot]
            seq[slot] = not white
            new_t, new_r = _local(seq, slot)
            seq[slot] = white
            count = len(seq)
            moved = self.whites[player] + (-1 if white else 1)
            surplus = _surplus(moved, count) - _surplus(self.whites[player], count)
            triples += new_t - old_t
            cost += _TRIPLE * (new_t - old_t) + _SURPLUS * surplus + _REPEAT * (new_r - old_r)
        return triples, cost

    def swap(self, game: int) -> None:
        """Swap the game's colours."""
        self.choices[game] = not self.choices[game]
        for player, slot in self._sides(game):
            seq = self.sequences[player]
            old_t, _ = _local(seq, slot)
            seq[slot] = not seq[slot]
            new_t, _ = _local(seq, slot)
            self.whites[player] += 1 if seq[slot] else -1
            self.triples[player] += new_t - old_t
            self.total_triples += new_t - old_t

    def first_triple(self, player: int) -> list[int]:
        """The three games of the player's first three-in-a-row."""
        seq = self.sequences[player]
        for k in range(2, len(seq)):
            if seq[k] == seq[k - 1] == seq[k - 2]:
                return self.games_of[player][k - 2 : k + 1]
        return []

    def search(self, tenure: int = 7) -> None:
        """Remove three-in-a-rows by a deterministic tabu search (see module doc)."""
        if not self.total_triples:
            return
        limit = 20 * self.total_triples + 100
        heap = [p for p, count in self.triples.items() if count]
        heapq.heapify(heap)
        free_from: dict[int, int] = {}
        flips: list[int] = []
        best, best_at = self.total_triples, 0
        for step in range(1, limit + 1):
            while heap and not self.triples[heap[0]]:
                heapq.heappop(heap)
            if not heap:
                break
            trio = self.first_triple(heap[0])
            options = []
            for game in trio:
                triples, cost = self.change(game)
                allowed = free_from.get(game, 0) <= step
                if allowed or self.total_triples + triples < best:
                    options.append((triples, cost, game))
            if not options:
                options = [(*self.change(game), game) for game in trio]
            _, _, game = min(options)
            self.swap(game)
            flips.append(game)
            free_from[game] = step + tenure
            for player, _ in self._sides(game):
                if self.triples[player]:
                    heapq.heappush(heap, player)
            if self.total_triples < best:
                best, best_at = self.total_triples, len(flips)
        for game in reversed(flips[best_at:]):
            self.swap(game)

    def surplus_games(self) -> list[int]:
        """Games in which a player with more of one colour than needed had that colour."""
        found: list[int] = []
        for player, seq in self.sequences.items():
            count, whites = len(seq), self.whites[player]
            if _surplus(whites, count) > 0:
                heavy = 2 * whites > count
                found.extend(
                    game
                    for game, white in zip(self.games_of[player], seq, strict=True)
                    if white == heavy
                )
        return found

    def polish(self, games: list[int]) -> None:
        """Swap single games while that lowers the cost of their two players."""
        pending = list(games)
        queued = set(pending)
        while pending:
            game = pending.pop()
            queued.discard(game)
            if self.change(game)[1] >= 0:
                continue
            self.swap(game)
            for player, _ in self._sides(game):
                for other in self.games_of[player]:
                    if other not in queued:
                        queued.add(other)
                        pending.append(other)


def assign_colours(
    rounds: Sequence[Sequence[tuple[int, int]]], top_colour: Colour = Colour.WHITE
) -> list[list[tuple[int, int]]]:
    """Colour every game: ``rounds`` in played order, games as ``(even role, odd role)``.

    Returns the same games as ``(white, black)``, round by round, in the same order.
    """
    evens, odds, choices, triples = _greedy(rounds, top_colour is Colour.WHITE)
    if triples:
        before = list(choices)
        colouring = _Colouring(evens, odds, choices)
        colouring.search()
        changed = {g for g, (a, b) in enumerate(zip(before, choices, strict=True)) if a != b}
        colouring.polish(sorted(changed.union(colouring.surplus_games()), reverse=True))
    out: list[list[tuple[int, int]]] = []
    game = 0
    for games in rounds:
        coloured: list[tuple[int, int]] = []
        for even, odd in games:
            coloured.append((even, odd) if choices[game] else (odd, even))
            game += 1
        out.append(coloured)
    return out
