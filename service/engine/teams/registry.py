"""Team tie-break codes (FIDE C.07 Art. 12-13, and Art. 6-9 with the `:MP`/`:GP`
suffix) into tie-break objects.

Spelling follows FIDE's tie-break checker: `MPVGP`, `EMGSB/C1`, `BH:MP/C1`, `FB:MP`,
`KS:MP`, `SSSC`; `-C1` is read like `/C1`, and `PTS` like `MPTS` (the primary score,
match points). Case does not matter. The Buchholz family (BH, FB) is refused for a
round-robin: C.07 2026 (note to Art. 8) says it must not be used there.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from service.engine.scoring.tiebreaks.errors import TieBreakError, UnknownTieBreakError
from service.engine.scoring.tiebreaks.modifiers import Cut
from service.engine.teams.base import TeamTieBreak
from service.engine.teams.context import ScoreKind
from service.engine.teams.encounter import (
    BottomBoardElimination,
    DirectEncounter,
    TopBoardResult,
    board_count_key,
    bottom_board_key,
    extended_direct_encounter,
    top_board_key,
)
from service.engine.teams.model import TeamSystem
from service.engine.teams.tiebreaks import (
    BoardCount,
    ExtendedSonnebornBerger,
    ForeBuchholz,
    GamePoints,
    Koya,
    MatchPoints,
    ProgressiveScore,
    ScoreStrength,
    TeamBuchholz,
    Wins,
)

__all__ = [
    "DEFAULT_TEAM_TIEBREAKS",
    "TEAM_TIEBREAK_NAMES",
    "parse_team_tiebreak",
    "team_tiebreak_order",
]

DEFAULT_TEAM_TIEBREAKS = {
    TeamSystem.SWISS: ("PTS", "MPVGP", "EDE", "EMGSB", "BH:MP", "BC"),
    TeamSystem.ROUND_ROBIN: ("PTS", "MPVGP", "EDE", "EMGSB", "BC"),
}
"""Team tie-breaks when neither the caller nor the file's 212 record gives a list (no
Buchholz in a round-robin: C.07 2026 note to Art. 8)."""

_PRIMARY = ("PTS", "MPTS", "GPTS")


def team_tiebreak_order(given: list[str], system: TeamSystem) -> list[str]:
    """The codes to rank teams by: `given` (else the system's defaults), with PTS put
    first when the list does not start with a primary score."""
    order = list(given) or list(DEFAULT_TEAM_TIEBREAKS[system])
    return order if order[0].upper() in _PRIMARY else ["PTS", *order]


TEAM_TIEBREAK_NAMES: dict[str, str] = {
    "MPTS": "Match points (C.07 Art. 11); PTS is the same primary score",
    "GPTS": "Game points (C.07 Art. 11)",
    "MPVGP": "Game points as the secondary score (C.07 13.1)",
    "EMMSB": "Extended Sonneborn-Berger, opponent's MP x own MP (C.07 13.2)",
    "EMGSB": "Extended Sonneborn-Berger, opponent's MP x own GP (C.07 13.2)",
    "EGMSB": "Extended Sonneborn-Berger, opponent's GP x own MP (C.07 13.2)",
    "EGGSB": "Extended Sonneborn-Berger, opponent's GP x own GP (C.07 13.2)",
    "WIN": "Rounds with a win's match points, played or not (C.07 7.1)",
    "PS": "Progressive match-point scores (C.07 7.5)",
    "BC": "Board Count, lower first (C.07 12.1)",
    "TBR": "Top Board Result (C.07 12.2)",
    "BBE": "Bottom Board Elimination (C.07 12.3)",
    "DE": "Direct Encounter on match points (C.07 Art. 6)",
    "EDE": "Extended Direct Encounter (C.07 13.3.1)",
    "EDET": "EDE, then TBR on the two teams' match (C.07 13.3.2, 2026)",
    "EDEB": "EDE, then BBE on the two teams' match (C.07 13.3.2, 2026)",
    "EDEC": "EDE, then Board Count on the two teams' match (C.07 13.3.2, 2026)",
    "EDEBT": "EDE, then Board Count and TBR on the match (C.07 13.3.2, 2026)",
    "EDEBB": "EDE, then Board Count and BBE on the match (C.07 13.3.2, 2026)",
    "BH:MP": "Buchholz on match points (C.07 8.1)",
    "BH:GP": "Buchholz on game points (C.07 8.1)",
    "FB:MP": "Fore Buchholz on match points (C.07 8.3)",
    "FB:GP": "Fore Buchholz on game points (C.07 8.3)",
    "KS:MP": "Koya on match points (C.07 9.2)",
    "KS:GP": "Koya on game points (C.07 9.2)",
    "SSSC": "Score Strength Combination (C.07 13.4)",
}
"""Names understood, with a line each (the `/C1` cut goes on ESB and BH/FB)."""

_CUTTABLE = re.compile(r"^(E[MG][MG]SB|BH:[MG]P|FB:[MG]P)(?:[/-]C(\d))?$")
_BUCHHOLZ = ("BH:", "FB:")

_PLAIN: dict[str, Callable[[], TeamTieBreak]] = {
    "PTS": lambda: MatchPoints("PTS"),
    "MPTS": MatchPoints,
    "GPTS": GamePoints,
    "MPVGP": lambda: GamePoints("MPVGP"),
    "WIN": Wins,
    "PS": ProgressiveScore,
    "BC": BoardCount,
    "TBR": TopBoardResult,
    "BBE": BottomBoardElimination,
    "DE": lambda: DirectEncounter("DE", (ScoreKind.MP,)),
    "EDE": lambda: extended_direct_encounter("EDE"),
    "EDET": lambda: extended_direct_encounter("EDET", (top_board_key,)),
    "EDEB": lambda: extended_direct_encounter("EDEB", (bottom_board_key,)),
    "EDEC": lambda: extended_direct_encounter("EDEC", (board_count_key,)),
    "EDEBT": lambda: extended_direct_encounter("EDEBT", (board_count_key, top_board_key)),
    "EDEBB": lambda: extended_direct_encounter("EDEBB", (board_count_key, bottom_board_key)),
    "KS:MP": lambda: Koya(ScoreKind.MP),
    "KS:GP": lambda: Koya(ScoreKind.GP),
    "SSSC": ScoreStrength,
}


def parse_team_tiebreak(code: str, system: TeamSystem = TeamSystem.SWISS) -> TeamTieBreak:
    """The team tie-break `code` names, for an event paired by `system`."""
    text = code.strip().upper()
    maker = _PLAIN.get(text)
    if maker is not None:
        return maker()
    found = _CUTTABLE.match(text)
    if found is None:
        raise UnknownTieBreakError(code, "not a team tie-break")
    name, cut_text = found.group(1), found.group(2)
    cut = Cut(low=int(cut_text)) if cut_text else Cut()
    if cut.low > 2:
        raise UnknownTieBreakError(code, "cuts go up to C2")
    if name.startswith(_BUCHHOLZ) and system is TeamSystem.ROUND_ROBIN:
        raise TieBreakError(
            f"tie-break {code!r}: Buchholz is not used in a round-robin (C.07 Art. 8 note)",
            field="tiebreaks",
        )
    if name.startswith("BH:"):
        return TeamBuchholz(ScoreKind(name[-2:]), cut)
    if name.startswith("FB:"):
        return ForeBuchholz(ScoreKind(name[-2:]), cut)
    letters = {"M": ScoreKind.MP, "G": ScoreKind.GP}
    return ExtendedSonnebornBerger(letters[name[1]], letters[name[2]], cut)
