"""Store a reported result: the game's new state, its event, and whether the game's
round still has a game that is not confirmed (every standings-changing write appends
an event; the round moves on once all its games are confirmed).

The caller holds the tournament's lock (`events.lock_and_reload`), so what this reads
is what the next writer will see. On PostgreSQL the three steps are one statement, one
round trip instead of three: each round trip costs the server a socket write and a
wake-up of the database backend, a large part of a write's time on a two-core machine
(docs/decisions/write-round-trips.md). On SQLite they are four statements taken to the
driver's thread in one trip: each trip waits for two turns of the event loop, which a
crowd of spectators makes long (`service.db.sqlite_driver`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.columns import driver_fetch_one, driver_run_in_one_trip
from service.db.event_types import Event
from service.db.events import (
    EVENT_BINDS,
    NUMBER_AND_STORE_EVENT,
    event_params,
    keep_appended,
)
from service.db.tables import GameRow
from service.engine.result_reporting import GameStatus

__all__ = ["GameChange", "StoredResult", "store_result"]


@dataclass(frozen=True, slots=True)
class GameChange:
    """A game's columns after a report."""

    result: str | None
    status: str
    reports: dict[str, Any]
    extra: dict[str, Any]
    shortened_minutes: float | None


@dataclass(frozen=True, slots=True)
class StoredResult:
    """What storing a result gave."""

    seq: int
    """The event's sequence number."""
    round_open: bool | None
    """Whether another game of the game's round is still not confirmed; None when the
    caller did not ask."""


async def store_result(
    session: AsyncSession,
    game: GameRow,
    change: GameChange,
    event: Event,
    *,
    check_round: bool,
) -> StoredResult:
    """Write `change` to `game`, append `event`, and (with `check_round`) look for a game
    of the same round that is not confirmed. `game` ends up holding the new state, as
    stored."""
    if session.get_bind().dialect.name == "postgresql":
        return await _store_in_one_statement(session, game, change, event)
    return await _store_in_one_trip(session, game, change, event, check_round=check_round)


def _columns(change: GameChange) -> dict[str, Any]:
    """The game's columns by name (`GameChange` names its fields after them)."""
    return {field.name: getattr(change, field.name) for field in fields(change)}


async def _store_in_one_statement(
    session: AsyncSession, game: GameRow, change: GameChange, event: Event
) -> StoredResult:
    columns = _columns(change)
    params = {**columns, **event_params(game.tournament_id, event)}
    seq, round_open = await driver_fetch_one(
        session,
        _STORE_GAME_EVENT_AND_PROBE,
        {**params, "game": game.id, "round": game.round},
    )
    for name, value in columns.items():
        set_committed_value(game, name, value)
    keep_appended(session, game.tournament_id, int(seq))
    return StoredResult(int(seq), bool(round_open))


async def _store_in_one_trip(
    session: AsyncSession, game: GameRow, change: GameChange, event: Event, *, check_round: bool
) -> StoredResult:
    columns = _columns(change)
    params = {**columns, **event_params(game.tournament_id, event), "game": game.id}
    steps = [(_SQLITE_STORE_GAME, params), (_SQLITE_NUMBER, params), (_SQLITE_STORE_EVENT, params)]
    if check_round:
        steps.append((_ANY_UNCONFIRMED, {**params, "round": game.round, "game": -1}))
    answers = await driver_run_in_one_trip(session, steps)
    for name, value in columns.items():
        set_committed_value(game, name, value)
    seq = keep_appended(session, game.tournament_id, int(answers[2][0][0]))
    return StoredResult(seq, bool(answers[3]) if check_round else None)


_UNCONFIRMED_IN_ROUND = (
    "SELECT 1 FROM games WHERE tournament_id = :tournament AND round = :round "
    f"AND status != '{GameStatus.CONFIRMED}' AND id != :game"
)
_ANY_UNCONFIRMED = text(_UNCONFIRMED_IN_ROUND + " LIMIT 1")
"""SQLite: run after the game is stored, so the game itself counts (`game` = -1)."""

_GAME_COLUMNS = GameRow.__table__.c  # type: ignore[attr-defined]
_STORE_GAME = (
    "UPDATE games SET result = :result, status = :status, reports = :reports, "
    "extra = :extra, shortened_minutes = :shortened_minutes WHERE id = :game"
)
_GAME_BINDS = (
    bindparam("reports", type_=_GAME_COLUMNS.reports.type),
    bindparam("extra", type_=_GAME_COLUMNS.extra.type),
)
_SQLITE_STORE_GAME = text(_STORE_GAME).bindparams(*_GAME_BINDS)
_SQLITE_NUMBER = text("UPDATE tournaments SET last_seq = last_seq + 1 WHERE id = :tournament")
_SQLITE_STORE_EVENT = text(
    "INSERT INTO events (tournament_id, seq, type, payload, created_at) "
    "SELECT id, last_seq, :type, :payload, :created_at FROM tournaments "
    "WHERE id = :tournament RETURNING seq"
).bindparams(*EVENT_BINDS)
"""SQLite: the game's new state, the next seq and the event row, then (when asked) the
round probe, as four statements taken to the driver's thread in one trip
(`driver_run_in_one_trip`): a reported result's writes cost one trip instead of one per
statement (`service.db.sqlite_driver`)."""
_STORE_GAME_EVENT_AND_PROBE = text(
    f"WITH changed AS ({_STORE_GAME}), {NUMBER_AND_STORE_EVENT} "
    f"SELECT seq, EXISTS ({_UNCONFIRMED_IN_ROUND}) FROM stored"
).bindparams(*_GAME_BINDS, *EVENT_BINDS)
"""PostgreSQL: the game's new state, the next seq, the event row and its NOTIFY (queued,
sent at commit), and the round probe, in one statement, run on the driver
(`driver_fetch_one`). Every part reads the snapshot taken as the statement starts,
after the tournament's lock was granted: the probe sees the game's state before this
update, so the game is left out of it (`id != :game`)."""
