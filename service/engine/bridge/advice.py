"""Which scoring method suits a small club event (lecture *Wynik rozdania*, "Małe turnieje
klubowe"; docs/rules/bridge.md).

The lecture's proposal for friendly events scored by hand, by the number of tables:
2 tables IMPs; 3 IMPs without discarding; 4 IMPs against the mean of 2 scores;
5 IMPs or matchpoints; 6 or more matchpoints (easier to compute). Matchpoints
distort small events, IMPs need luck for a good score in large ones (the lecture).

Reading: "without discarding" is the plain mean datum; "the mean of 2 scores" is
the Polish rule for 4 scores (drop the top and the bottom), so 4 and 5 tables use
the Polish datum.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from service.engine.bridge.butler import DatumMethod
from service.engine.bridge.errors import BridgeInputError

__all__ = ["ClubAdvice", "ClubScoring", "club_scoring_advice"]


class ClubScoring(enum.StrEnum):
    """The form of scoring advised."""

    IMPS = "imps"
    """Butler IMPs against a datum."""
    IMPS_OR_MATCHPOINTS = "imps-or-matchpoints"
    """Either works."""
    MATCHPOINTS = "matchpoints"
    """Matchpoints and percentages."""


@dataclass(frozen=True, slots=True)
class ClubAdvice:
    """The lecture's advice for an event of a given size."""

    tables: int
    """The number of tables (results per board)."""
    scoring: ClubScoring
    """The advised form of scoring."""
    datum_method: DatumMethod | None
    """For IMP scoring, the datum to use; None for matchpoints."""


def club_scoring_advice(tables: int) -> ClubAdvice:
    """The lecture's advice for `tables` tables (2 or more)."""
    if isinstance(tables, bool) or not isinstance(tables, int) or tables < 2:
        raise BridgeInputError("tables", f"must be an integer of at least 2, got {tables!r}")
    if tables <= 3:
        return ClubAdvice(tables, ClubScoring.IMPS, DatumMethod.MEAN)
    if tables == 4:
        return ClubAdvice(tables, ClubScoring.IMPS, DatumMethod.PZBS)
    if tables == 5:
        return ClubAdvice(tables, ClubScoring.IMPS_OR_MATCHPOINTS, DatumMethod.PZBS)
    return ClubAdvice(tables, ClubScoring.MATCHPOINTS, None)
