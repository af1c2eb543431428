"""Inputs and outputs of the team Swiss engine (FIDE C.04.6; docs/rules/team-swiss.md).

The engine needs little from a team competition: per team its pairing number, its two
scores, the teams it has met, the colour it had on the first board each round, and
whether it already scored without playing. Everything is immutable so a round can be
re-paired from the same history (the checker does that).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from service.engine.model import Colour

__all__ = [
    "ColourPreferenceType",
    "PrimaryScore",
    "TeamMatch",
    "TeamPairing",
    "TeamState",
    "TeamSwissSettings",
]


class ColourPreferenceType(enum.StrEnum):
    """Which colour preferences the competition uses (C.04.6 art. 1.7)."""

    A = "A"
    """Simple preferences: a team prefers a colour or has no preference."""
    B = "B"
    """Strong and mild preferences."""
    NONE = "none"
    """Colours carry no weight: no preferences, colours by the first-team rules only."""


class PrimaryScore(enum.StrEnum):
    """The score that forms score groups (C.04.6 art. 1.2); the other one is secondary."""

    MATCH = "match"
    GAME = "game"


@dataclass(frozen=True, slots=True)
class TeamState:
    """One team as the pairing of the next round sees it.

    `colours` holds one entry per round already played: the colour the team had on the
    first board (art. 1.6.1), or None for a round without a played match (bye, forfeit,
    absence). `opponents` lists the teams really met (a forfeited match is not a
    meeting, so it can be paired again).
    """

    number: int
    """Tournament pairing number (TPN), 1-based, from the initial order."""
    match_points: float = 0.0
    game_points: float = 0.0
    opponents: frozenset[int] = frozenset()
    colours: tuple[Colour | None, ...] = ()
    received_pab: bool = False
    """Already had a pairing-allocated bye."""
    scored_without_playing: bool = False
    """Already won a match by forfeit (C2: then no PAB)."""
    floated_last_round: bool = False
    """Played the previous round against a team with a different score (a floater,
    art. 1.5; used by C7 and C10)."""

    def score(self, primary: PrimaryScore) -> float:
        return self.match_points if primary is PrimaryScore.MATCH else self.game_points

    def secondary(self, primary: PrimaryScore) -> float:
        return self.game_points if primary is PrimaryScore.MATCH else self.match_points

    @property
    def played(self) -> tuple[Colour, ...]:
        """First-board colours of the matches really played, oldest first."""
        return tuple(c for c in self.colours if c is not None)


@dataclass(frozen=True, slots=True)
class TeamSwissSettings:
    """Competition settings the pairing needs."""

    rounds: int
    """Rounds declared beforehand (C.04.1.a)."""
    colour_preferences: ColourPreferenceType = ColourPreferenceType.A
    primary_score: PrimaryScore = PrimaryScore.MATCH
    secondary_for_colours: bool = True
    """Whether the secondary score helps choose the first-team (art. 1.2, 4.2.2: used
    unless the rules of the competition say not to use it)."""
    initial_colour: Colour = Colour.WHITE
    """Drawn by lot before round 1 (art. 4.1)."""
    forbidden: frozenset[frozenset[int]] = field(default_factory=frozenset)
    """Pairs the regulations forbid (treated like teams that already met)."""


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """A match: `white` is the first-named team, the one with White on board 1."""

    table: int
    white: int
    black: int


@dataclass(frozen=True, slots=True)
class TeamPairing:
    """One round of a team Swiss."""

    round: int
    matches: tuple[TeamMatch, ...]
    bye: int | None = None
    """The team with the pairing-allocated bye, if the count is odd."""
    notes: tuple[str, ...] = ()
