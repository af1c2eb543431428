"""The result state machine (docs/api.md#results: results from arbiters and mobile apps).

    (game state, report, actor) -> (new state, event)

States: `pending` (nothing reported), `provisional` (one player reported), `confirmed`
(both players agreed, or the arbiter decided), `disputed` (the players disagree; the
game has no result until the arbiter decides). Events: `result_reported`,
`result_confirmed`, `result_disputed`, `result_corrected` (the arbiter changed a
confirmed result). A report that repeats what is recorded changes nothing (no event).

Rules:
- the arbiter's (organizer's) word confirms any game, and corrects a confirmed one;
- a player reports only their own games; the opponent's agreeing report confirms, a
  different one disputes; a player cannot change a confirmed result (ask the arbiter).

Pure and synchronous: no storage, no clock; the caller persists the new state and event.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from service.engine.errors import RuleRefusal

__all__ = [
    "GameState",
    "GameStatus",
    "NotOwnGame",
    "Reporter",
    "ResultLocked",
    "Transition",
    "apply_report",
]


class GameStatus(enum.StrEnum):
    """Where a game's result stands."""

    PENDING = "pending"
    """Nothing reported."""
    PROVISIONAL = "provisional"
    """One player reported; the opponent has not answered."""
    CONFIRMED = "confirmed"
    """Both players agreed, or the arbiter decided."""
    DISPUTED = "disputed"
    """The players disagree; no result until the arbiter decides."""


class NotOwnGame(RuleRefusal):
    """A player reported a game they do not play (the API's 403)."""


class ResultLocked(RuleRefusal):
    """A player tried to change a confirmed result (the API's 409)."""


@dataclass(frozen=True, slots=True)
class Reporter:
    """Who reports: the arbiter (organizer), or a player by start number."""

    kind: Literal["organizer", "player"]
    start_number: int | None = None

    @property
    def label(self) -> str:
        """How events name the reporter: `organizer` or `player:<n>`."""
        return "organizer" if self.kind == "organizer" else f"player:{self.start_number}"


@dataclass(frozen=True, slots=True)
class GameState:
    """A game's result state; `reports` by side (`white`, `black`, `arbiter`)."""

    white: int
    black: int
    status: GameStatus = GameStatus.PENDING
    result: str | None = None
    reports: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Transition:
    """The state after a report and the event to log (None: nothing changed)."""

    state: GameState
    event: str | None


def apply_report(
    game: GameState, result: str, actor: Reporter, *, details_changed: bool = False
) -> Transition:
    """Apply one report. `details_changed` says the arbiter's report also changes a
    detail stored with the result (e.g. a FLAMPARK time shortening), which makes even
    an identical result an event."""
    reports = dict(game.reports)
    if actor.kind == "organizer":
        if game.status == GameStatus.CONFIRMED and game.result == result and not details_changed:
            return Transition(game, None)
        event = "result_corrected" if game.status == GameStatus.CONFIRMED else "result_confirmed"
        reports["arbiter"] = result
        return Transition(_with(game, GameStatus.CONFIRMED, result, reports), event)
    side = _side(game, actor.start_number)
    if game.status == GameStatus.CONFIRMED:
        if game.result == result:
            return Transition(game, None)
        raise ResultLocked(
            f"the result is already confirmed as {game.result}; ask the arbiter", field="result"
        )
    if reports.get(side) == result:
        return Transition(game, None)
    reports[side] = result
    other = reports.get("black" if side == "white" else "white")
    if other is None:
        return Transition(_with(game, GameStatus.PROVISIONAL, result, reports), "result_reported")
    if other == result:
        return Transition(_with(game, GameStatus.CONFIRMED, result, reports), "result_confirmed")
    return Transition(_with(game, GameStatus.DISPUTED, None, reports), "result_disputed")


def _side(game: GameState, start_number: int | None) -> str:
    if start_number == game.white:
        return "white"
    if start_number == game.black:
        return "black"
    raise NotOwnGame("a player may report only the results of their own games", field="table")


def _with(
    game: GameState, status: GameStatus, result: str | None, reports: dict[str, str]
) -> GameState:
    return GameState(game.white, game.black, status, result, reports)
