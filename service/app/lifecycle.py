"""A tournament's status, moved only by the engine's lifecycle (`engine.lifecycle`):
every workflow that changes `TournamentRow.status` does it here.

A move the lifecycle refuses is a 409 conflict (the state forbids it, RFC 9110 section
15.5.10): the workflows check the state first with a detail saying what to do, so this
is the last guard, never the first word.
"""

from __future__ import annotations

from service.db.tables import TournamentRow
from service.engine.lifecycle import LifecycleError, LifecycleEvent, settle, transition
from service.errors import Conflict

__all__ = ["move", "settle_status"]


def move(tournament: TournamentRow, event: LifecycleEvent) -> None:
    """Set the tournament's status to the lifecycle's next state after `event`."""
    try:
        tournament.status = transition(tournament.status, event)
    except LifecycleError as exc:
        raise Conflict(str(exc), field="status") from None


def settle_status(tournament: TournamentRow, *, finished: bool) -> None:
    """Finish a running tournament whose rounds are all complete, or reopen a finished
    one that has a result missing again (`engine.lifecycle.settle`)."""
    try:
        tournament.status = settle(tournament.status, finished=finished)
    except LifecycleError as exc:
        raise Conflict(str(exc), field="status") from None
