"""What every team tie-break reads: the round table, the totals, the virtual opponent.

`TeamContext` is built once per event and caches the totals. Scores come in two
kinds (C.07 Art. 13: the `:MP` / `:GP` suffixes): match points and game points.

Unplayed rounds (C.07 Art. 16, 2026 edition): a pairing-allocated bye counts, in the
opponent-based tie-breaks, as a match against a virtual opponent whose score is the
team's own final score capped at draw points x rounds (16.4.2): 1 match point or
boards / 2 game points per round. A match forfeited as a whole counts the same virtual
opponent, its score capped at the scheduled opponent's score (16.4.1). The idle round
of a round-robin with an odd number of teams has no opponent at all.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from service.engine.teams.model import TeamEvent, TeamSystem
from service.engine.teams.results import RoundKind, TeamRoundResult, TeamTable, team_table

__all__ = ["Opposition", "ScoreKind", "TeamContext"]


class ScoreKind(enum.StrEnum):
    """Match points or game points."""

    MP = "MP"
    GP = "GP"


@dataclass(frozen=True, slots=True)
class Opposition:
    """One round's opponent for the opponent-based tie-breaks."""

    round: int
    opponent: int | None
    """None: the virtual opponent of a PAB or of a forfeited match."""
    score: Fraction
    """The opponent's (or the virtual opponent's) final score of the asked kind."""
    result: TeamRoundResult
    """The team's own result in that round."""


@dataclass(slots=True)
class TeamContext:
    """An event's scored rounds and the totals tie-breaks share."""

    event: TeamEvent
    table: TeamTable = field(init=False)
    match_points: dict[int, Fraction] = field(init=False)
    game_points: dict[int, Fraction] = field(init=False)
    _cache: dict[str, Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.table = team_table(self.event)
        self.match_points = {n: self.table.match_total(n) for n in self.table.numbers}
        self.game_points = {n: self.table.game_total(n) for n in self.table.numbers}

    def cached(self, key: str, make: Callable[[], Any]) -> Any:
        """`make()` once per context and key (a tie-break's values, asked once per tied
        group by the ranking)."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def teams(self) -> tuple[int, ...]:
        """Team pairing numbers, ascending."""
        return self.table.numbers

    @property
    def round_robin(self) -> bool:
        """The event is a round-robin (pairings fixed in advance)."""
        return self.event.system is TeamSystem.ROUND_ROBIN

    @property
    def rounds(self) -> int:
        """Rounds of the event (C.07 16.4.2 counts them for the cap)."""
        return self.event.planned_rounds

    def rounds_of(self, team: int) -> tuple[TeamRoundResult, ...]:
        """The team's results, round by round."""
        return self.table.rounds[team]

    def totals(self, kind: ScoreKind) -> Mapping[int, Fraction]:
        """Final match points or game points per team."""
        return self.match_points if kind is ScoreKind.MP else self.game_points

    def draw(self, kind: ScoreKind) -> Fraction:
        """The points of a drawn match: 1 match point (the regulations' draw) or half the
        boards in game points."""
        scoring = self.event.scoring
        return scoring.match_draw if kind is ScoreKind.MP else scoring.game_draw

    def own(self, result: TeamRoundResult, kind: ScoreKind) -> Fraction:
        """A round's own points of the asked kind."""
        return result.match_points if kind is ScoreKind.MP else result.game_points

    def oppositions(
        self, team: int, kind: ScoreKind, totals: Mapping[int, Fraction] | None = None
    ) -> list[Opposition]:
        """The rounds with an opponent, real or virtual (C.07 16.4), and the opponent's
        score; `totals` replaces the final scores (Fore Buchholz)."""
        scores = self.totals(kind) if totals is None else totals
        own_total = scores[team]
        cap = self.draw(kind) * self.rounds
        out: list[Opposition] = []
        for result in self.rounds_of(team):
            if result.kind is RoundKind.PLAYED and result.opponent is not None:
                out.append(
                    Opposition(result.round, result.opponent, scores[result.opponent], result)
                )
            elif result.kind is RoundKind.PAB:
                out.append(Opposition(result.round, None, min(own_total, cap), result))
            elif result.opponent is not None:  # a match forfeited as a whole
                capped = min(own_total, scores[result.opponent])
                out.append(Opposition(result.round, None, capped, result))
        return out

    def matches_between(self, a: int, b: int) -> list[TeamRoundResult]:
        """Team `a`'s results in its matches against `b` (played ones, and in a
        round-robin those forfeited as a whole)."""
        kinds: tuple[RoundKind, ...] = (RoundKind.PLAYED,)
        if self.round_robin:
            kinds = (RoundKind.PLAYED, RoundKind.FORFEIT_WIN, RoundKind.FORFEIT_LOSS)
        return [r for r in self.rounds_of(a) if r.opponent == b and r.kind in kinds]
