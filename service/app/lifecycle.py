"""A tournament's status, moved only by the engine's lifecycle (`engine.lifecycle`):
every workflow that changes `TournamentRow.status` does it here.

A move the lifecycle refuses is a 409 conflict (the state forbids it, RFC 9110 section
15.5.10): the workflows check the state first with a detail saying what to do, so this
is the last guard, never the first word.
"""

from __future__ import annotations

from service.db.tables import TournamentRow
from service.engine.lifecycle import (
    LifecycleError,
    LifecycleEvent,
    TournamentStatus,
    settle,
    transition,
)
from service.engine.systems import spec_of
from service.errors import Conflict

__all__ = ["move", "require_open", "settle_status"]


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


def require_open(tournament: TournamentRow) -> None:
    """Refuse (409) a change of the start list once it is closed, saying what may still
    change the field: in a running tournament a withdrawal, and in a system that takes
    late entries a late entry while rounds are left to pair; nothing once finished."""
    if tournament.status == TournamentStatus.REGISTRATION:
        return
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict(
            "the tournament is finished: its field no longer changes (no entry, change, "
            "removal or withdrawal); the organizer may still correct results",
            field="status",
        )
    spec = spec_of(tournament.system)
    late = (
        ", or a late entry (POST .../players) while rounds are left to pair"
        if spec is not None and spec.late_entries
        else ""
    )
    raise Conflict(
        "the start list is closed (the tournament has started): only a withdrawal "
        f'(PATCH with {{"withdrawn": true}}){late} changes the field now',
        field="status",
    )
