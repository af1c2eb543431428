"""The team ranking and each tie-break's value (FIDE C.07 Art. 4-5, 13).

`rank_teams` applies a tie-break list in order: each code splits the groups still
tied by the codes before it (a group code such as EDE compares only the teams of one
group); teams equal on every code share a rank (1, 2, 2, 4).

`team_tiebreak_values` gives each code's value per team. A code that compares the
tied teams (DE, EDE, EDET, EDEB, EDEC, EDEBT, EDEBB, TBR, BBE) gives a place instead,
computed right after the match points: the team's place among the teams with its
match points (tied teams share it), or 0 when no other team has its match points or
the code leaves the whole group tied. Lower places are better.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from service.engine.ranking import shared_places
from service.engine.teams.base import TeamTieBreak, ValueTieBreak, split_by
from service.engine.teams.context import TeamContext
from service.engine.teams.model import TeamEvent
from service.engine.teams.registry import parse_team_tiebreak

__all__ = ["TeamStanding", "place_values", "rank_teams", "team_tiebreak_values"]


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """One team's row of the ranking."""

    rank: int
    team: int
    match_points: Fraction
    game_points: Fraction
    values: Mapping[str, Fraction]
    """Per code of the list: the value (a place for the comparing codes, within the
    group the code was applied to, 0 when it did not split it)."""


def _places(groups: list[list[int]]) -> dict[int, int]:
    """Places within a group split into ordered subgroups; 0 when it did not split."""
    if len(groups) < 2:
        return {t: 0 for g in groups for t in g}
    out: dict[int, int] = {}
    position = 1
    for group in groups:
        for team in group:
            out[team] = position
        position += len(group)
    return out


def place_values(ctx: TeamContext, tiebreak: TeamTieBreak) -> dict[int, int]:
    """`tiebreak`'s place per team, applied right after the match points."""
    out: dict[int, int] = {}
    for group in split_by(ctx.teams, lambda t: ctx.match_points[t]):
        out.update(_places(tiebreak.order(ctx, group) if len(group) > 1 else [group]))
    return out


def team_tiebreak_values(event: TeamEvent, codes: Sequence[str]) -> dict[str, dict[int, Fraction]]:
    """Each code's value (or place) per team pairing number."""
    ctx = TeamContext(event)
    out: dict[str, dict[int, Fraction]] = {}
    for code in codes:
        tiebreak = parse_team_tiebreak(code, event.system)
        if isinstance(tiebreak, ValueTieBreak):
            values = tiebreak.values(ctx)
            out[code] = {t: values[t] for t in ctx.teams}
        else:
            out[code] = {t: Fraction(p) for t, p in place_values(ctx, tiebreak).items()}
    return out


def _values_of(ctx: TeamContext, tiebreak: ValueTieBreak) -> Mapping[int, Fraction]:
    """A value tie-break's values, once per context (its `order` reads the same)."""
    values: Mapping[int, Fraction] = ctx.cached(tiebreak.code, lambda: tiebreak.values(ctx))
    return values


def rank_teams(event: TeamEvent, codes: Sequence[str]) -> tuple[TeamStanding, ...]:
    """The teams ranked by `codes` in order (the primary score first, e.g. `PTS`);
    ties on every code share a rank; tied teams listed by pairing number."""
    ctx = TeamContext(event)
    tiebreaks = [parse_team_tiebreak(code, event.system) for code in codes]
    groups: list[list[int]] = [list(ctx.teams)]
    shown: dict[int, dict[str, Fraction]] = {t: {} for t in ctx.teams}
    for tiebreak in tiebreaks:
        values: Mapping[int, Fraction] | None = None
        if isinstance(tiebreak, ValueTieBreak):
            values = _values_of(ctx, tiebreak)
        refined: list[list[int]] = []
        for group in groups:
            parts = tiebreak.order(ctx, group) if len(group) > 1 else [group]
            places = _places(parts)
            for team in group:
                shown[team][tiebreak.code] = (
                    values[team] if values is not None else Fraction(places[team])
                )
            refined.extend(parts)
        groups = refined
    order = [t for g in groups for t in g]
    group_of = {t: i for i, g in enumerate(groups) for t in g}
    ranks = shared_places([group_of[t] for t in order])
    return tuple(
        TeamStanding(rank, t, ctx.match_points[t], ctx.game_points[t], shown[t])
        for rank, t in zip(ranks, order, strict=True)
    )
