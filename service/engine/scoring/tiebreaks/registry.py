"""Tie-break codes: parsing "BH-C1", "SB/P", "KS/L+1", ... into tie-break objects.

Codes follow FIDE C.07 (art. 6-10 names, art. 14 modifiers) plus the seed texts'
methods (SB-S, PERF-JCA, LAP-POT, LAP-FLOW). Parsing is case-insensitive; an
unknown code or modifier raises `UnknownTieBreakError` naming it.
"""

from __future__ import annotations

from service.engine.scoring.tiebreaks.base import GroupTieBreak, TieBreak
from service.engine.scoring.tiebreaks.direct_encounter import DirectEncounter
from service.engine.scoring.tiebreaks.errors import UnknownTieBreakError
from service.engine.scoring.tiebreaks.own_results import Wins
from service.engine.scoring.tiebreaks.sonneborn import SonnebornBerger

__all__ = ["parse_tiebreak"]


def parse_tiebreak(code: str) -> TieBreak | GroupTieBreak:
    """Build the tie-break a code names."""
    text = code.strip().upper()
    if text == "DE":
        return DirectEncounter()
    if text == "DE/P":
        return DirectEncounter(count_forfeits=True)
    if text == "SB":
        return SonnebornBerger()
    if text == "WIN":
        return Wins()
    raise UnknownTieBreakError(code)
