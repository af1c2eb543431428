"""FIDE C.07 tie-breaks (editions 2024 and 2026) and the source texts' methods.

One module per family: `direct_encounter` (DE), `own_results` (WIN, WON, BPG, BWG,
PS, REP, STD, TPN), `buchholz` (BH, AOB, FB), `sonneborn` (SB, SB-D, SB-S, KS),
`ratings` (ARO, TPR, PTP, APRO, APPO, RTNG, PERF-JCA), `laplacian` (LAP-POT,
LAP-FLOW); `unplayed` holds art. 16 (VURs, adjusted scores, the dummy opponent),
`modifiers` art. 14 (cuts, medians), `registry` the code parser, `context` the
per-player aggregates every tie-break reads, `fide_tables` the B.02 rating tables.

`standings.compute_standings` applies an ordered list of codes; `parse_tiebreak`
turns one code into a tie-break object.
"""

from service.engine.scoring.tiebreaks.base import (
    Contribution,
    GroupTieBreak,
    TieBreak,
    TieBreakExplanation,
)
from service.engine.scoring.tiebreaks.errors import (
    TieBreakError,
    UnknownTieBreakError,
    UnsupportedEditionError,
)
from service.engine.scoring.tiebreaks.registry import KNOWN_CODES, parse_tiebreak

__all__ = [
    "KNOWN_CODES",
    "Contribution",
    "GroupTieBreak",
    "TieBreak",
    "TieBreakError",
    "TieBreakExplanation",
    "UnknownTieBreakError",
    "UnsupportedEditionError",
    "parse_tiebreak",
]
