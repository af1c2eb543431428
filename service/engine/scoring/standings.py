"""Standings: points, then an ordered list of tie-breaks (FIDE C.07 art. 4-5).

Participants are ranked by points (per `Tournament.points`), then by each tie-break
in the order given; a tie-break only separates participants still tied on everything
before it. Participants equal on points and on every tie-break share a rank
(1, 2, 2, 4) and are listed by start number.

Type A tie-breaks (DE, C.07 art. 6) are evaluated per tied group at the moment they
come up in the list; every other tie-break is computed once for everybody.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from service.engine.model import Tournament
from service.engine.ranking import shared_places
from service.engine.scoring.reading import DEFAULT_ROUND_ROBIN, DEFAULT_SWISS
from service.engine.scoring.tiebreaks.base import (
    Contribution,
    GroupTieBreak,
    TieBreak,
    TieBreakExplanation,
    fractions_of,
)
from service.engine.scoring.tiebreaks.context import TieBreakContext, build_context
from service.engine.scoring.tiebreaks.errors import TieBreakError, UnsupportedEditionError
from service.engine.scoring.tiebreaks.registry import parse_tiebreak

__all__ = [
    "DEFAULT_ROUND_ROBIN",
    "DEFAULT_SWISS",
    "EDITIONS",
    "PlayerExplanation",
    "StandingRow",
    "Standings",
    "compute_standings",
]

EDITIONS = ("2026", "2024")
"""Editions of FIDE C.07 implemented: the text applied from 1 March 2026, and the one
in force before it ("2024": the 2023 rules as reworded in 2024; the dummy opponent
of art. 16.4 uncapped)."""

_EDITION_ALIASES = {"2023": "2024"}
"""The 2023 text: the same tie-break definitions as 2024 (FIDE changed only the
explanations in the 2024 rewording)."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings."""

    rank: int
    """Place, shared by participants tied on points and every tie-break."""
    start_number: int
    """The participant's start number."""
    points: Fraction
    """Points per the tournament's point system."""
    tiebreaks: dict[str, Fraction | None]
    """Tie-break values by code, in the order asked for; None where a tie-break is
    undefined for the participant (ARO without a game over the board, C.07 art. 10.1)."""


@dataclass(frozen=True, slots=True)
class PlayerExplanation:
    """Why one participant has the tie-break values shown (`explain=<start_number>`)."""

    start_number: int
    """The participant explained."""
    rank: int
    """Their place."""
    points: Fraction
    """Their points."""
    tiebreaks: tuple[TieBreakExplanation, ...]
    """One explanation per tie-break, in the order asked for."""

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "start_number": self.start_number,
            "rank": self.rank,
            "points": {"exact": str(self.points), "float": float(self.points)},
            "tiebreaks": [t.as_dict() for t in self.tiebreaks],
        }


@dataclass(frozen=True, slots=True)
class Standings:
    """The ranked table."""

    rows: tuple[StandingRow, ...]
    """Rows, best first."""
    tiebreaks: tuple[str, ...] = ()
    """The tie-break codes applied, normalised, in order."""
    edition: str = "2026"
    """FIDE C.07 edition applied."""
    explanation: PlayerExplanation | None = None
    """Filled when `explain` was given."""
    round_robin: bool = False
    """The C.07 reading applied: pre-determined pairings (2026 art. 15.2) or not."""
    context: TieBreakContext | None = field(default=None, compare=False, repr=False)
    """The digested tournament, to pass as `previous` for its next state."""


def compute_standings(
    tournament: Tournament,
    tiebreaks: Sequence[str] = ("SB", "DE", "WIN"),
    *,
    edition: str = "2026",
    explain: int | None = None,
    round_robin: bool | None = None,
    previous: TieBreakContext | None = None,
) -> Standings:
    """Rank a tournament by points and `tiebreaks` (codes, see the registry).

    `round_robin` says whether pairings were pre-determined (C.07 2026 art. 15.2);
    None detects it from the player and round counts (see tiebreaks.context).
    `previous` (`Standings.context` of an earlier state of the same tournament) lets
    the digest be brought forward instead of rebuilt (`build_context`).

    Raises `UnknownTieBreakError` for an unknown code, `UnsupportedEditionError` for an
    edition other than "2026" and "2024", `TieBreakError` for a start number to
    explain that is not in the tournament.
    """
    edition = _EDITION_ALIASES.get(edition, edition)
    if edition not in EDITIONS:
        raise UnsupportedEditionError(edition)
    if isinstance(tiebreaks, str):
        tiebreaks = [part for part in tiebreaks.split(",") if part.strip()]
    parsed = [parse_tiebreak(code, edition) for code in tiebreaks]
    ctx = build_context(tournament, edition, round_robin, previous=previous)
    if explain is not None and explain not in ctx.players:
        raise TieBreakError(f"cannot explain start number {explain}: not in the tournament")

    scores = {n: pd.score for n, pd in ctx.players.items()}
    points = fractions_of((scores, ctx.unit))
    values: dict[int, dict[str, Fraction | None]] = {n: {} for n in ctx.players}
    group_notes: dict[str, tuple[str, tuple[Contribution, ...]]] = {}
    groups = _split_sorted(sorted(ctx.players, key=lambda n: -scores[n]), scores)

    for tb in parsed:
        if isinstance(tb, TieBreak):
            raw = tb.raw(ctx)
            numerators = raw[0]
            undefined = tb.undefined(ctx)
            for number, value in fractions_of(raw).items():
                values[number][tb.code] = None if number in undefined else value
            key = numerators.__getitem__
            groups = [
                part
                for group in groups
                for part in (
                    _split_sorted(sorted(group, key=key, reverse=tb.descending), numerators)
                    if len(group) > 1
                    else (group,)
                )
            ]
        else:
            groups = _apply_group(ctx, tb, groups, values, explain, group_notes)

    # a group is tied on points and every tie-break: one place for all its members
    order = [(index, number) for index, group in enumerate(groups) for number in sorted(group)]
    places = shared_places([index for index, _ in order])
    rows = [
        StandingRow(rank, number, points[number], values[number])
        for rank, (_, number) in zip(places, order, strict=True)
    ]

    explanation = None
    if explain is not None:
        row = next(r for r in rows if r.start_number == explain)
        items = []
        for tb in parsed:
            if isinstance(tb, TieBreak):
                items.append(tb.explain(ctx, explain))
            else:
                note, contributions = group_notes.get(tb.code, ("", ()))
                items.append(
                    TieBreakExplanation(tb.code, values[explain][tb.code], contributions, note)
                )
        explanation = PlayerExplanation(explain, row.rank, row.points, tuple(items))
    codes = tuple(tb.code for tb in parsed)
    return Standings(tuple(rows), codes, edition, explanation, ctx.round_robin, context=ctx)


def _split_sorted(ordered: list[int], values: dict[int, int]) -> list[list[int]]:
    """Cut an ordered list into runs of equal value."""
    parts: list[list[int]] = []
    previous: int | None = None
    for number in ordered:
        value = values[number]
        if parts and value == previous:
            parts[-1].append(number)
        else:
            parts.append([number])
            previous = value
    return parts


def _apply_group(
    ctx: TieBreakContext,
    tb: GroupTieBreak,
    groups: list[list[int]],
    values: dict[int, dict[str, Fraction | None]],
    explain: int | None,
    notes: dict[str, tuple[str, tuple[Contribution, ...]]],
) -> list[list[int]]:
    result: list[list[int]] = []
    for group in groups:
        if len(group) == 1:
            values[group[0]][tb.code] = Fraction(0)
            if group[0] == explain:
                notes[tb.code] = ("not tied: no mini-table", ())
            result.append(group)
            continue
        order = tb.order(ctx, group)
        for number in group:
            values[number][tb.code] = order.values[number]
            if number == explain:
                notes[tb.code] = (
                    order.notes.get(number, ""),
                    tb.contributions(ctx, group, number),
                )
        result.extend(order.subgroups)
    return result
