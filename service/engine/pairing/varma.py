"""Varma tables: restricted drawing of start numbers for round-robins of 9 to 24 players.

FIDE C.05 Annex 2 (the Varma tables; docs/rules/round-robin.md). The start numbers of
a Berger table are split into four sets A, B, C, D; players of one federation draw their
numbers from one set, and in the Berger table two numbers of one set meet in the early
and middle rounds, so compatriots do not meet at the end. (Checked against the Berger
tables in the tests: it holds for every size except 11/12, whose set C holds 6 and 12,
who meet in round 11 of 11.)

The procedure (Annex 2, points 1-4):

1. Each set goes into an unmarked envelope, placed in a larger envelope marked with how
   many numbers it holds.
2. Drawing order: federations by number of players, largest first; equal sizes by the
   alphabetical order of the FIDE code; within a federation, players alphabetically.
3. The first player of a federation chooses a large envelope holding at least enough
   numbers for the whole contingent; every player of that federation draws a number from
   it. Numbers left in it stay available to other players.
4. The next federation chooses an envelope, and so on until every player has a number.

Readings taken where the text is open (pinned by tests):

* The choices are random, from ``random.Random(seed)``: the envelope among those that
  qualify, then each player's number among those left in it. Same seed, same draw.
* "An envelope with enough numbers": an envelope not chosen before, with at least as
  many numbers as the contingent. When none is left, an already opened envelope with
  enough numbers left qualifies. When no envelope can hold the whole contingent (a
  federation larger than any set, or too many contingents), the contingent fills the
  envelope with the most numbers left, then the next such envelope, and so on: its
  players stay together "as far as the procedure allows". With at most four
  contingents of two or more players, and contingent sizes (largest first) each fitting
  the set of the same rank (largest first), every contingent gets a set of its own
  whatever the random choices.
* Players are given as ``(id, federation)``; "alphabetically by name" is read as by id
  (casefolded, then exact), so callers pass a name-like id. Federation codes are
  compared after stripping and upper-casing.
* Odd counts: the text's tables are headed "9/10", "11/12", ...; a Berger table for an
  odd count is the table of ``n + 1`` whose last number is the dummy (a free round), so
  number ``n + 1`` is removed from its set and not drawn.
* The text as stored lost set D of the 21/22 and 23/24 tables; it is the complement of
  A, B and C, which is also what FIDE C.05 annex 2 prints: (5, 22) and (5, 24).
* Outside 9 .. 24 players there is no Varma table; :class:`VarmaError` is raised.

Complexity: O(n^2) at most (n <= 24): trivial.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from service.engine.pairing.round_pairing import PairingError

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SET_NAMES",
    "VARMA_TABLES",
    "VarmaError",
    "draw_order",
    "varma_draw",
    "varma_sets",
]

MIN_PLAYERS = 9
"""Smallest field with a Varma table (FIDE C.05 Annex 2: "from 9 to 24")."""
MAX_PLAYERS = 24
"""Largest field with a Varma table."""
SET_NAMES = ("A", "B", "C", "D")
"""The four sets, in the order the text prints them."""

_TABLES: dict[int, dict[str, tuple[int, ...]]] = {
    10: {"A": (3, 4, 8), "B": (5, 7, 9), "C": (1, 6), "D": (2, 10)},
    12: {"A": (4, 5, 9, 10), "B": (1, 2, 7), "C": (6, 8, 12), "D": (3, 11)},
    14: {"A": (4, 5, 6, 11, 12), "B": (1, 2, 8, 9), "C": (7, 10, 13), "D": (3, 14)},
    16: {"A": (5, 6, 7, 12, 13, 14), "B": (1, 2, 3, 9, 10), "C": (8, 11, 15), "D": (4, 16)},
    18: {
        "A": (5, 6, 7, 8, 14, 15, 16),
        "B": (1, 2, 3, 10, 11, 12),
        "C": (9, 13, 17),
        "D": (4, 18),
    },
    20: {
        "A": (6, 7, 8, 9, 15, 16, 17, 18),
        "B": (1, 2, 3, 11, 12, 13, 14),
        "C": (5, 10, 19),
        "D": (4, 20),
    },
    22: {
        "A": (6, 7, 8, 9, 10, 17, 18, 19, 20),
        "B": (1, 2, 3, 4, 12, 13, 14, 15),
        "C": (11, 16, 21),
        "D": (5, 22),
    },
    24: {
        "A": (6, 7, 8, 9, 10, 11, 19, 20, 21, 22),
        "B": (1, 2, 3, 4, 13, 14, 15, 16, 17),
        "C": (12, 18, 23),
        "D": (5, 24),
    },
}

VARMA_TABLES: Mapping[int, Mapping[str, tuple[int, ...]]] = MappingProxyType(
    {size: MappingProxyType(sets) for size, sets in _TABLES.items()}
)
"""The printed tables, keyed by the even field size (10 covers "9/10 players")."""


class VarmaError(PairingError):
    """A Varma draw that cannot be made (field size outside 9..24, duplicate ids, ...)."""


def varma_sets(n: int) -> dict[str, tuple[int, ...]]:
    """The sets A, B, C, D for ``n`` players (FIDE C.05 Annex 2, point 5).

    For an odd ``n`` the table of ``n + 1`` is used without the number ``n + 1`` (the
    dummy of the Berger table).
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise VarmaError(f"the number of players must be an integer, got {n!r}")
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise VarmaError(f"Varma tables exist for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
    table = _TABLES[n + n % 2]
    return {name: tuple(x for x in table[name] if x <= n) for name in SET_NAMES}


def draw_order(players: Sequence[tuple[str, str]]) -> list[tuple[str, tuple[str, ...]]]:
    """Contingents in drawing order: ``(federation, player ids in drawing order)``.

    FIDE C.05 Annex 2, point 2: the largest federation first, equal sizes by FIDE code; players
    of one federation alphabetically (by id).
    """
    contingents: dict[str, list[str]] = {}
    seen: set[str] = set()
    for index, entry in enumerate(players):
        if not isinstance(entry, tuple) or len(entry) != 2:
            raise VarmaError(f"players[{index}] must be an (id, federation) pair")
        player_id, federation = entry
        if not isinstance(player_id, str) or not player_id:
            raise VarmaError(f"players[{index}]: the id must be a non-empty string")
        if not isinstance(federation, str) or not federation.strip():
            raise VarmaError(f"players[{index}]: player {player_id!r} has no federation")
        if player_id in seen:
            raise VarmaError(f"players[{index}]: duplicate id {player_id!r}")
        seen.add(player_id)
        contingents.setdefault(federation.strip().upper(), []).append(player_id)
    ordered = sorted(contingents.items(), key=lambda item: (-len(item[1]), item[0]))
    return [(code, tuple(sorted(ids, key=lambda i: (i.casefold(), i)))) for code, ids in ordered]


def varma_draw(players: Sequence[tuple[str, str]], *, seed: int) -> dict[str, int]:
    """Draw start numbers with the Varma procedure (FIDE C.05 Annex 2).

    ``players`` are ``(id, federation)`` pairs, 9 to 24 of them; the result maps every
    id to its start number. Deterministic for a given ``seed``.
    """
    order = draw_order(players)
    sets = varma_sets(len(players))
    rng = random.Random(seed)
    left = {name: list(numbers) for name, numbers in sets.items()}
    opened: set[str] = set()
    drawn: dict[str, int] = {}
    for _, ids in order:
        queue = list(ids)
        while queue:
            name = _choose_envelope(left, opened, len(queue), rng)
            opened.add(name)
            envelope = left[name]
            take, queue = queue[: len(envelope)], queue[len(envelope) :]
            for player_id in take:
                drawn[player_id] = envelope.pop(rng.randrange(len(envelope)))
    return drawn


def _choose_envelope(
    left: Mapping[str, list[int]], opened: set[str], need: int, rng: random.Random
) -> str:
    """The envelope a contingent of ``need`` players draws from next (see the module
    docstring: an unopened one big enough, else an opened one, else the fullest)."""
    fresh = [n for n in SET_NAMES if n not in opened and len(left[n]) >= need]
    if fresh:
        return rng.choice(fresh)
    enough = [n for n in SET_NAMES if len(left[n]) >= need]
    if enough:
        return rng.choice(enough)
    most = max(len(numbers) for numbers in left.values())
    return rng.choice([n for n in SET_NAMES if len(left[n]) == most])
