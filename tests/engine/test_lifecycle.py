"""A tournament's lifecycle and start order (engine/lifecycle.py)."""

from __future__ import annotations

import pytest

from service.engine.errors import EngineError
from service.engine.lifecycle import (
    Entrant,
    LifecycleError,
    LifecycleEvent,
    TournamentStatus,
    settle,
    start_order,
    transition,
)

REGISTRATION, RUNNING, FINISHED = TournamentStatus
START, FINISH, REOPEN, ARCHIVE = LifecycleEvent


@pytest.mark.parametrize(
    ("current", "event", "expected"),
    [
        (REGISTRATION, START, RUNNING),
        (RUNNING, FINISH, FINISHED),
        (FINISHED, REOPEN, RUNNING),
        (REGISTRATION, ARCHIVE, REGISTRATION),
        (RUNNING, ARCHIVE, RUNNING),
        (FINISHED, ARCHIVE, FINISHED),
        ("running", FINISH, FINISHED),  # as stored: a plain string
    ],
)
def test_the_allowed_moves(current: str, event: LifecycleEvent, expected: str) -> None:
    assert transition(current, event) is TournamentStatus(expected)


@pytest.mark.parametrize(
    ("current", "event"),
    [
        (REGISTRATION, FINISH),
        (REGISTRATION, REOPEN),
        (RUNNING, START),
        (RUNNING, REOPEN),
        (FINISHED, START),
        (FINISHED, FINISH),
        ("paused", START),
    ],
)
def test_every_other_move_is_refused(current: str, event: LifecycleEvent) -> None:
    with pytest.raises(LifecycleError) as refused:
        transition(current, event)
    assert isinstance(refused.value, EngineError) and refused.value.field == "status"


def test_settle_finishes_reopens_or_keeps() -> None:
    assert settle(RUNNING, finished=True) is FINISHED
    assert settle(RUNNING, finished=False) is RUNNING
    assert settle(FINISHED, finished=True) is FINISHED  # a correction after the end
    assert settle(FINISHED, finished=False) is RUNNING  # a bridge result removed
    with pytest.raises(LifecycleError):
        settle(REGISTRATION, finished=True)


def test_start_order_is_rating_then_name_then_registration() -> None:
    entrants = [
        Entrant(2000, "bob", 1),
        Entrant(2000, "Ann", 2),
        Entrant(2100, "Cid", 3),
        Entrant(0, "Dan", 4),
        Entrant(2000, "ann", 0),  # same name, registered first
    ]
    order = start_order(entrants)
    assert [entrants[i].name for i in order] == ["Cid", "ann", "Ann", "bob", "Dan"]
    assert start_order([]) == []
