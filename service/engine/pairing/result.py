"""The output every pairing system shares: one round's games and byes."""

from __future__ import annotations

from dataclasses import dataclass

from service.engine.errors import EngineError
from service.engine.model import Bye, Game

__all__ = ["Pairing", "PairingError"]


class PairingError(EngineError):
    """The pairing cannot be made (too few players, no legal pairing exists, ...)."""


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
