"""Bridge scoring (Laws 77-78, WBF and ACBL scales, Polish practice; docs/rules/bridge.md).

One module per job:

- `contract`: Law 77 duplicate score of a contract; board number -> dealer and
  vulnerability.
- `imps`: the WBF IMP scale both ways (Law 78B).
- `vp`: victory-point scales (WBF 2013 continuous and discrete, ACBL bands).
- `matchpoints`: matchpoints and percentages, Neuberg, adjusted and weighted scores.
- `butler`: IMPs against a datum (Polish rule or trimmed mean).
- `cavendish`: cross-IMPs, averaged, with the per-comparison and per-round caps.
- `patton`: Patton and board-a-match team scoring.
- `teams`: open and closed room -> IMPs -> VP for a team match.
- `movement`: a bridge event's layout (who plays which board where), checked.
- `ranking`: the live ranking of a pairs session or a teams event.
- `advice`: the lecture *Wynik rozdania*'s choice of method for small club events.
- `pbn`: a simple board-results import from PBN tag pairs.
- `entries`: weighted and artificial adjusted scores (Law 12C).
- `errors`: `BridgeInputError`, the one error type (a ValueError naming the field).
"""

from service.engine.bridge.advice import ClubAdvice, ClubScoring, club_scoring_advice
from service.engine.bridge.butler import (
    ButlerResult,
    Datum,
    DatumMethod,
    DatumRounding,
    artificial_imps,
    butler,
    datum,
    pzbs_kept_count,
)
from service.engine.bridge.cavendish import (
    CavendishDivisor,
    CavendishResult,
    capped_round_total,
    cavendish,
)
from service.engine.bridge.contract import (
    BoardConditions,
    Contract,
    Doubling,
    Seat,
    Side,
    Strain,
    Vulnerability,
    board_conditions,
    ns_score,
    parse_contract,
    score_contract,
)
from service.engine.bridge.entries import (
    AVERAGE,
    AVERAGE_MINUS,
    AVERAGE_PLUS,
    ArtificialScore,
    BoardEntry,
    WeightedScore,
)
from service.engine.bridge.errors import BridgeInputError
from service.engine.bridge.imps import (
    ImpRange,
    ImpRounding,
    imp_range,
    imps,
    round_imps_for_non_offenders,
)
from service.engine.bridge.matchpoints import (
    MatchpointResult,
    MatchpointUnits,
    matchpoints,
    neuberg,
    session_percentage,
)
from service.engine.bridge.patton import (
    BoardAMatchResult,
    PattonResult,
    board_a_match,
    board_points,
    patton,
)
from service.engine.bridge.pbn import PbnResult, read_pbn
from service.engine.bridge.rounding import round_half_up
from service.engine.bridge.teams import (
    ImpAdjustment,
    TeamBoard,
    TeamMatchResult,
    aggregate_margin,
    board_imps,
    team_match,
)
from service.engine.bridge.vp import (
    BandScale,
    VpResult,
    acbl_scale,
    vp,
    wbf_blitz,
    wbf_continuous_table,
    wbf_discrete_scale,
)

__all__ = [
    "AVERAGE",
    "AVERAGE_MINUS",
    "AVERAGE_PLUS",
    "ArtificialScore",
    "BandScale",
    "BoardAMatchResult",
    "BoardConditions",
    "BoardEntry",
    "BridgeInputError",
    "ButlerResult",
    "CavendishDivisor",
    "CavendishResult",
    "ClubAdvice",
    "ClubScoring",
    "Contract",
    "Datum",
    "DatumMethod",
    "DatumRounding",
    "Doubling",
    "ImpAdjustment",
    "ImpRange",
    "ImpRounding",
    "MatchpointResult",
    "MatchpointUnits",
    "PattonResult",
    "PbnResult",
    "Seat",
    "Side",
    "Strain",
    "TeamBoard",
    "TeamMatchResult",
    "VpResult",
    "Vulnerability",
    "WeightedScore",
    "acbl_scale",
    "aggregate_margin",
    "artificial_imps",
    "board_a_match",
    "board_conditions",
    "board_imps",
    "board_points",
    "butler",
    "capped_round_total",
    "cavendish",
    "club_scoring_advice",
    "datum",
    "imp_range",
    "imps",
    "matchpoints",
    "neuberg",
    "ns_score",
    "parse_contract",
    "patton",
    "pzbs_kept_count",
    "read_pbn",
    "round_half_up",
    "round_imps_for_non_offenders",
    "score_contract",
    "session_percentage",
    "team_match",
    "vp",
    "wbf_blitz",
    "wbf_continuous_table",
    "wbf_discrete_scale",
]
