"""Unplayed rounds in tie-breaks: FIDE C.07 art. 16 (editions 2024 and 2026).

* Art. 16.1: a Voluntary Unplayed Round (VUR) is a requested bye (half- or zero-point)
  or a forfeit loss; absences count as zero-point byes here.
* Art. 16.2 sorts unplayed rounds into five categories: 16.2.1 pairing-allocated and
  full-point byes, 16.2.2 forfeit wins, 16.2.3 requested byes, 16.2.4 forfeit losses,
  16.2.5 byes and absences followed only by VURs (the player stopped playing).
* Art. 16.3: when a participant is someone's opponent, their *adjusted score* counts
  16.2.5 rounds as draws and everything else at face value.
* Art. 16.4: a participant's own unplayed round is a game against a *dummy opponent*.
  2024: the dummy's score is the participant's own score. 2026 (applied from 1 March
  2026): the same, but capped - for a forfeit (16.2.2, 16.2.4) at the scheduled
  opponent's adjusted score, for any other unplayed round at draw points x rounds.

Readings taken: "own score" is the participant's score as it stands (the final score
once the event is over); "rounds" is the number of rounds held so far. Pending games
(no result yet) and a round-robin's free rounds neither end nor extend the tail of
art. 16.2.5. In round-robins (pre-determined pairings, 2026 art. 15.2) there is no
dummy and no draw adjustment: forfeits are games against the scheduled opponent, and
the FIDE checker's reading is followed for the rest (byes count nothing).

Fore Buchholz (art. 8.3) needs every score "as if the last round's paired games were
draws"; `score_view(ctx, fore=True)` provides that variant of the same figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.engine.scoring.tiebreaks.context import (
    SKIPPED_KINDS,
    UNPLAYED_KINDS,
    Entry,
    Kind,
    TieBreakContext,
)

__all__ = [
    "VUR_KINDS",
    "ScoreView",
    "category",
    "dummy_score",
    "is_unplayed",
    "score_view",
    "tail_start",
]

VUR_KINDS = frozenset({Kind.HALF_BYE, Kind.ZERO_BYE, Kind.FORFEIT_LOSS})
"""C.07 art. 16.1: rounds a participant chose not to play."""

_BYE_KINDS = frozenset({Kind.HALF_BYE, Kind.ZERO_BYE})
_PAIRED_KINDS = frozenset({Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS, Kind.PENDING})


def is_unplayed(entry: Entry) -> bool:
    """True for a round that counts for points but was not played over the board."""
    return entry.kind in UNPLAYED_KINDS


def tail_start(entries: list[Entry]) -> int:
    """Index of the first round of the trailing run of VURs (len(entries) if none).

    Art. 16.2.5 reads "followed only by VURs": the run starts at a VUR and every
    later round is a VUR (pending and free rounds are skipped).
    """
    return _tail_start_kinds([entry.kind for entry in entries])


def category(entries: list[Entry], index: int) -> str:
    """The art. 16.2 category of round `index` ("16.2.1" ... "16.2.5"), "" if played."""
    kind = entries[index].kind
    if kind in (Kind.PAB, Kind.FULL_BYE):
        return "16.2.1"
    if kind is Kind.FORFEIT_WIN:
        return "16.2.2"
    if kind is Kind.FORFEIT_LOSS:
        return "16.2.4"
    if kind in _BYE_KINDS:
        return "16.2.5" if index >= tail_start(entries) else "16.2.3"
    return ""


@dataclass(frozen=True, slots=True)
class ScoreView:
    """Scores as the opponent-based tie-breaks (BH, SB, FB, AOB) read them."""

    own: dict[int, int]
    """Each participant's own score (units): the base of their dummy opponent."""
    adjusted: dict[int, int]
    """Each participant's art. 16.3 adjusted score (units), as opponents see it."""
    fore: bool
    """True for Fore Buchholz: last-round paired games count as draws."""


def score_view(ctx: TieBreakContext, fore: bool = False) -> ScoreView:
    """Own and adjusted scores for every participant (computed once per context)."""
    return ctx.cached(f"scores:{fore}", lambda: _score_view(ctx, fore))


def _tail_start_kinds(kinds: Sequence[Kind]) -> int:
    start = len(kinds)
    for index in range(len(kinds) - 1, -1, -1):
        kind = kinds[index]
        if kind in SKIPPED_KINDS:
            continue
        if kind not in VUR_KINDS:
            break
        start = index
    return start


def _score_view(ctx: TieBreakContext, fore: bool) -> ScoreView:
    own: dict[int, int] = {}
    adjusted: dict[int, int] = {}
    draw = ctx.draw
    last = ctx.rounds - 1
    for number, pd in ctx.players.items():
        score = pd.score
        own[number] = score
        if pd.all_played:
            if fore and last >= 0:
                score += draw - pd.points[last]
                own[number] = score
            adjusted[number] = score
            continue
        kinds = pd.kinds
        if fore and last >= 0 and kinds[last] in _PAIRED_KINDS and pd.opponents[last] != 0:
            score += draw - pd.points[last]
            own[number] = adjusted[number] = score
            continue
        if not ctx.round_robin:
            points = pd.points
            for index in range(_tail_start_kinds(kinds), len(kinds)):
                if kinds[index] in _BYE_KINDS:
                    score += draw - points[index]
        adjusted[number] = score
    return ScoreView(own, adjusted, fore)


def dummy_score(ctx: TieBreakContext, view: ScoreView, number: int, entry: Entry) -> int:
    """Art. 16.4: score of the dummy opponent met in an own unplayed round (units)."""
    own = view.own[number]
    if ctx.edition == "2024":
        return own
    if entry.kind in (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS) and entry.opponent:
        return min(own, view.adjusted.get(entry.opponent, 0))
    return min(own, ctx.draw * ctx.rounds)
