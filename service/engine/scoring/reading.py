"""Which reading of FIDE C.07 a tournament's standings take, and its default tie-breaks.

C.07 counts unplayed rounds one way in events paired round by round (Swiss: art. 16,
the dummy opponent and the adjusted scores) and another in events whose pairings are
fixed in advance (round-robins: 2026 art. 15.2, forfeits are games against the
scheduled opponent). A Swiss in which every pair happens to meet (8 players, 7 rounds)
has the shape of a round-robin, so the reading must come from what the caller says:

1. the tournament system named by the caller (`"system"` in a JSON body, the stored
   tournament's system, `arbiter standings --system`), source "request";
2. else the system a TRF file declares in record 092 (or 192), source "trf-092";
3. else the shape of the event (`context.is_round_robin`), source "inferred".

Which tie-breaks a system uses when the organizer names none (C.07 art. 4.1 leaves the
list to the organizer) is declared by the system's registry entry (engine/systems.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from service.engine.model import Tournament
from service.engine.scoring.tiebreaks.context import is_round_robin
from service.engine.systems import SYSTEMS, SystemName, declares_other_swiss
from service.engine.systems import system_from_trf as registered_system

__all__ = [
    "DEFAULT_JCA",
    "DEFAULT_ROUND_ROBIN",
    "DEFAULT_SWISS",
    "DEFAULT_TIEBREAKS",
    "ROUND_ROBIN_SYSTEMS",
    "TOURNAMENT_SYSTEMS",
    "Reading",
    "default_tiebreaks",
    "reading_for",
    "system_from_trf",
]

TOURNAMENT_SYSTEMS: tuple[str, ...] = tuple(SystemName)
"""The tournament systems' names, as the API's tournaments use them (engine/systems.py)."""

ROUND_ROBIN_SYSTEMS = frozenset(name for name, spec in SYSTEMS.items() if spec.round_robin_reading)
"""Systems with pre-determined pairings in the sense of C.07 (2026) art. 15.2."""

Source = Literal["request", "trf-092", "inferred"]

DEFAULT_ROUND_ROBIN: tuple[str, ...] = SYSTEMS[SystemName.ROUND_ROBIN].default_tiebreaks
"""Default order for round-robins (the tie-break notes' Berger coefficient, SB, first)."""

DEFAULT_SWISS: tuple[str, ...] = SYSTEMS[SystemName.SWISS_DUTCH].default_tiebreaks
"""Default order for Swiss events, and for an event whose system nobody names."""

DEFAULT_JCA: tuple[str, ...] = SYSTEMS[SystemName.SWISS_JCA].default_tiebreaks
"""JCA Swiss rules: the simple performance method first, then Solkoff, median Solkoff, direct
encounter (the text lists the others as alternatives to announce before round 1)."""

DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    name: spec.default_tiebreaks for name, spec in SYSTEMS.items()
}
"""The tie-break order each tournament system uses unless the organizer sets one."""


@dataclass(frozen=True, slots=True)
class Reading:
    """The C.07 reading applied to a tournament's standings."""

    round_robin: bool
    """True: pre-determined pairings (2026 art. 15.2); False: paired round by round."""
    system: str | None
    """The tournament system named or declared; None when the reading was inferred."""
    source: Source
    """Who decided: the caller ("request"), the TRF file's 092 record, or the shape."""

    @property
    def name(self) -> str:
        """ "round-robin" or "swiss": the reading as the responses name it."""
        return "round-robin" if self.round_robin else "swiss"

    def default_tiebreaks(self) -> tuple[str, ...]:
        """The tie-breaks of the named system, else of the inferred reading."""
        if self.system is not None:
            return default_tiebreaks(self.system)
        return DEFAULT_ROUND_ROBIN if self.round_robin else DEFAULT_SWISS

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"reading": self.name, "system": self.system, "source": self.source}


def default_tiebreaks(system: str) -> tuple[str, ...]:
    """The default tie-break order of a tournament system (Swiss for unknown names)."""
    return DEFAULT_TIEBREAKS.get(system, DEFAULT_SWISS)


def system_from_trf(declared: str | None) -> str | None:
    """The tournament system a TRF 092/192 record names, None when it names none.

    The registry's reading (engine/systems.py: FIDE_DUTCH_2025, FIDE_ROUNDROBIN,
    "Swiss system", "Round robin", "Berger", JCA, FLAMPARK, ...); another Swiss system
    (Burstein, Dubov, Monrad, Lim) reads as "swiss-dutch", since C.07 counts every
    Swiss the same way.
    """
    spec = registered_system(declared)
    if spec is not None:
        return spec.name
    return SystemName.SWISS_DUTCH if declares_other_swiss(declared) else None


def reading_for(
    tournament: Tournament, system: str | None = None, declared: str | None = None
) -> Reading:
    """The reading for a tournament: the system the caller names, else the one a TRF
    file declares (`declared`, the 092 record's text), else the event's shape."""
    if system is not None:
        return Reading(system in ROUND_ROBIN_SYSTEMS, system, "request")
    from_file = system_from_trf(declared)
    if from_file is not None:
        return Reading(from_file in ROUND_ROBIN_SYSTEMS, from_file, "trf-092")
    return Reading(is_round_robin(tournament), None, "inferred")
