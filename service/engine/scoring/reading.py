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

`DEFAULT_TIEBREAKS` is the one place that says which tie-breaks a system uses when
the organizer names none (C.07 art. 4.1 leaves the list to the organizer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from service.engine.model import Tournament
from service.engine.scoring.tiebreaks.context import is_round_robin

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

TOURNAMENT_SYSTEMS = ("swiss-dutch", "swiss-jca", "round-robin", "double-round-robin", "flampark")
"""The tournament systems' names, as the API's tournaments use them."""

ROUND_ROBIN_SYSTEMS = frozenset({"round-robin", "double-round-robin"})
"""Systems with pre-determined pairings in the sense of C.07 (2026) art. 15.2."""

Source = Literal["request", "trf-092", "inferred"]

DEFAULT_ROUND_ROBIN: tuple[str, ...] = ("SB", "DE", "WIN", "KS")
"""Default order for round-robins. C.07 art. 4.1 leaves the list to the organiser;
this is the project's choice (seed 002's Berger coefficient first)."""

DEFAULT_SWISS: tuple[str, ...] = ("BH-C1", "BH", "SB", "DE", "WIN")
"""Default order for Swiss events: the list most federations publish (Buchholz cut 1,
Buchholz, Sonneborn-Berger, direct encounter, wins); organisers publish their own
under C.07 art. 4.1."""

DEFAULT_JCA: tuple[str, ...] = ("PERF-JCA", "BH", "BH-M1", "DE")
"""Seed 001: the simple performance method first, then Solkoff, median Solkoff, direct
encounter (the text lists the others as alternatives to announce before round 1)."""

DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "swiss-dutch": DEFAULT_SWISS,
    "swiss-jca": DEFAULT_JCA,
    "round-robin": DEFAULT_ROUND_ROBIN,
    "double-round-robin": DEFAULT_ROUND_ROBIN,
    "flampark": (),  # seed 000 ranks by PF alone; an organizer may still add tie-breaks
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

    TRF-26 record 192 codes (FIDE_DUTCH_2025, FIDE_BURSTEIN, FIDE_DUBOV,
    FIDE_ROUNDROBIN, ...) and the free text of TRF-16 record 092 ("Swiss system",
    "Round robin", "Berger"): a round-robin or Berger name gives "round-robin"
    ("double-round-robin" when it says double), a Dutch or other Swiss name
    "swiss-dutch" (the Swiss systems share one reading), JCA "swiss-jca", FLAMPARK
    "flampark"; anything else is no statement.
    """
    text = (declared or "").upper().replace("_", " ").replace("-", " ")
    squeezed = text.replace(" ", "")
    if not squeezed:
        return None
    if "ROUNDROBIN" in squeezed or "BERGER" in squeezed or "SCHEVENING" in squeezed:
        return "double-round-robin" if "DOUBLE" in squeezed else "round-robin"
    if "FLAMPARK" in squeezed:
        return "flampark"
    if "JCA" in squeezed:
        return "swiss-jca"
    swiss_words = ("SWISS", "DUTCH", "BURSTEIN", "DUBOV", "MONRAD")
    if any(word in squeezed for word in swiss_words):
        return "swiss-dutch"
    return None


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
