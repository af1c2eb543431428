"""Every round of the reference tournaments paired by a FIDE-endorsed Dutch engine.

For each reference file up to 200 players (tests/data/oracle/dutch; tests/data/README.md
says where they came from), the first k rounds plus the byes announced for round k+1 go in;
round k+1 must come out exactly: the same pairs with the same colours and the same
pairing-allocated bye, for every k.
"""

from __future__ import annotations

import pytest

from service.engine.model import ByeKind
from tests.engine.pairing.reference import reference_files, repaired_rounds

MAX_PLAYERS = 200


@pytest.mark.parametrize("name", reference_files(max_players=MAX_PLAYERS))
def test_every_round_matches_the_reference(name: str) -> None:
    mismatched: list[int] = []
    for k, (expected, got) in enumerate(repaired_rounds(name)):
        want_games = sorted((g.white, g.black) for g in expected.games)
        got_games = sorted((g.white, g.black) for g in got.games)
        want_pab = [b.player for b in expected.byes if b.kind is ByeKind.PAIRING_ALLOCATED]
        got_pab = [b.player for b in got.byes if b.kind is ByeKind.PAIRING_ALLOCATED]
        if want_games != got_games or want_pab != got_pab:
            mismatched.append(k + 1)
    assert mismatched == [], f"{name}: rounds {mismatched} differ from the reference"
