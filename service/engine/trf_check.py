"""Check every round of a TRF file against a pairing system, one report per round
(`arbiter check`; FIDE C.04.A endorsement: a program re-pairs each round of a file).

Readings taken:
- A player with a blank cell in a paired round was not paired (late entry, withdrawal,
  a "spielfrei" dummy): the round is re-paired with that player absent (zero-point bye),
  as with the byes the file writes.
- No XXC/152 record: the initial colour is the one the lowest-numbered player who
  played in round 1 received (C.04.3 E: the first colour is drawn for the top seed).
- A round the rules cannot pair is reported as such; the other rounds are still checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from service.engine.model import Bye, ByeKind, Colour, Tournament

__all__ = ["RoundReport", "check_file", "infer_initial_colour"]

PairFunction = Callable[[Tournament, tuple[Bye, ...]], Any]


@dataclass(frozen=True, slots=True)
class RoundReport:
    """One round of the file against the rules."""

    round: int
    agrees: bool
    played: tuple[tuple[int, int], ...] = ()
    """Pairs (white, black) the file has and the rules do not give."""
    expected: tuple[tuple[int, int], ...] = ()
    """Pairs the rules give and the file does not have."""
    played_bye: int | None = None
    expected_bye: int | None = None
    error: str | None = None
    """Why the rules could not pair this round (then `agrees` is False)."""


def infer_initial_colour(tournament: Tournament) -> Colour | None:
    """The colour the lowest-numbered player with a round-1 game received."""
    if tournament.initial_colour is not None or not tournament.rounds:
        return tournament.initial_colour
    games = tournament.rounds[0].games
    if not games:
        return None
    lowest = min(min(g.white, g.black) for g in games)
    game = next(g for g in games if lowest in (g.white, g.black))
    return Colour.WHITE if game.white == lowest else Colour.BLACK


def _pab(byes: tuple[Bye, ...]) -> int | None:
    return next((b.player for b in byes if b.kind is ByeKind.PAIRING_ALLOCATED), None)


def check_file(tournament: Tournament, pair: PairFunction) -> list[RoundReport]:
    """Re-pair every round from the rounds before it and compare with the file."""
    tournament = replace(tournament, initial_colour=infer_initial_colour(tournament))
    numbers = [p.start_number for p in tournament.players]
    reports: list[RoundReport] = []
    for index, played in enumerate(tournament.rounds):
        seated = {n for g in played.games for n in (g.white, g.black)}
        seated |= {b.player for b in played.byes}
        announced = tuple(b for b in played.byes if b.kind is not ByeKind.PAIRING_ALLOCATED)
        announced += tuple(
            Bye(played.number, n, ByeKind.ZERO_POINT) for n in numbers if n not in seated
        )
        before = replace(tournament, rounds=tournament.rounds[:index])
        try:
            pairing = pair(before, announced)
        except ValueError as error:
            reports.append(RoundReport(played.number, False, error=str(error)))
            continue
        actual = {(g.white, g.black) for g in played.games}
        given = {(g.white, g.black) for g in pairing.games}
        reports.append(
            RoundReport(
                round=played.number,
                agrees=actual == given and _pab(played.byes) == _pab(pairing.byes),
                played=tuple(sorted(actual - given)),
                expected=tuple(sorted(given - actual)),
                played_bye=_pab(played.byes),
                expected_bye=_pab(pairing.byes),
            )
        )
    return reports
