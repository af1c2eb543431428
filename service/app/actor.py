"""Who writes to a chess tournament: the organizer, or one of its players.

The API's token check names the actor (`service.api.deps`); each workflow decides what
that actor may do (a player reports only their own games).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Actor"]


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is writing: the organizer, or a player (by start number)."""

    kind: Literal["organizer", "player"]
    start_number: int | None = None
