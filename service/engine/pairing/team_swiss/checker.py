"""A pairing checker for team Swiss rounds (FIDE C.04.A asks an endorsed program for a
free pairing checker; the criteria are those of C.04.6, docs/rules/team-swiss.md).

Given the teams' states before a round and a proposed round, `check_team_round` lists
every criterion the proposal breaks. Absolute faults are found directly (a team
missing or paired twice, a bye with an even count, two teams meeting again, a PAB to a
team that already scored without playing). Quality is judged against the engine's own
pairing of the same history, as `service/engine/pairing/checker.py` does for
individuals: worse score differences (art. 3.5), more unfulfilled colour preferences
(C8) or strong preferences (C9), then any other difference in pairs, bye, colours or
table order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.engine.pairing.team_swiss.colours import colour_preference, preference_clash
from service.engine.pairing.team_swiss.engine import pair_team_round
from service.engine.pairing.team_swiss.model import TeamPairing, TeamState, TeamSwissSettings

__all__ = ["Violation", "check_team_round"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken criterion of a proposed round."""

    criterion: str
    """"completeness", "C1", "C2", "score", "C8", "C9", "C7", "C10", "pairing", "bye",
    "colours", "tables"."""
    detail: str


def _absolute(
    teams: Sequence[TeamState], proposed: TeamPairing, settings: TeamSwissSettings
) -> list[Violation]:
    by_number = {t.number: t for t in teams}
    found: list[Violation] = []
    seen: list[int] = [n for m in proposed.matches for n in (m.white, m.black)]
    if proposed.bye is not None:
        seen.append(proposed.bye)
    for n in sorted(set(seen)):
        if n not in by_number:
            found.append(Violation("completeness", f"team {n} is not in the round"))
        elif seen.count(n) > 1:
            found.append(Violation("completeness", f"team {n} appears {seen.count(n)} times"))
    for n in sorted(set(by_number) - set(seen)):
        found.append(Violation("completeness", f"team {n} is neither paired nor given the bye"))
    if (proposed.bye is None) != (len(teams) % 2 == 0):
        found.append(Violation("completeness", "a bye is given exactly when the count is odd"))
    for m in proposed.matches:
        a = by_number.get(m.white)
        if a is not None and m.black in a.opponents:
            found.append(Violation("C1", f"teams {m.white} and {m.black} already met"))
        if frozenset((m.white, m.black)) in settings.forbidden:
            found.append(Violation("C1", f"teams {m.white} and {m.black} may not meet"))
    bye = by_number.get(proposed.bye) if proposed.bye is not None else None
    if bye is not None and (bye.received_pab or bye.scored_without_playing):
        found.append(Violation("C2", f"team {bye.number} already scored without playing"))
    return found


def _quality(
    teams: Sequence[TeamState], pairing: TeamPairing, settings: TeamSwissSettings
) -> tuple[tuple[float, ...], int, int, int, int]:
    """(score differences descending, C8, C9, C7, C10) of a round: in a pair of unequal
    scores the lower-scored team is the upfloater."""
    by_number = {t.number: t for t in teams}
    primary = settings.primary_score
    last = pairing.round >= settings.rounds
    kind = settings.colour_preferences
    diffs = sorted(
        (
            abs(by_number[m.white].score(primary) - by_number[m.black].score(primary))
            for m in pairing.matches
        ),
        reverse=True,
    )
    c8 = c9 = c7 = c10 = 0
    floats = pairing.round < settings.rounds - 1  # C7 and C10: not the last two rounds
    for m in pairing.matches:
        white, black = by_number[m.white], by_number[m.black]
        a = colour_preference(white, kind, last_round=last)
        b = colour_preference(black, kind, last_round=last)
        x, y = preference_clash(a, b, kind)
        c8, c9 = c8 + x, c9 + y
        if floats and white.score(primary) != black.score(primary):
            up, other = sorted((white, black), key=lambda t: t.score(primary))
            c7 += up.floated_last_round
            c10 += other.floated_last_round
    return tuple(diffs), c8, c9, c7, c10


def check_team_round(
    teams: Sequence[TeamState], proposed: TeamPairing, settings: TeamSwissSettings
) -> list[Violation]:
    """Every criterion `proposed` breaks, given the states of `teams` before it."""
    found = _absolute(teams, proposed, settings)
    if found:
        return found
    expected = pair_team_round(teams, proposed.round, settings)
    got_q, want_q = _quality(teams, proposed, settings), _quality(teams, expected, settings)
    if got_q[0] > want_q[0]:
        found.append(Violation("score", f"score differences {got_q[0]} exceed {want_q[0]}"))
    if got_q[1] > want_q[1]:
        found.append(Violation("C8", f"{got_q[1]} unfulfilled preferences, {want_q[1]} possible"))
    if got_q[2] > want_q[2]:
        found.append(
            Violation("C9", f"{got_q[2]} unfulfilled strong preferences, {want_q[2]} possible")
        )
    if got_q[3] > want_q[3]:
        found.append(Violation("C7", f"{got_q[3]} upfloaters floated before, {want_q[3]} possible"))
    if got_q[4] > want_q[4]:
        found.append(
            Violation(
                "C10", f"{got_q[4]} upfloaters' opponents floated before, {want_q[4]} possible"
            )
        )
    got_pairs = {frozenset((m.white, m.black)) for m in proposed.matches}
    want_pairs = {frozenset((m.white, m.black)) for m in expected.matches}
    if got_pairs != want_pairs:
        extra = sorted(tuple(sorted(p)) for p in got_pairs - want_pairs)
        missing = sorted(tuple(sorted(p)) for p in want_pairs - got_pairs)
        found.append(Violation("pairing", f"pairs {extra} instead of {missing}"))
    if proposed.bye != expected.bye:
        found.append(Violation("bye", f"bye to {proposed.bye}, the rules give {expected.bye}"))
    if not found:
        got = {(m.white, m.black) for m in proposed.matches}
        want = {(m.white, m.black) for m in expected.matches}
        if got != want:
            found.append(
                Violation("colours", f"{sorted(got - want)} instead of {sorted(want - got)}")
            )
        elif proposed.matches != expected.matches:
            found.append(Violation("tables", "table order differs from art. 4 board order"))
    return found
