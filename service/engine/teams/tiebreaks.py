"""Team tie-breaks with a value per team (FIDE C.07 Art. 7-9 per Art. 13, and 12-13).

* MPTS / PTS, GPTS: match points and game points (Art. 11); MPVGP: game points as the
  secondary score when match points are the primary one (13.1).
* EMMSB, EMGSB, EGMSB, EGGSB: Extended Sonneborn-Berger (13.2): per opponent, its final
  match (EM..) or game (EG..) points times the team's own match (..MSB) or game (..GSB)
  points in that match; `/C1` drops the product of the lowest-scoring opponent, the
  lowest product among several (14.1.2).
* WIN (7.1): rounds that earned a win's match points, played or not. PS (7.5): the sum
  of the running match-point totals.
* BC (12.1): board number x game points on that board, summed; lower is better.
* BH:MP, BH:GP (8.1), `/C1` (14.1); FB:MP (8.3): Buchholz with every team's last-round
  match counted as a draw.
* KS:MP (9.2): match points against teams that finished with at least half the
  possible match points.
* SSSC (13.4): game points + BH:MP / floor(win points x rounds / boards), to 0.01.

Unplayed rounds follow `context` (C.07 16.4.2 virtual opponent).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import lcm

from service.engine.scoring.tiebreaks.modifiers import Cut, Item, apply_cut
from service.engine.teams.base import ValueTieBreak
from service.engine.teams.context import ScoreKind, TeamContext
from service.engine.teams.results import RoundKind

__all__ = [
    "BoardCount",
    "ExtendedSonnebornBerger",
    "ForeBuchholz",
    "GamePoints",
    "Koya",
    "MatchPoints",
    "ProgressiveScore",
    "ScoreStrength",
    "TeamBuchholz",
    "Wins",
    "cut_sum",
]


def cut_sum(items: list[tuple[Fraction, Fraction]], cut: Cut) -> Fraction:
    """Sum of the (score, value) items that `cut` keeps: the shared Art. 14 cut (the
    least significant score goes; among equal scores the lowest value)."""
    if not cut:
        return sum((value for _, value in items), Fraction(0))
    unit = lcm(*(f.denominator for pair in items for f in pair)) if items else 1
    scaled = [
        Item(i, int(score * unit), int(value * unit)) for i, (score, value) in enumerate(items)
    ]
    kept, _ = apply_cut(scaled, cut)
    return Fraction(sum(item.value for item in kept), unit)


class MatchPoints(ValueTieBreak):
    """MPTS (PTS): match points (C.07 Art. 11)."""

    def __init__(self, code: str = "MPTS") -> None:
        self.code = code

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        return ctx.match_points


class GamePoints(ValueTieBreak):
    """GPTS, and MPVGP: game points as the secondary score (C.07 13.1)."""

    def __init__(self, code: str = "GPTS") -> None:
        self.code = code

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        return ctx.game_points


class ExtendedSonnebornBerger(ValueTieBreak):
    """EMMSB, EMGSB, EGMSB, EGGSB (C.07 13.2), with the cut of 14.1.2."""

    def __init__(self, opponent: ScoreKind, own: ScoreKind, cut: Cut) -> None:
        self.opponent, self.own, self.cut = opponent, own, cut
        letter = {ScoreKind.MP: "M", ScoreKind.GP: "G"}
        self.code = f"E{letter[opponent]}{letter[own]}SB" + (f"/C{cut.low}" if cut else "")

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        return {
            team: cut_sum(
                [
                    (o.score, o.score * ctx.own(o.result, self.own))
                    for o in ctx.oppositions(team, self.opponent)
                ],
                self.cut,
            )
            for team in ctx.teams
        }


class Wins(ValueTieBreak):
    """WIN (C.07 7.1 on match points): rounds that earned a win's match points."""

    code = "WIN"

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        win = ctx.event.scoring.match_win
        return {
            team: Fraction(sum(1 for r in ctx.rounds_of(team) if r.match_points == win))
            for team in ctx.teams
        }


class ProgressiveScore(ValueTieBreak):
    """PS (C.07 7.5 on match points): the running totals after each round, summed."""

    code = "PS"

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        out: dict[int, Fraction] = {}
        for team in ctx.teams:
            running = total = Fraction(0)
            for result in ctx.rounds_of(team):
                running += result.match_points
                total += running
            out[team] = total
        return out


class BoardCount(ValueTieBreak):
    """BC (C.07 12.1): board number x game points scored on it, summed over the
    rounds; a lower count ranks higher (points won on the top boards weigh less)."""

    code = "BC"
    descending = False

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        return {
            team: sum(
                (
                    board * points
                    for result in ctx.rounds_of(team)
                    for board, points in enumerate(result.boards, 1)
                ),
                Fraction(0),
            )
            for team in ctx.teams
        }


class TeamBuchholz(ValueTieBreak):
    """BH:MP, BH:GP (C.07 8.1 per Art. 13), with the cuts of 14.1."""

    def __init__(self, kind: ScoreKind, cut: Cut) -> None:
        self.kind, self.cut = kind, cut
        self.code = f"BH:{kind.value}" + (f"/C{cut.low}" if cut else "")

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        return {
            team: cut_sum([(o.score, o.score) for o in ctx.oppositions(team, self.kind)], self.cut)
            for team in ctx.teams
        }


class ForeBuchholz(ValueTieBreak):
    """FB:MP (C.07 8.3): Buchholz with every team's last-round match counted as a
    draw (the scores the teams would have had before the last round was played)."""

    def __init__(self, kind: ScoreKind, cut: Cut) -> None:
        self.kind, self.cut = kind, cut
        self.code = f"FB:{kind.value}" + (f"/C{cut.low}" if cut else "")

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        last = ctx.rounds
        totals = dict(ctx.totals(self.kind))
        for team in ctx.teams:
            for result in ctx.rounds_of(team):
                if result.round == last and result.kind is RoundKind.PLAYED:
                    totals[team] += ctx.draw(self.kind) - ctx.own(result, self.kind)
        return {
            team: cut_sum(
                [(o.score, o.score) for o in ctx.oppositions(team, self.kind, totals)], self.cut
            )
            for team in ctx.teams
        }


class Koya(ValueTieBreak):
    """KS:MP (C.07 9.2 per Art. 13): points scored against the teams that finished with
    at least half of the possible points; the possible points count the matches a team
    plays (one fewer than the rounds in a round-robin with an odd number of teams)."""

    def __init__(self, kind: ScoreKind) -> None:
        self.kind = kind
        self.code = f"KS:{kind.value}"

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        scoring = ctx.event.scoring
        best = scoring.match_win if self.kind is ScoreKind.MP else Fraction(scoring.boards)
        matches = max(
            (
                sum(1 for r in ctx.rounds_of(t) if r.kind is not RoundKind.UNPAIRED)
                for t in ctx.teams
            ),
            default=0,
        )
        threshold = best * matches / 2
        totals = ctx.totals(self.kind)
        return {
            team: sum(
                (
                    ctx.own(o.result, self.kind)
                    for o in ctx.oppositions(team, self.kind)
                    if o.opponent is not None and totals[o.opponent] >= threshold
                ),
                Fraction(0),
            )
            for team in ctx.teams
        }


class ScoreStrength(ValueTieBreak):
    """SSSC (C.07 13.4): game points + BH:MP / floor(win points x rounds / boards),
    rounded half up to two decimals."""

    code = "SSSC"

    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        scoring = ctx.event.scoring
        divisor = max(int(scoring.match_win * ctx.rounds // scoring.boards), 1)
        buchholz = TeamBuchholz(ScoreKind.MP, Cut()).values(ctx)
        return {
            team: _hundredths(ctx.game_points[team] + buchholz[team] / divisor)
            for team in ctx.teams
        }


def _hundredths(value: Fraction) -> Fraction:
    """`value` rounded half up to 0.01, exactly."""
    return Fraction(int(value * 100 + Fraction(1, 2)), 100)
