"""Per-round opponent scores for the opponent-based tie-breaks (BH, FB, SB, AOB).

One function walks a participant's rounds and says, for each, whose score counts and
with what result: a real opponent's adjusted score (C.07 art. 16.3) for a game, the
dummy opponent's score (art. 16.4) for an own unplayed round. Round-robins and the
`/P` modifier count forfeits as games against the scheduled opponent (2026 art.
15.2); Fore Buchholz (art. 8.3) counts last-round pairings as draws.

Two forms of the same walk:

* `opponent_rounds` - one `OpponentRound` record per counted round, for one
  participant. It is the reference: explanations use it, and the tests check the
  column form against it.
* `opponent_columns` - the same figures for every participant at once, as plain
  integer columns (scores, results, positions of the VURs), built once per context
  and shared by every tie-break that reads them (BH, BH-C1, SB, ... in one standings
  table). Byes, forfeits, absences, withdrawals, late entries and unfinished games
  are handled here, so the sums never fall back to the per-record walk.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, islice

from service.engine.scoring.tiebreaks.context import (
    SKIPPED_KINDS,
    Kind,
    PlayerData,
    TieBreakContext,
)
from service.engine.scoring.tiebreaks.unplayed import VUR_KINDS, ScoreView, dummy_score

__all__ = ["OpponentColumns", "OpponentRound", "opponent_columns", "opponent_rounds"]


@dataclass(frozen=True, slots=True)
class OpponentRound:
    """One round as BH/SB see it."""

    index: int
    """Round index in the participant's entries."""
    opponent: int
    """The opponent's start number; 0 for a dummy opponent."""
    score: int
    """The opponent's adjusted score, or the dummy's score (units)."""
    share: int
    """The participant's result in halves (2 win, 1 draw, 0 loss)."""
    vur: bool
    """The round is a voluntary unplayed round (art. 16.1)."""


def opponent_rounds(
    ctx: TieBreakContext, pd: PlayerData, view: ScoreView, count_forfeits: bool = False
) -> list[OpponentRound]:
    """The participant's rounds with the score that counts in each."""
    forfeits_are_games = count_forfeits or ctx.round_robin
    adjusted = view.adjusted
    result: list[OpponentRound] = []
    last = ctx.rounds - 1
    forfeits = (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS)
    rows = zip(pd.kinds, pd.opponents, pd.shares, strict=True)
    for index, (kind, opponent, share) in enumerate(rows):
        if view.fore and index == last and kind in _PAIRED and opponent:
            result.append(OpponentRound(index, opponent, adjusted[opponent], 1, False))
            continue
        if kind in SKIPPED_KINDS:
            continue
        if kind is Kind.PLAYED or (forfeits_are_games and kind in forfeits):
            result.append(OpponentRound(index, opponent, adjusted[opponent], share, False))
        elif not ctx.round_robin:
            score = dummy_score(ctx, view, pd.number, pd.entries[index])
            result.append(OpponentRound(index, 0, score, share, kind in VUR_KINDS))
    return result


_PAIRED = frozenset({Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS, Kind.PENDING})

OpponentColumns = tuple[list[int], tuple[int, ...], tuple[int, ...]]
"""One participant's counted rounds, in round order: the score that counts in each
(opponent's adjusted score or dummy's score, units), the participant's result in
halves, and the positions (in those two columns) of the VURs (art. 16.1)."""


def opponent_columns(
    ctx: TieBreakContext, view: ScoreView, count_forfeits: bool = False
) -> dict[int, OpponentColumns]:
    """`opponent_rounds` for every participant as columns, cached per context.

    Position i of a participant's columns is the i-th record `opponent_rounds` gives,
    with the same score, result and VUR flag.
    """
    forfeits_are_games = count_forfeits or ctx.round_robin
    key = f"columns:{view.fore}:{forfeits_are_games}"
    return ctx.cached(key, lambda: _columns(ctx, view, forfeits_are_games))


def _columns(
    ctx: TieBreakContext, view: ScoreView, forfeits_are_games: bool
) -> dict[int, OpponentColumns]:
    adjusted = view.adjusted
    own = view.own
    last = ctx.rounds - 1
    fore = view.fore and last >= 0
    round_robin = ctx.round_robin
    capped = ctx.edition != "2024"
    cap = ctx.draw * ctx.rounds
    played = Kind.PLAYED
    skipped = SKIPPED_KINDS
    vur_kinds = VUR_KINDS
    paired = _PAIRED
    forfeits = frozenset({Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS})
    games = forfeits | {played} if forfeits_are_games else frozenset({played})
    counted_or_skipped = games | skipped
    key = f"counted rounds:{forfeits_are_games}:{round_robin}"

    def counted_rounds(data: PlayerData) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """The opponents and results of the rounds that count, when no round needs the
        dummy opponent (the player's own rounds only: kept with the digest)."""
        if not (round_robin or counted_or_skipped.issuperset(data.kinds)):
            return None
        mask = list(map(games.__contains__, data.kinds))
        return tuple(compress(data.opponents, mask)), tuple(compress(data.shares, mask))

    out: dict[int, OpponentColumns] = {}
    for number, pd in ctx.players.items():
        if pd.all_played:
            # Every round a game over the board: no dummy, no VUR (the usual case).
            shares = (*pd.shares[:-1], 1) if fore else pd.shares
            out[number] = ([adjusted[o] for o in pd.opponents], shares, ())
            continue
        if not fore:
            counted = pd.own(key, counted_rounds)
            if counted is not None:
                # Every round a game or no round at all (pending, a round-robin's
                # free round or its unplayed rounds): no dummy, no VUR.
                opponents, shares = counted
                out[number] = (list(map(adjusted.__getitem__, opponents)), shares, ())
                continue
        kinds = pd.kinds
        if kinds[-1] is Kind.PENDING and kinds.count(played) == len(kinds) - 1:
            # Games over the board but the last, which is still being played (the
            # usual round in progress): no dummy, no VUR; Fore Buchholz meets the
            # opponent with a draw, the others do not count the round yet.
            if fore:
                out[number] = (
                    [adjusted[o] for o in pd.opponents],
                    (*pd.shares[:-1], 1),
                    (),
                )
            else:
                out[number] = ([adjusted[o] for o in pd.opponents[:-1]], pd.shares[:-1], ())
            continue
        mine = own[number]
        dummy = min(mine, cap) if capped else mine
        scores: list[int] = []
        results: list[int] = []
        vurs: list[int] = []
        rows = zip(kinds, pd.opponents, pd.shares, strict=True)
        for kind, opponent, share in islice(rows, last) if fore else rows:
            if kind in games:
                scores.append(adjusted[opponent])
            elif kind in skipped or round_robin:
                continue
            else:
                # Art. 16.4: the dummy opponent; 2026 caps a forfeit's at the
                # scheduled opponent's adjusted score, any other at draw x rounds.
                if capped and opponent and kind in forfeits:
                    scores.append(min(mine, adjusted.get(opponent, 0)))
                else:
                    scores.append(dummy)
                if kind in vur_kinds:
                    vurs.append(len(results))
            results.append(share)
        if fore:
            # Fore Buchholz: every last-round pairing (game, forfeit or unfinished)
            # meets the scheduled opponent with a draw; byes as in any round.
            kind, opponent, share = next(rows)
            if kind in paired and opponent:
                scores.append(adjusted[opponent])
                results.append(1)
            elif not (kind in skipped or round_robin):
                scores.append(dummy)
                if kind in vur_kinds:
                    vurs.append(len(results))
                results.append(share)
        out[number] = (scores, tuple(results), tuple(vurs))
    return out
