"""Who writes to a chess tournament: the organizer, one of its players, or a team's
captain.

The API's token check names the actor (`service.api.deps`); each workflow decides what
that actor may do (a player reports only their own games).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Actor"]


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is writing: the organizer, a player (by start number) or a team's captain
    (by team number: docs/teams.md)."""

    kind: Literal["organizer", "player", "captain"]
    start_number: int | None = None
    team: int | None = None
