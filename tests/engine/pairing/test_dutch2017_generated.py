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
  last bracket;
- g0234 (round 9) and g0226 (round 11): the trial of the bracket above the last score
  group looks ahead as the endorsed engine does there: every pair counts one plus
  one for each player in it who may not get the PAB, then each paired player of the
  bracket counts at its score. So it sees that 59 floated down would get the PAB, not
  a game, and floats 53 instead (59 downfloated two rounds before, C.14); and that
  133 paired in its bracket leaves the PAB to 135 of the last group.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.engine.model import Bye, Tournament
from service.engine.pairing.checker import generate_tournament
from service.engine.pairing.dutch import brackets, pair_round
from service.engine.pairing.matching import WeightedMatcher
from service.engine.pairing.round_pairing import Pairing, PairingError
from service.engine.trf import parse_trf
from service.engine.trf_check import check_file

DATA = Path(__file__).resolve().parents[2] / "data" / "dutch2017_generated"
FILES = sorted(path.name for path in DATA.glob("*.trf"))


def _pair_2017(tournament: Tournament, byes: tuple[Bye, ...]) -> Pairing:
    return pair_round(tournament, rules="dutch-2017", byes=byes)


def test_the_generated_set_is_there() -> None:
    assert FILES == [
        "rtg2017-g0226.trf",
        "rtg2017-g0234.trf",
        "rtg2017-s0001.trf",
        "rtg2017-s0125.trf",
        "rtg2017-s0250.trf",
    ]


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


def test_the_trial_grows_its_matcher_only_where_the_room_could_bind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Growing the trial's matcher only when the players below ran out (brackets.py,
    `_trial_short_of_room`) pairs every round as growing it for every trial does:
    whole random tournaments under the 2017 rules come out the same both ways."""

    def tournaments() -> list[Tournament | str]:
        made: list[Tournament | str] = []
        for seed in range(1, 41):
            players, rounds = 9 + seed % 19, 5 + seed % 4
            try:
                made.append(generate_tournament(players, rounds, seed=seed, pair=_pair_2017))
            except PairingError as error:  # a late round of a small field can be stuck
                made.append(str(error))
        return made

    shortcut = tournaments()
    grown: list[int] = []
    original = WeightedMatcher.extended

    def counted(self: WeightedMatcher, extra: int) -> WeightedMatcher:
        grown.append(extra)
        return original(self, extra)

    monkeypatch.setattr(WeightedMatcher, "extended", counted)
    monkeypatch.setattr(brackets._RoundPairer, "_trial_short_of_room", lambda self: True)
    always = tournaments()
    assert len(grown) > 100  # the forced path really grew the matcher
    assert always == shortcut
    assert sum(isinstance(t, Tournament) for t in shortcut) >= 30
