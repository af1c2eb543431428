"""The live channel's messages (server to client), as published in the AsyncAPI
document; the live hub encodes them itself (service/live/frames.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from service.api.schemas.bridge import BridgeRanking
from service.api.schemas.prizes import PrizesPublic
from service.api.schemas.standings import StandingRowPublic, StandingsPublic

__all__ = [
    "BatchMessage",
    "ErrorMessage",
    "EventMessage",
    "InnerTableDelta",
    "LiveRatingChange",
    "LiveStandingRow",
    "LiveStandings",
    "PingMessage",
    "SnapshotMessage",
]


class LiveRatingChange(BaseModel):
    """A rated player's FIDE rating change so far, short (FIDE B.02 8.3;
    docs/live.md#rating-changes): `GET /standings?ratings=true` has the whole figures."""

    k: int | None = Field(description="K applied; null while undecided (facts missing).")
    expected: float | None = Field(description="We, the sum of table 8.1.2's PD.")
    change: float | None = Field(description="K x (W - We); null while K is undecided.")


class LiveStandingRow(StandingRowPublic):
    """A row of the live standings: in a rated tournament (a player has a rating) it
    carries `rating_change`, null for an unrated player."""

    rating_change: LiveRatingChange | None = Field(  # type: ignore[assignment]
        default=None,
        exclude_if=lambda value: value is None,
        description="A rated tournament only: the short rating change; null for an unrated player.",
    )


class LiveStandings(StandingsPublic):
    """The standings as the live channel sends them (`rating_change` short)."""

    rows: list[LiveStandingRow]  # type: ignore[assignment]


class SnapshotMessage(BaseModel):
    """The whole state to start from: sent first, and again whenever a client fell too
    far behind (its `seq` then covers every event the client missed)."""

    type: Literal["snapshot"]
    seq: int = Field(description="The newest event this state includes")
    status: str = Field(description="registration, running or finished")
    round: int = Field(description="The current round")
    standings: LiveStandings | None = Field(default=None, description="Chess tournaments")
    ranking: BridgeRanking | None = Field(default=None, description="Bridge events")
    prizes: PrizesPublic | None = Field(
        default=None,
        description="An individual chess tournament with prizes set: the prize list as "
        "`GET /prizes` answers it (`missing` null unless personal data is published)",
    )


class InnerTableDelta(BaseModel):
    """A table inside the standings diffed like its rows (a team event's `teams`, row id
    `team`): patches, the ids they change, every id in table order and, with
    `?delta=compact`, every row's rank in that order. The team rows are left out of the
    event's `standings`; the client keeps them from the snapshot's `standings.teams`."""

    rows: list[dict[str, Any]] = Field(description="Changed rows as patches; a new row in full")
    changed: list[int]
    positions: list[int]
    ranks: list[int] | None = Field(
        default=None, description="`?delta=compact` only: every row's rank, in `positions` order"
    )


class EventMessage(BaseModel):
    """One event of the tournament's log, in `seq` order with no gap. The newest event of
    a burst that moves the table also carries the table as a delta: `standings` (or
    `ranking`) without unchanged rows, a changed row as a patch (its id and the fields
    that changed; a new row in full), `changed` (the ids of those rows) and `positions`
    (every row id in table order). A feed opened with `?delta=compact` gives the ranks as
    one list instead, `ranks` (every row's rank, in `positions` order), and patches only
    the rows whose other fields changed. A team event (docs/teams.md) carries its team
    ranking the same way as a second table, `teams`. A tournament with prizes set
    carries its new prize list, `prizes`, on that event when it changed."""

    type: Literal["event"]
    seq: int
    event: str = Field(description="result_reported, result_confirmed, round_paired, ...")
    payload: dict[str, Any] = Field(description="The event as stored in the log")
    standings: dict[str, Any] | None = None
    ranking: dict[str, Any] | None = None
    changed: list[int | str] | None = None
    positions: list[int | str] | None = None
    ranks: list[int] | None = Field(
        default=None, description="`?delta=compact` only: every row's rank, in `positions` order"
    )
    teams: InnerTableDelta | None = Field(
        default=None, description="A team event: the team ranking as a delta (`team` ids)"
    )
    prizes: PrizesPublic | None = Field(
        default=None,
        description="The whole prize list, on the event that moves the table when the list "
        "changed; present and null once the prizes are unset (absent: unchanged)",
    )


class BatchMessage(BaseModel):
    """Consecutive events `from`..`to` in one message, for a client slightly behind."""

    type: Literal["batch"]
    from_: int = Field(alias="from")
    to: int
    frames: list[EventMessage]


class PingMessage(BaseModel):
    """A heartbeat while nothing happens; `seq` is the tournament's newest event."""

    type: Literal["ping"]
    seq: int


class ErrorMessage(BaseModel):
    """Why the server is about to close the socket (then the close frame follows)."""

    type: Literal["error"]
    status: int
    detail: str
    field: str | None = None
