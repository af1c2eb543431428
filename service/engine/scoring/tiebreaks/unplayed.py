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

Reading taken: "own score" is the participant's score as it stands (the final score
once the event is over); "rounds" is the number of rounds held so far. Pending games
(no result yet) and a round-robin's free rounds neither end nor extend the tail of art. 16.2.5.
"""

from __future__ import annotations

from service.engine.scoring.tiebreaks.context import (
    SKIPPED_KINDS,
    UNPLAYED_KINDS,
    Entry,
    Kind,
    PlayerData,
    TieBreakContext,
)

__all__ = [
    "VUR_KINDS",
    "adjusted_scores",
    "category",
    "dummy_score",
    "is_unplayed",
    "tail_start",
]

VUR_KINDS = frozenset({Kind.HALF_BYE, Kind.ZERO_BYE, Kind.FORFEIT_LOSS})
"""C.07 art. 16.1: rounds a participant chose not to play."""

_BYE_KINDS = frozenset({Kind.HALF_BYE, Kind.ZERO_BYE})


def is_unplayed(entry: Entry) -> bool:
    """True for a round that counts for points but was not played over the board."""
    return entry.kind in UNPLAYED_KINDS


def tail_start(entries: list[Entry]) -> int:
    """Index of the first round of the trailing run of VURs (len(entries) if none).

    Art. 16.2.5 reads "followed only by VURs": the run starts at a VUR and every
    later round is a VUR (pending and round-robin free rounds are skipped).
    """
    start = len(entries)
    for index in range(len(entries) - 1, -1, -1):
        kind = entries[index].kind
        if kind in SKIPPED_KINDS:
            continue
        if kind not in VUR_KINDS:
            break
        start = index
    return start


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


def adjusted_scores(ctx: TieBreakContext) -> dict[int, int]:
    """Art. 16.3: every participant's score as their opponents see it (units)."""
    return ctx.cached("adjusted", lambda: _adjusted(ctx))


def _adjusted(ctx: TieBreakContext) -> dict[int, int]:
    result: dict[int, int] = {}
    draw = ctx.draw
    for number, pd in ctx.players.items():
        score = pd.score
        entries = pd.entries
        start = tail_start(entries)
        for index in range(start, len(entries)):
            entry = entries[index]
            if entry.kind in _BYE_KINDS:
                score += draw - entry.points
        result[number] = score
    return result


def dummy_score(ctx: TieBreakContext, pd: PlayerData, entry: Entry) -> int:
    """Art. 16.4: score of the dummy opponent met in an own unplayed round (units)."""
    own = pd.score
    if ctx.edition == "2024":
        return own
    if entry.kind in (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS) and entry.opponent:
        scheduled = adjusted_scores(ctx).get(entry.opponent, 0)
        return min(own, scheduled)
    return min(own, ctx.draw * ctx.rounds)
