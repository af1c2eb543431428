"""Errors raised by the FLAMPARK schedule (all are ``ValueError`` via ``PairingError``).

* ``FlamparkError``: base class; the API maps it to one problem type.
* ``TooFewPlayersError``: fewer than 2 x rounds players (seed 000, "Zawodnicy").
* ``FlamparkOptionError``: an option that cannot be honoured: unknown kind or variant,
  a round order that is not a permutation, a kind the variant does not allow, or more
  rounds of one narrowing kind than its classes can hold without a repeated game.
"""

from __future__ import annotations

from service.engine.pairing.result import PairingError

__all__ = ["FlamparkError", "FlamparkOptionError", "TooFewPlayersError"]


class FlamparkError(PairingError):
    """A FLAMPARK schedule cannot be built."""


class TooFewPlayersError(FlamparkError):
    """Fewer players than the system needs (seed 000: at least twice the rounds)."""


class FlamparkOptionError(FlamparkError):
    """An option of the schedule is invalid or cannot be honoured."""
