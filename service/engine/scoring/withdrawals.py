"""Withdrawals from a round-robin (FIDE Tournament Rules, Handbook C.06 art. V.4).

When a player withdraws from, or is expelled from, a round-robin:

- having completed fewer than half of their games, the player's games stay in the
  crosstable (for rating and history) but the points scored by them or against them
  are not counted in the final standings;
- having completed at least half, everything counts; the games they will not play are
  forfeits.

"Completed" is read as played over the board: a forfeit is not a completed game.
`annulled_withdrawals` picks the players of the first kind and `without_players`
gives the tournament the standings are computed from (the remaining players meet
each other exactly as the schedule says, so round-robin tie-breaks stay meaningful).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from service.engine.model import Round, Tournament

__all__ = ["annulled_withdrawals", "without_players"]


def annulled_withdrawals(tournament: Tournament, withdrawn: Iterable[int]) -> frozenset[int]:
    """The withdrawn players who completed fewer than half of their scheduled games."""
    leaving = frozenset(withdrawn)
    if not leaving:
        return frozenset()
    scheduled: Counter[int] = Counter()
    completed: Counter[int] = Counter()
    for rnd in tournament.rounds:
        for game in rnd.games:
            for number in (game.white, game.black):
                if number in leaving:
                    scheduled[number] += 1
                    if game.result is not None and game.result.played:
                        completed[number] += 1
    return frozenset(n for n in leaving if 2 * completed[n] < scheduled[n])


def without_players(tournament: Tournament, removed: frozenset[int]) -> Tournament:
    """The tournament without `removed`: their games, byes and start-list lines go."""
    if not removed:
        return tournament
    rounds = tuple(
        Round(
            rnd.number,
            tuple(g for g in rnd.games if g.white not in removed and g.black not in removed),
            tuple(b for b in rnd.byes if b.player not in removed),
        )
        for rnd in tournament.rounds
    )
    players = tuple(p for p in tournament.players if p.start_number not in removed)
    return replace(tournament, players=players, rounds=rounds)
