"""Standings by points alone: the table of a tournament without tie-breaks (FLAMPARK's
default, where PF decides the order), rebuilt after every result."""

from __future__ import annotations

import math
from fractions import Fraction

from service.engine.model import ByeKind, Colour, Outcome, Tournament
from service.engine.ranking import shared_places
from service.engine.scoring.standings import StandingRow, Standings

__all__ = ["points_only"]


def points_only(tournament: Tournament) -> Standings:
    """Standings by points alone (no tie-breaks), in one pass over the games: what a
    FLAMPARK table needs beside PF after every result. Equal points share a rank;
    `compute_standings(tournament, [])` gives the same rows (a test pins it).

    Sums run in integers over the common denominator of the point values."""
    points = tournament.points
    outcome_values = {o: points.for_outcome(o) for o in Outcome}
    bye_values = {k: points.for_bye(k) for k in ByeKind}
    unit = math.lcm(*(v.denominator for v in (*outcome_values.values(), *bye_values.values())))
    outcome_units = {o: int(v * unit) for o, v in outcome_values.items()}
    bye_units = {k: int(v * unit) for k, v in bye_values.items()}
    totals = dict.fromkeys((p.start_number for p in tournament.players), 0)
    white, black = Colour.WHITE, Colour.BLACK
    for rnd in tournament.rounds:
        for game in rnd.games:
            result = game.result
            if result is not None:
                totals[game.white] += outcome_units[result.outcome(white)]
                totals[game.black] += outcome_units[result.outcome(black)]
        for bye in rnd.byes:
            totals[bye.player] += bye_units[bye.kind]
    ordered = sorted(totals, key=lambda n: (-totals[n], n))
    places = shared_places([totals[number] for number in ordered])
    rows = [
        StandingRow(rank, number, Fraction(totals[number], unit), {})
        for rank, number in zip(places, ordered, strict=True)
    ]
    return Standings(rows=tuple(rows), tiebreaks=())
