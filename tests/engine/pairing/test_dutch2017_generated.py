"""Whole tournaments paired round by round by the FIDE-endorsed 2017 engine.

tests/data/dutch2017_generated (see its README) holds tournaments made by that engine's
random tournament generator, which pairs every round itself: each round k+1 is its
pairing of rounds 1..k. Under `rules="dutch-2017"` every round must come out the same
(pairs, colours, pairing-allocated bye). Each file pins one reading of 2017 A.9 that
the reference set did not reach:

- s0001: the bracket above the last score group is the PPB only when its trial pairing
  cannot be completed; then it is paired without looking ahead (C.7), so 2-4 stands
  over 2-8 on the repeated upfloat of 8 (C.15), and player 6 gets the PAB;
- s0125: the same bracket, when its trial pairing completes the round, keeps it, with
  its look-ahead (32 rather than 26 floats, so the last bracket pairs 32-29);
- s0250: the trial weighs the bracket and the next score group alone, however few
  players are below them: 65-78 is the 2.5 bracket's trial pair although it leaves
  the round incomplete, so that bracket is the PPB and everyone below it forms the
  last bracket.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.engine.model import Bye, Tournament
from service.engine.pairing.dutch import pair_round
from service.engine.pairing.result import Pairing
from service.engine.trf import parse_trf
from service.engine.trf_check import check_file

DATA = Path(__file__).resolve().parents[2] / "data" / "dutch2017_generated"
FILES = sorted(path.name for path in DATA.glob("*.trf"))


def _pair_2017(tournament: Tournament, byes: tuple[Bye, ...]) -> Pairing:
    return pair_round(tournament, rules="dutch-2017", byes=byes)


def test_the_generated_set_is_there() -> None:
    assert FILES == ["rtg2017-s0001.trf", "rtg2017-s0125.trf", "rtg2017-s0250.trf"]


@pytest.mark.parametrize("name", FILES)
def test_every_round_is_paired_as_the_2017_engine_paired_it(name: str) -> None:
    doc = parse_trf((DATA / name).read_text(encoding="ascii"))
    reports = check_file(doc.tournament, _pair_2017)
    assert len(reports) == doc.tournament.total_rounds
    differing = [
        (r.round, r.played, r.expected, r.played_bye, r.expected_bye)
        for r in reports
        if not r.agrees
    ]
    assert differing == []
