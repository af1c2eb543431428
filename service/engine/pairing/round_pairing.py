"""The output every pairing system shares: one round's games and byes."""

from __future__ import annotations

from dataclasses import dataclass

from service.engine.errors import EngineError
from service.engine.model import Bye, Game, Tournament

__all__ = ["Pairing", "PairingError", "next_round"]


class PairingError(EngineError):
    """The pairing cannot be made (too few players, no legal pairing exists, ...)."""


def next_round(tournament: Tournament) -> int:
    """The number of the round a round-by-round system pairs next; refused when the
    tournament's declared rounds (XXR, 142) are all paired."""
    number = len(tournament.rounds) + 1
    if tournament.total_rounds is not None and number > tournament.total_rounds:
        raise PairingError(f"all {tournament.total_rounds} rounds are already paired")
    return number


@dataclass(frozen=True, slots=True)
class Pairing:
    """A paired round: games in table order plus every player without a game."""

    round: int
    """The round these pairings are for, 1-based."""
    games: tuple[Game, ...]
    """Games in table order (`Game.table` set, results empty)."""
    byes: tuple[Bye, ...] = ()
    """The pairing-allocated bye, if any, and the byes announced before pairing."""
    notes: tuple[str, ...] = ()
    """Human-readable explanation lines (why each bracket was paired as it was)."""
    warnings: tuple[str, ...] = ()
    """Things an arbiter should know (e.g. fewer players than a system recommends)."""
