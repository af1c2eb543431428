"""Colours (seed 000, "Kolor gry"; SPEC 2: colours follow the played order).

The seed fixes colours only for the basic variant: every player alternates from round
to round. Narrowing rounds pair two players of one parity class, who are usually due
the same colour, so one of them has to repeat; the text says nothing about who. Reading
taken, in two passes over the played order:

1. Greedy, game by game. Each of the two ways to give the colours is scored, in order
   of importance, by (a) the players who would get one colour three games running,
   (b) the players who would not get the colour they are due, (c) the larger colour
   surplus ``|whites - blacks|`` of the two afterwards, and (d) as a last resort the
   basic pattern: the even-role player (the one the chains are computed for) has white
   in even-numbered played rounds when the top of the list starts with white. A player
   is "due" the colour that continues alternation round by round: after a round
   without a game (a bye) the player resumes the pattern instead of forcing the next
   opponent to repeat, so byes do not ripple through the field.
2. Repair: wherever a player still has one colour three games running, swapping the
   colours of one of those three games is tried, and kept when it lowers the cost of
   the two players of that game (three-in-a-rows first, then colour surplus beyond
   what an odd number of games forces, then repeats). Each kept swap lowers the total
   cost, so the pass ends.

With basic rounds only the greedy pass reproduces the text exactly: in round 1 the
odd-numbered player has the top colour (white by default, so player 1 has white), and
everyone alternates after that (a player returning from a bye keeps their pattern).
A remaining three-in-a-row is one no single swap can remove without creating another.

Complexity: O(games x rounds) in the worst case; near O(games) in practice.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.engine.model import Colour

__all__ = ["assign_colours"]

_TRIPLE = 1000
_SURPLUS = 10
_REPEAT = 1


def _sequence_cost(colours: Sequence[bool]) -> int:
    """Repair cost of one player's colours in played order (True = white)."""
    triples = repeats = 0
    for i in range(1, len(colours)):
        if colours[i] == colours[i - 1]:
            repeats += 1
            if i >= 2 and colours[i - 2] == colours[i]:
                triples += 1
    whites = sum(colours)
    surplus = abs(2 * whites - len(colours)) - len(colours) % 2
    return _TRIPLE * triples + _SURPLUS * surplus + _REPEAT * repeats


class _Book:
    """Flat arrays of games and per-player histories."""

    def __init__(self, rounds: Sequence[Sequence[tuple[int, int]]], top_white: bool) -> None:
        self.even: list[int] = []
        self.odd: list[int] = []
        self.round: list[int] = []
        for number, games in enumerate(rounds, start=1):
            for even, odd in games:
                self.even.append(even)
                self.odd.append(odd)
                self.round.append(number)
        self.top_white = top_white
        self.even_white: list[bool] = [False] * len(self.even)
        self.games_of: dict[int, list[int]] = {}
        for game in range(len(self.even)):
            self.games_of.setdefault(self.even[game], []).append(game)
            self.games_of.setdefault(self.odd[game], []).append(game)

    def white(self, player: int, game: int) -> bool:
        return self.even_white[game] == (player == self.even[game])

    def greedy(self) -> None:
        last: dict[int, tuple[bool, int, int, int]] = {}  # white?, run, surplus, round

        def cost(player: int, white: bool, number: int) -> tuple[int, int, int]:
            state = last.get(player)
            if state is None:
                return 0, 0, 1
            was_white, run, surplus, when = state
            repeat = was_white == white
            due_repeat = (number - when) % 2 == 0
            triple = int(repeat and run >= 2)
            return triple, int(repeat != due_repeat), abs(surplus + (1 if white else -1))

        def take(player: int, white: bool, number: int) -> None:
            state = last.get(player)
            if state is None:
                last[player] = (white, 1, 1 if white else -1, number)
                return
            was_white, run, surplus, _ = state
            run = run + 1 if was_white == white else 1
            last[player] = (white, run, surplus + (1 if white else -1), number)

        for game in range(len(self.even)):
            even, odd, number = self.even[game], self.odd[game], self.round[game]
            pattern = (number % 2 == 0) == self.top_white
            best: tuple[int, int, int, int] | None = None
            choice = pattern
            for even_white in (pattern, not pattern):
                a = cost(even, even_white, number)
                b = cost(odd, not even_white, number)
                score = (a[0] + b[0], a[1] + b[1], max(a[2], b[2]), int(even_white != pattern))
                if best is None or score < best:
                    best, choice = score, even_white
            self.even_white[game] = choice
            take(even, choice, number)
            take(odd, not choice, number)

    def player_cost(self, player: int) -> int:
        return _sequence_cost([self.white(player, g) for g in self.games_of[player]])

    def triple_games(self, player: int) -> list[int]:
        games = self.games_of[player]
        found: list[int] = []
        for i in range(2, len(games)):
            trio = games[i - 2 : i + 1]
            colours = {self.white(player, g) for g in trio}
            if len(colours) == 1:
                found.extend(trio)
        return found

    def repair(self) -> None:
        pending = [p for p in self.games_of if self.triple_games(p)]
        queued = set(pending)
        while pending:
            player = pending.pop()
            queued.discard(player)
            for game in self.triple_games(player):
                pair = (self.even[game], self.odd[game])
                before = sum(self.player_cost(p) for p in pair)
                self.even_white[game] = not self.even_white[game]
                if sum(self.player_cost(p) for p in pair) < before:
                    # The two players changed: any triple of theirs, or of an opponent
                    # of theirs, may now be repairable.
                    for changed in pair:
                        for other in self.games_of[changed]:
                            for touched in (self.even[other], self.odd[other]):
                                if touched not in queued:
                                    queued.add(touched)
                                    pending.append(touched)
                    break
                self.even_white[game] = not self.even_white[game]

    def result(self, rounds: Sequence[Sequence[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
        out: list[list[tuple[int, int]]] = []
        game = 0
        for games in rounds:
            coloured: list[tuple[int, int]] = []
            for even, odd in games:
                coloured.append((even, odd) if self.even_white[game] else (odd, even))
                game += 1
            out.append(coloured)
        return out


def assign_colours(
    rounds: Sequence[Sequence[tuple[int, int]]], top_colour: Colour = Colour.WHITE
) -> list[list[tuple[int, int]]]:
    """Colour every game: ``rounds`` in played order, games as ``(even role, odd role)``.

    Returns the same games as ``(white, black)``, round by round, in the same order.
    """
    book = _Book(rounds, top_colour is Colour.WHITE)
    book.greedy()
    book.repair()
    return book.result(rounds)
