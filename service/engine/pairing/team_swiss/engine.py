"""One round of the team Swiss (FIDE C.04.6; docs/rules/team-swiss.md).

Steps, each a separate function:

1. Pairing order (art. 1.2): primary score descending, then TPN.
2. Completion (C3): the teams to pair must admit a complete pairing with no two teams
   meeting twice; otherwise `PairingError`.
3. Pairing-allocated bye (art. 3.4) when the count is odd: the eligible team (C2: no
   PAB and no forfeit win before) with the lowest score, then the most matches played,
   then the largest TPN, whose removal leaves a complete pairing.
4. Brackets from the top score group down (art. 3.5): a bracket is a score group's
   teams plus the fewest upfloaters from lower groups that let both the bracket and
   everything below it be paired completely; upfloaters come from the highest scores
   first, within a score the largest TPN first.
5. Each bracket is paired by `brackets.pair_bracket` (art. 3.6).
6. Colours by art. 4 (`colours.allocate`); tables ordered by the higher score of the
   two teams, then the smaller TPN of the two.

Teams absent from the round (announced byes, withdrawals) are simply not passed in.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from service.engine.pairing.matching import perfectly_matchable
from service.engine.pairing.result import PairingError
from service.engine.pairing.team_swiss.brackets import Compatible, pair_bracket
from service.engine.pairing.team_swiss.colours import (
    allocate,
    colour_preference,
    preference_clash,
)
from service.engine.pairing.team_swiss.model import (
    TeamMatch,
    TeamPairing,
    TeamState,
    TeamSwissSettings,
)

__all__ = ["UPFLOATER_SET_LIMIT", "pair_team_round", "pairing_order"]

UPFLOATER_SET_LIMIT = 2000
"""Upfloater sets of one size examined before trying two more upfloaters (a bound on
the search; the full lower part always works, so the walk ends)."""


def pairing_order(teams: Sequence[TeamState], settings: TeamSwissSettings) -> list[TeamState]:
    """Art. 1.2: score (the primary score) descending, then TPN ascending."""
    primary = settings.primary_score
    return sorted(teams, key=lambda t: (-t.score(primary), t.number))


def pair_team_round(
    teams: Sequence[TeamState], round_number: int, settings: TeamSwissSettings
) -> TeamPairing:
    """Pair round `round_number` for `teams` (those present) by C.04.6."""
    _validate(teams, round_number, settings)
    by_number = {t.number: t for t in teams}
    forbidden = settings.forbidden

    def compatible(a: int, b: int) -> bool:
        return a != b and b not in by_number[a].opponents and frozenset((a, b)) not in forbidden

    ordered = pairing_order(teams, settings)
    numbers = [t.number for t in ordered]
    notes: list[str] = []
    bye: int | None = None
    if len(numbers) % 2:
        bye = _pairing_allocated_bye(ordered, compatible, settings)
        numbers.remove(bye)
        notes.append(f"PAB: team {bye}")
    elif not perfectly_matchable(numbers, compatible):
        raise PairingError("no complete pairing exists: teams have met too often")

    last_round = round_number >= settings.rounds
    kind = settings.colour_preferences
    prefs = {t.number: colour_preference(t, kind, last_round=last_round) for t in ordered}

    def clash(a: int, b: int) -> tuple[int, int]:
        return preference_clash(prefs[a], prefs[b], kind)

    pairs: list[tuple[int, int]] = []
    primary = settings.primary_score
    score = {t.number: t.score(primary) for t in ordered}
    remaining = numbers
    while remaining:
        top = score[remaining[0]]
        residents = [n for n in remaining if score[n] == top]
        lower = [n for n in remaining if score[n] != top]
        upfloaters = _upfloaters(residents, lower, score, compatible)
        if upfloaters:
            notes.append(f"bracket {top:g}: upfloaters {', '.join(map(str, upfloaters))}")
        chosen = set(upfloaters)
        bracket = residents + [n for n in lower if n in chosen]
        pairs.extend(pair_bracket(bracket, compatible, clash))
        remaining = [n for n in lower if n not in chosen]

    matches = _matches(pairs, by_number, settings, last_round)
    return TeamPairing(round_number, matches, bye, tuple(notes))


def _validate(teams: Sequence[TeamState], round_number: int, settings: TeamSwissSettings) -> None:
    numbers = [t.number for t in teams]
    if len(set(numbers)) != len(numbers):
        raise PairingError("team numbers must be unique")
    if any(n < 1 for n in numbers):
        raise PairingError("team numbers start at 1")
    if settings.rounds < 1:
        raise PairingError(f"rounds must be at least 1, got {settings.rounds}")
    if not 1 <= round_number <= settings.rounds:
        raise PairingError(f"round {round_number} is outside 1..{settings.rounds}")
    if len(teams) < 2:
        raise PairingError("a round needs at least two teams")


def _pairing_allocated_bye(
    ordered: list[TeamState], compatible: Compatible, settings: TeamSwissSettings
) -> int:
    """Art. 3.4 with C2 and C3 (see the module docstring)."""
    primary = settings.primary_score
    eligible = [t for t in ordered if not t.received_pab and not t.scored_without_playing]
    eligible.sort(key=lambda t: (t.score(primary), -len(t.played), -t.number))
    numbers = [t.number for t in ordered]
    for team in eligible:
        rest = [n for n in numbers if n != team.number]
        if perfectly_matchable(rest, compatible):
            return team.number
    raise PairingError("no team can take the pairing-allocated bye and leave a complete pairing")


def _upfloaters(
    residents: list[int],
    lower: list[int],
    score: dict[int, float],
    compatible: Compatible,
) -> list[int]:
    """Art. 3.5: the fewest upfloaters (C4), from the highest scores (C5), within a score
    the largest TPN first, such that the bracket and all below it can be paired (C3)."""
    candidates = sorted(lower, key=lambda n: (-score[n], -n))
    size = len(residents) % 2
    while size <= len(candidates):
        best: tuple[tuple[float, ...], tuple[int, ...]] | None = None
        best_set: tuple[int, ...] = ()
        examined = 0
        for combo in itertools.combinations(range(len(candidates)), size):
            examined += 1
            if examined > UPFLOATER_SET_LIMIT and best is not None:
                break
            chosen = [candidates[i] for i in combo]
            key = (tuple(sorted(-score[n] for n in chosen)), combo)
            if best is not None and key >= best:
                continue
            if _feasible(residents, lower, chosen, compatible):
                best, best_set = key, tuple(chosen)
            if size <= 1 and best is not None:
                break
        if best is not None:
            return list(best_set)
        size += 2
    raise PairingError("no upfloaters complete the pairing")  # pragma: no cover


def _feasible(
    residents: list[int], lower: list[int], chosen: list[int], compatible: Compatible
) -> bool:
    picked = set(chosen)
    bracket = residents + chosen
    below = [n for n in lower if n not in picked]
    return perfectly_matchable(bracket, compatible) and (
        not below or perfectly_matchable(below, compatible)
    )


def _matches(
    pairs: list[tuple[int, int]],
    by_number: dict[int, TeamState],
    settings: TeamSwissSettings,
    last_round: bool,
) -> tuple[TeamMatch, ...]:
    primary = settings.primary_score
    coloured = [
        allocate(
            by_number[a],
            by_number[b],
            kind=settings.colour_preferences,
            primary=primary,
            initial_colour=settings.initial_colour,
            last_round=last_round,
        )
        for a, b in pairs
    ]

    def table_key(pair: tuple[int, int]) -> tuple[float, int]:
        a, b = by_number[pair[0]], by_number[pair[1]]
        return (-max(a.score(primary), b.score(primary)), min(a.number, b.number))

    coloured.sort(key=table_key)
    return tuple(TeamMatch(i, w, b) for i, (w, b) in enumerate(coloured, start=1))
