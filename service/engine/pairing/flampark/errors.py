"""Errors raised by the FLAMPARK schedule (EngineError via PairingError).

* ``FlamparkScheduleError``: base class (the scoring's errors are
  ``service.engine.scoring.flampark.FlamparkError``).
* ``TooFewPlayersError``: fewer than 2 x rounds players (Formuła FLAMPARK, "Zawodnicy").
* ``FlamparkOptionError``: an option that cannot be honoured: unknown kind or variant,
  a round order that is not a permutation, a kind the variant does not allow, or more
  rounds of one narrowing kind than its classes can hold without a repeated game.
"""

from __future__ import annotations

from service.engine.pairing.round_pairing import PairingError

__all__ = ["FlamparkOptionError", "FlamparkScheduleError", "TooFewPlayersError"]


class FlamparkScheduleError(PairingError):
    """A FLAMPARK schedule cannot be built."""


class TooFewPlayersError(FlamparkScheduleError):
    """Fewer players than the system needs (Formuła FLAMPARK: at least twice the rounds)."""


class FlamparkOptionError(FlamparkScheduleError):
    """An option of the schedule is invalid or cannot be honoured."""
