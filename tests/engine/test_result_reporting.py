"""The result state machine: (game state, report, actor) -> (new state, event)."""

from __future__ import annotations

import pytest

from service.engine.errors import EngineError, RuleRefusal
from service.engine.result_reporting import (
    GameState,
    NotOwnGame,
    Reporter,
    ResultLocked,
    apply_report,
)

ARBITER = Reporter("organizer")
WHITE = Reporter("player", 3)
BLACK = Reporter("player", 8)
STRANGER = Reporter("player", 5)
FRESH = GameState(white=3, black=8)


def test_one_player_report_is_provisional() -> None:
    step = apply_report(FRESH, "1-0", WHITE)
    assert step.event == "result_reported"
    assert (step.state.status, step.state.result) == ("provisional", "1-0")
    assert step.state.reports == {"white": "1-0"}
    assert FRESH.reports == {}  # the input state is untouched


def test_the_opponent_agreeing_confirms() -> None:
    first = apply_report(FRESH, "1/2-1/2", WHITE).state
    step = apply_report(first, "1/2-1/2", BLACK)
    assert step.event == "result_confirmed"
    assert (step.state.status, step.state.result) == ("confirmed", "1/2-1/2")
    assert step.state.reports == {"white": "1/2-1/2", "black": "1/2-1/2"}


def test_disagreement_disputes_and_clears_the_result() -> None:
    first = apply_report(FRESH, "1-0", WHITE).state
    step = apply_report(first, "0-1", BLACK)
    assert step.event == "result_disputed"
    assert (step.state.status, step.state.result) == ("disputed", None)


def test_the_arbiter_decides_a_dispute_then_corrects() -> None:
    disputed = apply_report(apply_report(FRESH, "1-0", WHITE).state, "0-1", BLACK).state
    decided = apply_report(disputed, "0-1", ARBITER)
    assert decided.event == "result_confirmed"
    assert decided.state.reports["arbiter"] == "0-1"
    corrected = apply_report(decided.state, "1-0", ARBITER)
    assert corrected.event == "result_corrected"
    assert (corrected.state.status, corrected.state.result) == ("confirmed", "1-0")


@pytest.mark.parametrize("actor", [ARBITER, WHITE])
def test_a_repeat_changes_nothing(actor: Reporter) -> None:
    once = apply_report(FRESH, "1-0", actor).state
    again = apply_report(once, "1-0", actor)
    assert again.event is None
    assert again.state == once


def test_a_detail_change_by_the_arbiter_is_an_event() -> None:
    once = apply_report(FRESH, "1-0", ARBITER).state
    assert apply_report(once, "1-0", ARBITER, details_changed=True).event == "result_corrected"


def test_a_player_cannot_change_a_confirmed_result() -> None:
    confirmed = apply_report(FRESH, "1-0", ARBITER).state
    assert apply_report(confirmed, "1-0", BLACK).event is None
    with pytest.raises(ResultLocked):
        apply_report(confirmed, "0-1", BLACK)


def test_a_player_reports_only_their_own_games() -> None:
    with pytest.raises(NotOwnGame):
        apply_report(FRESH, "1-0", STRANGER)


def test_the_refusals_are_engine_errors_naming_their_field() -> None:
    """Both refusals are rule refusals of the engine's one error tree, each naming the
    input at fault."""
    confirmed = apply_report(FRESH, "1-0", ARBITER).state
    with pytest.raises(RuleRefusal) as locked:
        apply_report(confirmed, "0-1", BLACK)
    with pytest.raises(RuleRefusal) as not_own:
        apply_report(FRESH, "1-0", STRANGER)
    assert isinstance(locked.value, EngineError) and locked.value.field == "result"
    assert isinstance(not_own.value, EngineError) and not_own.value.field == "table"


def test_a_player_may_change_their_own_report_before_confirmation() -> None:
    first = apply_report(FRESH, "1-0", WHITE).state
    step = apply_report(first, "1/2-1/2", WHITE)
    assert step.event == "result_reported"
    assert step.state.reports == {"white": "1/2-1/2"}
    assert Reporter("player", 4).label == "player:4"
    assert ARBITER.label == "organizer"
