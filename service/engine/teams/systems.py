"""The team systems a stored tournament can run (docs/teams.md): FIDE C.04.6 (the team
Swiss) and the team round-robin on the Berger tables (FIDE C.05 Annex 1), once or twice
around.

The individual registry (`engine/systems.py`) pairs players; these pair teams, whose
games are seated board by board from each team's lineup (`teams.draw`). Each entry says
how the team tie-breaks read the event (C.07 Art. 8 note: no Buchholz in a round-robin)
and the tie-breaks used when the organizer names none (C.07 Art. 4.1 leaves the list to
the organizer; these are the project's choices, docs/rules/teams.md).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from service.engine.teams.draw import TeamPairingSystem
from service.engine.teams.model import TeamSystem

__all__ = [
    "TEAM_SYSTEMS",
    "TeamRanking",
    "TeamSystemSpec",
    "default_team_tiebreaks",
    "team_spec_of",
]


class TeamRanking(enum.StrEnum):
    """The primary score of a team event (C.04.6 art. 1.2; C.07 Art. 11)."""

    MATCH_POINTS = "match-points"
    GAME_POINTS = "game-points"


@dataclass(frozen=True, slots=True)
class TeamSystemSpec:
    """What a team system declares."""

    name: TeamPairingSystem
    title: str
    trf_code: str
    """Record 192 (092) written on export."""
    reading: TeamSystem
    """How the team tie-breaks read the event."""
    default_tiebreaks: tuple[str, ...]
    """With match points first; `default_team_tiebreaks` puts game points first for an
    event ranked by game points."""
    late_entries: bool
    """A team may join the running event (the Swiss, like an individual Swiss: FIDE
    C.04.A); a round-robin's schedule is fixed by the teams at the start (C.05 Annex 1)."""


TEAM_SYSTEMS: Mapping[TeamPairingSystem, TeamSystemSpec] = {
    TeamPairingSystem.SWISS: TeamSystemSpec(
        TeamPairingSystem.SWISS,
        "FIDE team Swiss (C.04.6)",
        "FIDE_TEAM_SWISS",
        TeamSystem.SWISS,
        ("PTS", "MPVGP", "EDE", "EMGSB", "BH:MP", "BC"),
        late_entries=True,
    ),
    TeamPairingSystem.ROUND_ROBIN: TeamSystemSpec(
        TeamPairingSystem.ROUND_ROBIN,
        "Team round-robin (Berger tables)",
        "FIDE_TEAM_ROUNDROBIN",
        TeamSystem.ROUND_ROBIN,
        ("PTS", "MPVGP", "EDE", "EMGSB", "BC"),
        late_entries=False,
    ),
}
"""Every team system, keyed by the name a tournament stores."""

_GAME_FIRST = {"PTS": "GPTS", "MPVGP": "MPTS", "EMGSB": "EGGSB", "BH:MP": "BH:GP"}
"""A game-points event's defaults: the same list with game points in the primary place
and match points where the match-point list has game points."""


def team_spec_of(system: str) -> TeamSystemSpec | None:
    """The team system a stored or requested name names, None for any other name."""
    try:
        return TEAM_SYSTEMS[TeamPairingSystem(system)]
    except ValueError:
        return None


def default_team_tiebreaks(spec: TeamSystemSpec, ranking: TeamRanking) -> tuple[str, ...]:
    """The tie-breaks of an event whose organizer names none: PTS (match points) first,
    or GPTS (game points) first for an event ranked by game points."""
    if ranking is TeamRanking.MATCH_POINTS:
        return spec.default_tiebreaks
    return tuple(_GAME_FIRST.get(code, code) for code in spec.default_tiebreaks)
