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


def _repair(evens: list[int], odds: list[int], choices: list[bool]) -> None:
    """Second pass: swap single games while that lowers the two players' cost.

    A swap changes only the runs around one position of each player's sequence and
    their colour surplus, so each trial costs O(1).
    """
    sequences: dict[int, list[bool]] = {}
    games_of: dict[int, list[int]] = {}
    slots: list[tuple[int, int]] = []
    for game, (even, odd) in enumerate(zip(evens, odds, strict=True)):
        even_seq = sequences.setdefault(even, [])
        odd_seq = sequences.setdefault(odd, [])
        slots.append((len(even_seq), len(odd_seq)))
        even_seq.append(choices[game])
        odd_seq.append(not choices[game])
        games_of.setdefault(even, []).append(game)
        games_of.setdefault(odd, []).append(game)
    whites = {p: sum(seq) for p, seq in sequences.items()}
    triples = {
        p: sum(1 for i in range(2, len(seq)) if seq[i] == seq[i - 1] == seq[i - 2])
        for p, seq in sequences.items()
    }

    def change(player: int, slot: int) -> tuple[int, int]:
        """Cost and triple change if ``player``'s colour at ``slot`` is swapped."""
        seq = sequences[player]
        old_t, old_r = _local(seq, slot)
        white = seq[slot]
        seq[slot] = not white
        new_t, new_r = _local(seq, slot)
        seq[slot] = white
        count = len(seq)
        moved = whites[player] + (-1 if white else 1)
        surplus = _surplus(moved, count) - _surplus(whites[player], count)
        return (
            _TRIPLE * (new_t - old_t) + _SURPLUS * surplus + _REPEAT * (new_r - old_r),
            new_t - old_t,
        )

    def try_swap(game: int) -> bool:
        """Swap the game's colours when that lowers the two players' cost."""
        even_slot, odd_slot = slots[game]
        even_cost, even_triples = change(evens[game], even_slot)
        odd_cost, odd_triples = change(odds[game], odd_slot)
        if even_cost + odd_cost >= 0:
            return False
        choices[game] = not choices[game]
        for player, slot, triple_change in (
            (evens[game], even_slot, even_triples),
            (odds[game], odd_slot, odd_triples),
        ):
            seq = sequences[player]
            seq[slot] = not seq[slot]
            whites[player] += 1 if seq[slot] else -1
            triples[player] += triple_change
        return True

    pending = sorted(p for p, count in triples.items() if count)
    queued = set(pending)
    while pending:
        player = pending.pop()
        queued.discard(player)
        seq = sequences[player]
        mine = games_of[player]
        improved = False
        for k in range(2, len(seq)):
            if not seq[k] == seq[k - 1] == seq[k - 2]:
                continue
            for game in mine[k - 2 : k + 1]:
                if try_swap(game):
                    improved = True
                    break
            if improved:
                break
        if not improved:
            continue
        # The swap changed two players. A triple of theirs, or one of an opponent's
        # triples that contains a game against them, may now be repairable.
        for moved in (evens[game], odds[game]):
            for other in games_of[moved]:
                for touched, slot in (
                    (evens[other], slots[other][0]),
                    (odds[other], slots[other][1]),
                ):
                    if (
                        touched not in queued
                        and triples[touched]
                        and (touched == moved or _local(sequences[touched], slot)[0])
                    ):
                        queued.add(touched)
                        pending.append(touched)


def assign_colours(
    rounds: Sequence[Sequence[tuple[int, int]]], top_colour: Colour = Colour.WHITE
) -> list[list[tuple[int, int]]]:
    """Colour every game: ``rounds`` in played order, games as ``(even role, odd role)``.

    Returns the same games as ``(white, black)``, round by round, in the same order.
    """
    evens, odds, choices, triples = _greedy(rounds, top_colour is Colour.WHITE)
    if triples:
        _repair(evens, odds, choices)
    out: list[list[tuple[int, int]]] = []
    game = 0
    for games in rounds:
        coloured: list[tuple[int, int]] = []
        for even, odd in games:
            coloured.append((even, odd) if choices[game] else (odd, even))
            game += 1
        out.append(coloured)
    return out
