"""The team tie-break protocol (FIDE C.07 Art. 4-5 applied to teams, Art. 12-13).

Every team tie-break orders a group of teams tied so far (`order`). Most give a value
per team that depends on the event only (`ValueTieBreak`: scores, Sonneborn-Berger,
Buchholz, Board Count); the board comparisons (TBR, BBE) compare a sequence of
values (`KeyTieBreak`); the encounter family (DE, EDE, ...) depends on who is tied and
reports a place instead of a value.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from service.engine.teams.context import TeamContext

__all__ = ["KeyTieBreak", "TeamTieBreak", "ValueTieBreak", "split_by"]


def split_by(group: Sequence[int], key: Callable[[int], Any]) -> list[list[int]]:
    """`group` in subgroups of equal `key`, the greatest key first, members ascending."""
    keyed: dict[Any, list[int]] = {}
    for team in sorted(group):
        keyed.setdefault(key(team), []).append(team)
    return [keyed[k] for k in sorted(keyed, reverse=True)]


class TeamTieBreak(ABC):
    """A team tie-break: orders a tied group into tied subgroups, best first."""

    code: str = ""
    """The code as the registry spells it (`EMGSB/C1`, `BH:MP`)."""
    places: bool = False
    """True: the value shown is a place within the tied group (DE, EDE, TBR, BBE)."""

    @abstractmethod
    def order(self, ctx: TeamContext, group: Sequence[int]) -> list[list[int]]:
        """Split `group` (tied so far) into ordered subgroups, best first."""


class ValueTieBreak(TeamTieBreak):
    """A value per team; higher is better unless `descending` is False (BC)."""

    descending: bool = True

    @abstractmethod
    def values(self, ctx: TeamContext) -> Mapping[int, Fraction]:
        """The value of every team."""

    def order(self, ctx: TeamContext, group: Sequence[int]) -> list[list[int]]:
        values: Mapping[int, Fraction] = ctx.cached(self.code, lambda: self.values(ctx))
        sign = 1 if self.descending else -1
        return split_by(group, lambda t: sign * values[t])


class KeyTieBreak(TeamTieBreak):
    """A sequence of values per team compared in turn (TBR, BBE, C.07 12.2-12.3)."""

    places = True

    @abstractmethod
    def key(self, ctx: TeamContext, team: int) -> tuple[Fraction, ...]:
        """The values compared, most significant first; higher is better."""

    def order(self, ctx: TeamContext, group: Sequence[int]) -> list[list[int]]:
        return split_by(group, lambda t: self.key(ctx, t))
