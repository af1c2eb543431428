"""A tournament's lifecycle: its states and the moves between them, and the start order
of its players. Pure: the application layer reads the state from storage, asks
`transition` for the next one and stores what it gets.

    registration ──start──► running ──finish──► finished
                               ▲                    │
                               └──────reopen────────┘   (a bridge result removed)

`archive` is allowed in every state and keeps it: an archived tournament is hidden and
read-only (its `archived_at`), its status stays what it was. Any other move is a
`LifecycleError`.

The start order (`start_order`) is the service's reading of the initial order of FIDE
C.04.2 (docs/rules/readings.md): rating descending, then FIDE title (GM, IM, WGM, FM,
WIM, CM, WFM, WCM, none), then name case-insensitively, then registration order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from service.engine.errors import EngineError

__all__ = [
    "Entrant",
    "LifecycleError",
    "LifecycleEvent",
    "TournamentStatus",
    "settle",
    "start_order",
    "transition",
]


class TournamentStatus(StrEnum):
    """Where a tournament stands: its start list open, its rounds being played, done."""

    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"


class LifecycleEvent(StrEnum):
    """What moves a tournament on."""

    START = "start"
    """The start list closes (or a file is imported, or a bridge event is created)."""
    FINISH = "finish"
    """Every declared round is paired and complete (every board of a bridge event)."""
    REOPEN = "reopen"
    """A finished bridge event has a result removed: a board is to be played again."""
    ARCHIVE = "archive"
    """The organizer archives the tournament; its status is kept."""


class LifecycleError(EngineError):
    """A move the lifecycle does not allow from the current state (`field`: status)."""


_MOVES: dict[tuple[TournamentStatus, LifecycleEvent], TournamentStatus] = {
    (TournamentStatus.REGISTRATION, LifecycleEvent.START): TournamentStatus.RUNNING,
    (TournamentStatus.RUNNING, LifecycleEvent.FINISH): TournamentStatus.FINISHED,
    (TournamentStatus.FINISHED, LifecycleEvent.REOPEN): TournamentStatus.RUNNING,
    **{(state, LifecycleEvent.ARCHIVE): state for state in TournamentStatus},
}
"""(state, event) -> the next state; every pair not listed is refused."""


def transition(current: str, event: LifecycleEvent) -> TournamentStatus:
    """The state after `event` in state `current`; `LifecycleError` for a move the
    lifecycle does not allow (a start once started, a finish before the start, ...)."""
    try:
        state = TournamentStatus(current)
    except ValueError:
        raise LifecycleError(f"unknown tournament status {current!r}", field="status") from None
    following = _MOVES.get((state, event))
    if following is None:
        raise LifecycleError(
            f"a tournament that is {state.value} cannot {event.value}", field="status"
        )
    return following


def settle(current: str, *, finished: bool) -> TournamentStatus:
    """The state of a started tournament once its results are counted: it finishes when
    `finished` and is running, is reopened when not `finished` and finished, else it
    stays as it is. A tournament not started has no results to count
    (`LifecycleError`)."""
    event = LifecycleEvent.FINISH if finished else LifecycleEvent.REOPEN
    target = TournamentStatus.FINISHED if finished else TournamentStatus.RUNNING
    if current == target:
        return target
    return transition(current, event)


@dataclass(frozen=True, slots=True)
class Entrant:
    """What the start order reads of a registered player."""

    rating: int
    name: str
    registered: int
    """Registration order (any increasing number: the row's id)."""
    title: str | None = None


TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
"""FIDE titles in the order that ranks players of equal rating (FIDE C.04.2, initial
order); an untitled player comes after them."""


def _title_rank(title: str | None) -> int:
    upper = (title or "").upper()
    return TITLE_ORDER.index(upper) if upper in TITLE_ORDER else len(TITLE_ORDER)


def start_order(entrants: Sequence[Entrant]) -> list[int]:
    """The indices of `entrants` in start-number order: rating descending, then title,
    then name (case-insensitive), then registration order. Start number `n` goes to
    `entrants[start_order(entrants)[n - 1]]`."""

    def key(i: int) -> tuple[int, int, str, int]:
        entrant = entrants[i]
        return (
            -entrant.rating,
            _title_rank(entrant.title),
            entrant.name.casefold(),
            entrant.registered,
        )

    return sorted(range(len(entrants)), key=key)
