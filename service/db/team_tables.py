"""Tables of team tournaments (docs/teams.md).

A team tournament is a `tournaments` row whose system is a team system
(`engine.teams.systems`); its players are ordinary `players` rows (identifiers, tokens,
cards like any player) and every board of a match is an ordinary `games` row, so the
result machinery, the event log and the live feed serve them unchanged. Two tables add
what teams need: the teams (board order, lineups, the captain's hashed token), and the
matches of each round (which team meets which, the byes, a match forfeited whole).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from service.db.column_types import JSONType

__all__ = ["TeamMatchRow", "TeamRow"]


class TeamRow(SQLModel, table=True):
    """A team: its number (1, 2, 3 in registration order, its pairing number), its
    players in board order (reserves last) and the lineups its captain named."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    number: int
    name: str = Field(max_length=200)
    players: list[int] = Field(default_factory=list, sa_column=Column(JSONType))
    """The players' identifiers (`players.number`) in board order."""
    lineups: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSONType))
    """Round number (as text) -> the identifiers fielded on boards 1..n."""
    absences: dict[str, str] | None = Field(default=None, sa_column=Column(JSONType))
    """Round number (as text) -> the kind of a team Swiss round the team announced it
    will not play (`zero-point`: not paired, no points); None: none announced."""
    awarded: dict[str, list[str]] | None = Field(default=None, sa_column=Column(JSONType))
    """Round number (as text) -> [match points, game points] (decimal text) the organizer
    gave the team for a round it has no match in: an absence, a late team's missed round
    (TRF-26 299); None: none."""
    captain_token_hash: str | None = Field(default=None, max_length=64, index=True)
    captain_token_expires_at: datetime | None = None


class TeamMatchRow(SQLModel, table=True):
    """One match of a team round (its boards are `games` rows), or a team's bye."""

    __tablename__ = "team_matches"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "match_no"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    round: int
    match_no: int
    """1, 2, 3 for the matches in table order; byes follow the matches."""
    home: int
    """The first-named team (White on board 1), or the team with the bye."""
    away: int | None = None
    """None for a bye."""
    kind: str = Field(default="match", max_length=20)
    """`match`, `pairing-allocated` (C.04.6 art. 3.4) or `free` (a round-robin's idle team,
    or a team an imported file leaves out of a Swiss round: no opponent, no points)."""
    forfeit: str | None = Field(default=None, max_length=2)
    """A match forfeited as a whole (`+-`, `-+`, `--`; TRF-26 record 330)."""
    layout: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSONType))
    """The boards as played, when not the default seating (`db.team_layout`): None for
    boards 1..n with the board colour sequence, a game on each."""
