"""Tables (Formuła FLAMPARK, "Stoliki"; docs/rules/flampark.md).

Basic rounds: an even player N always sits at table N / 2; the odd opponent comes to
that table (text). With an odd count the phantom's table, the last one, stays empty.

Narrowing rounds (the text's (*) limits fixed tables to the basic variant and says
nothing more). Reading taken: the games are ordered by their higher-placed player
(then the other) and numbered 1, 2, 3, ...; the strongest game is on table 1, as in a
Swiss event. Rematch games between players who sit out follow the regular games of
their round, ordered the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.engine.pairing.flampark.kinds import RawRound

__all__ = ["assign_tables"]


def _by_placing(game: tuple[int, int]) -> tuple[int, int]:
    return min(game), max(game)


def assign_tables(
    rnd: RawRound, coloured: Sequence[tuple[int, int]]
) -> list[tuple[tuple[int, int], int]]:
    """Give each game of ``rnd`` its table: ``((white, black), table)`` pairs.

    ``coloured`` lists ``rnd.all_games`` in the same order with colours decided.
    """
    regular = coloured[: len(rnd.games)]
    rematches = sorted(coloured[len(rnd.games) :], key=_by_placing)
    result: list[tuple[tuple[int, int], int]]
    if rnd.kind == "basic":
        result = [(game, even // 2) for game, (even, _) in zip(regular, rnd.games, strict=True)]
    else:
        ordered = sorted(regular, key=_by_placing)
        result = [(game, table) for table, game in enumerate(ordered, start=1)]
    last = max((table for _, table in result), default=0)
    result.extend((game, last + i) for i, game in enumerate(rematches, start=1))
    return result
