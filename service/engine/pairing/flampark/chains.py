"""The basic FLAMPARK chains on one list (Formuła FLAMPARK, "Metoda kojarzenia").

Positions run ``1 .. size`` with ``size`` even. Only the even positions are computed;
their odd opponents follow. For an even position ``n`` in round ``t`` (1-based):

* round 1: ``R_n(1) = n - 1``;
* ``n`` divisible by 4: even rounds ``R_n(t) = R_n(t-2) + 4`` (round 2: ``R_n(1) + 4``),
  odd rounds ``R_n(t) = R_n(t-2) - 4``;
* ``n = 2 mod 4``: the same with the signs swapped.

Unrolled, ``R_n(t) = n - 1 + s`` with ``|s| = 4 * (t // 2)`` and ``s`` positive exactly
when (``n`` divisible by 4) equals (``t`` even). The text's examples: ``R_8 = 7, 11, 3,
15, ...`` and ``R_14 = 13, 9, 17, 5, ...``.

Ceiling bounce ("Odbicie od sufitu"): a value below 1 becomes its absolute
value and the chain then runs the other way. Unrolled, that is the mirror ``u -> -u``
applied to the unbounced value: ``R_8(5) = |3 - 4| = 1``, ``R_8(7) = |-5| = 5``.

Floor bounce ("Odbicie od podłogi"): a value past the end of the list becomes
"the lowest-placed odd player this player has not met yet", and the chain then runs the
other way. Reading taken: the mirror about the list's end, ``u -> 2 * size - u``. The
chain's previous value in the same direction was ``u - 4``, already met, so the mirror
lands on the lowest odd position not met yet, exactly as the text asks, and continuing
the mirrored chain is the reversed chain of the text. The text gives no rule for ties
or for a second bounce; the mirror settles both (a chain that reaches both ends keeps
bouncing, the fold of ``u`` into ``1 .. size`` with period ``2 * size``).

Why this always gives a valid round: the unbounced rule is a perfect matching of all
even and odd integers; folding it at both ends places every position exactly once, and
the opponents of ``n`` in different rounds are distinct. For every even ``size`` and
every number of rounds up to ``size / 2`` (each even position then meets each odd one
once: a complete bipartite schedule) the rounds are perfect matchings with no repeated
game; the tests check this exhaustively for every ``size`` up to 120 and, through
whole schedules, by property up to 400.
So the bottom of the list never needs a search: byes come only from divisibility.

Complexity: O(size) per round, integer arithmetic only.
"""

from __future__ import annotations

__all__ = ["basic_opponent", "basic_round", "fold", "max_rounds", "raw_opponent"]


def raw_opponent(position: int, round_index: int) -> int:
    """``R_n(t)`` before any bounce, for an even ``position`` (the text's formulas)."""
    if position < 2 or position % 2:
        raise ValueError(f"chains are computed for even positions, got {position}")
    if round_index < 1:
        raise ValueError(f"round index must be at least 1, got {round_index}")
    step = 4 * (round_index // 2)
    upward = (position % 4 == 0) == (round_index % 2 == 0)
    return position - 1 + (step if upward else -step)


def fold(value: int, size: int) -> int:
    """Bounce a chain value into ``1 .. size`` (ceiling mirror at 0, floor mirror at size).

    ``value`` is odd and ``size`` even, so the result is an odd position.
    """
    period = 2 * size
    folded = value % period
    return period - folded if folded > size else folded


def basic_opponent(position: int, round_index: int, size: int) -> int:
    """The odd opponent of even ``position`` in round ``round_index`` on a list of ``size``."""
    return fold(raw_opponent(position, round_index), size)


def max_rounds(size: int) -> int:
    """How many rounds a list of ``size`` (even) supports without a repeated game."""
    return size // 2


def basic_round(size: int, round_index: int) -> list[tuple[int, int]]:
    """All games of one round as ``(even position, odd position)``, by even position.

    ``size`` must be even and ``round_index`` at most ``size / 2``.
    """
    if size < 2 or size % 2:
        raise ValueError(f"a chain list needs an even size of at least 2, got {size}")
    if round_index > max_rounds(size):
        raise ValueError(
            f"a list of {size} supports at most {max_rounds(size)} rounds, "
            f"round {round_index} asked"
        )
    return [(n, basic_opponent(n, round_index, size)) for n in range(2, size + 1, 2)]
