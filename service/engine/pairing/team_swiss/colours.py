"""Colour preferences and colour allocation of the team Swiss (FIDE C.04.6 art. 1.6,
1.7 and 4; readings in docs/rules/team-swiss.md).

A match's colour is the colour of the first-named team on board 1 (art. 1.6.1); the
other boards follow the board colour sequence (`board_colours`). Preferences come from
the colour difference CD (Whites minus Blacks over matches really played) and the
last two played colours:

* type A: White when CD < -1, or CD is 0 or -1 and the last two were Black; Black
  symmetrically; otherwise none;
* type B: the same conditions give a strong preference; otherwise CD = -1 (+1) gives a
  mild preference for White (Black), and CD = 0 gives a mild preference for the colour
  not played last, except in the last round.

Allocation (art. 4.3) walks nine steps in order, the first that decides wins.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from service.engine.model import Colour
from service.engine.pairing.team_swiss.model import (
    ColourPreferenceType,
    PrimaryScore,
    TeamState,
)

__all__ = [
    "Preference",
    "Strength",
    "allocate",
    "board_colours",
    "colour_difference",
    "colour_preference",
    "first_team",
    "preference_clash",
]


class Strength(enum.IntEnum):
    """How much a preference weighs: type A knows only SIMPLE."""

    MILD = 1
    SIMPLE = 2
    STRONG = 3


@dataclass(frozen=True, slots=True)
class Preference:
    colour: Colour
    strength: Strength


def colour_difference(team: TeamState) -> int:
    """Whites minus Blacks over the matches really played."""
    played = team.played
    return sum(1 for c in played if c is Colour.WHITE) - sum(1 for c in played if c is Colour.BLACK)


def colour_preference(
    team: TeamState, kind: ColourPreferenceType, *, last_round: bool
) -> Preference | None:
    """The team's preference for the next match (art. 1.7), None when it has none."""
    played = team.played
    if kind is ColourPreferenceType.NONE or not played:
        return None
    cd = colour_difference(team)
    last_two = played[-2:]
    strong = Strength.SIMPLE if kind is ColourPreferenceType.A else Strength.STRONG
    if cd < -1 or (cd in (0, -1) and last_two == (Colour.BLACK, Colour.BLACK)):
        return Preference(Colour.WHITE, strong)
    if cd > 1 or (cd in (0, 1) and last_two == (Colour.WHITE, Colour.WHITE)):
        return Preference(Colour.BLACK, strong)
    if kind is ColourPreferenceType.A:
        return None
    if cd == -1:
        return Preference(Colour.WHITE, Strength.MILD)
    if cd == 1:
        return Preference(Colour.BLACK, Strength.MILD)
    if last_round:
        return None
    return Preference(played[-1].other, Strength.MILD)


def preference_clash(
    a: Preference | None, b: Preference | None, kind: ColourPreferenceType
) -> tuple[int, int]:
    """(teams losing a preference, teams losing a strong preference) if a meets b.

    Two teams wanting the same colour cannot both have it: one preference goes
    unfulfilled (the colour criterion), and with type B, when both are strong, one
    strong preference (the strong-colour criterion).
    """
    if a is None or b is None or a.colour is not b.colour:
        return (0, 0)
    both_strong = (
        kind is ColourPreferenceType.B
        and a.strength is Strength.STRONG
        and b.strength is Strength.STRONG
    )
    return (1, 1 if both_strong else 0)


def first_team(
    a: TeamState, b: TeamState, primary: PrimaryScore, *, use_secondary: bool = True
) -> tuple[TeamState, TeamState]:
    """(first-team, other) by art. 4.2: higher primary score, higher secondary score
    (4.2.2, unless the rules of the competition say not to use it), smaller TPN."""
    sa = a.secondary(primary) if use_secondary else 0.0
    sb = b.secondary(primary) if use_secondary else 0.0
    key_a = (-a.score(primary), -sa, a.number)
    key_b = (-b.score(primary), -sb, b.number)
    return (a, b) if key_a < key_b else (b, a)


def _last_different(a: TeamState, b: TeamState) -> Colour | None:
    """The colour `a` should get by alternating to the most recent time one team had
    White and the other Black (art. 4.3.6), or None.

    The article's note sends the reader to C.04.2 art. 3.4: only played matches count,
    and a history with an unplayed round is read squeezed, from its end (BWBuW as
    uBWBW). So the two played sequences are compared step by step from their last
    matches, not round by round."""
    for ca, cb in zip(reversed(a.played), reversed(b.played), strict=False):
        if ca is not cb:
            return ca.other
    return None


def allocate(
    a: TeamState,
    b: TeamState,
    *,
    kind: ColourPreferenceType,
    primary: PrimaryScore,
    initial_colour: Colour,
    last_round: bool,
    use_secondary: bool = True,
) -> tuple[int, int]:
    """(white, black) team numbers for a match of a and b (art. 4.3, steps 1 to 9)."""
    first, other = first_team(a, b, primary, use_secondary=use_secondary)
    colour = _first_team_colour(first, other, kind, primary, initial_colour, last_round)
    return (first.number, other.number) if colour is Colour.WHITE else (other.number, first.number)


def _first_team_colour(
    first: TeamState,
    other: TeamState,
    kind: ColourPreferenceType,
    primary: PrimaryScore,
    initial_colour: Colour,
    last_round: bool,
) -> Colour:
    # 4.3.1: neither team has played: the first-team's TPN parity and the initial colour.
    if not first.played and not other.played:
        return initial_colour if first.number % 2 else initial_colour.other
    pf = colour_preference(first, kind, last_round=last_round)
    po = colour_preference(other, kind, last_round=last_round)
    # 4.3.2: only one team has a preference: grant it.
    if pf is not None and po is None:
        return pf.colour
    if po is not None and pf is None:
        return po.colour.other
    # 4.3.3: opposite preferences: grant both.
    if pf is not None and po is not None and pf.colour is not po.colour:
        return pf.colour
    # 4.3.4 (type B): only one strong preference: grant it.
    if kind is ColourPreferenceType.B and pf is not None and po is not None:
        if pf.strength is Strength.STRONG and po.strength is not Strength.STRONG:
            return pf.colour
        if po.strength is Strength.STRONG and pf.strength is not Strength.STRONG:
            return po.colour.other
    # 4.3.5: White to the team with the lower colour difference.
    cdf, cdo = colour_difference(first), colour_difference(other)
    if cdf != cdo:
        return Colour.WHITE if cdf < cdo else Colour.BLACK
    # 4.3.6: alternate to the latest step (played matches, from the end) where they differ.
    alternated = _last_different(first, other)
    if alternated is not None:
        return alternated
    # 4.3.7: the first-team's preference.
    if pf is not None:
        return pf.colour
    # 4.3.8 and 4.3.9: alternate the first-team's, then the other team's, last colour.
    if first.played:
        return first.played[-1].other
    return other.played[-1]


def board_colours(boards: int, first_board: Colour = Colour.WHITE) -> tuple[Colour, ...]:
    """Colours of the first-named team board by board: `first_board` on the odd boards,
    the other colour on the even ones (art. 1.6; the customary team-match sequence)."""
    if boards < 1:
        raise ValueError(f"a match needs at least one board, got {boards}")
    return tuple(first_board if k % 2 else first_board.other for k in range(1, boards + 1))
