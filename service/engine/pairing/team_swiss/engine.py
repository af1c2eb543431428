"""One round of the team Swiss (FIDE C.04.6; docs/rules/team-swiss.md).

Steps (art. 3.3.2), each a separate function:

1. Pairing order (art. 1.2): primary score descending, then TPN.
2. Pairing-allocated bye (art. 3.4) when the count is odd: among teams allowed one
   ([C2]: no PAB and no match won by forfeit before) and leaving a legal pairing for
   the rest ([C3]), the lowest score, then the most matches played, then the largest
   TPN. With an even count the teams must admit a legal pairing ([C3]).
3. Brackets from the top-scoregroup down (art. 3.2, 3.5): the top-scoregroup plus the
   upfloaters `upfloaters.choose_upfloaters` picks.
4. Each bracket paired by `brackets.pair_bracket` (art. 3.6), the pair cost weighing
   [C8] over [C9] over [C10].
5. Colours by art. 4 (`colours.allocate`); matches ordered by the higher score of the
   two teams, then the higher sum of scores, then the TPN of the higher-ranked team
   of the two (C.04.2, as the preface applies it).

Teams absent from the round (announced byes, withdrawals) are simply not passed in.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.engine.pairing.matching import perfectly_matchable
from service.engine.pairing.round_pairing import PairingError
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
from service.engine.pairing.team_swiss.upfloaters import choose_upfloaters

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
    float_criteria = round_number < settings.rounds - 1  # [C7], [C10]: not the last two
    kind = settings.colour_preferences
    prefs = {t.number: colour_preference(t, kind, last_round=last_round) for t in ordered}
    primary = settings.primary_score
    score = {t.number: t.score(primary) for t in ordered}

    def floated(n: int) -> bool:
        return float_criteria and by_number[n].floated_last_round

    pairs: list[tuple[int, int]] = []
    remaining = numbers
    weight = len(numbers) + 1
    while remaining:
        top = score[remaining[0]]
        residents = [n for n in remaining if score[n] == top]
        lower = [n for n in remaining if score[n] != top]
        upfloaters = set(choose_upfloaters(residents, lower, score, compatible, floated))
        if upfloaters:
            listed = sorted(upfloaters, key=lambda n: (-score[n], n))
            notes.append(f"bracket {top:g}: upfloaters {', '.join(map(str, listed))}")

        def cost(a: int, b: int, ups: set[int] = upfloaters) -> int:
            c8, c9 = preference_clash(prefs[a], prefs[b], kind)
            c10 = (a in ups and floated(b)) + (b in ups and floated(a))
            return (c8 * weight + c9) * weight + c10

        bracket = residents + [n for n in lower if n in upfloaters]
        pairs.extend(pair_bracket(bracket, compatible, cost))
        remaining = [n for n in lower if n not in upfloaters]

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
            use_secondary=settings.secondary_for_colours,
        )
        for a, b in pairs
    ]

    def table_key(pair: tuple[int, int]) -> tuple[float, float, int]:
        # the higher-ranked team of the pair: the higher score, then the smaller TPN
        (sa, a), (sb, b) = ((by_number[n].score(primary), n) for n in pair)
        higher = a if (sa, -a) > (sb, -b) else b
        return (-max(sa, sb), -(sa + sb), higher)

    coloured.sort(key=table_key)
    return tuple(TeamMatch(i, w, b) for i, (w, b) in enumerate(coloured, start=1))
