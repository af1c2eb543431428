"""Every round of the reference tournaments paired by a FIDE-endorsed Dutch engine.

For each reference file up to 200 players (tests/data/oracle/dutch, see the README of
shared/oracle/dutch), the first k rounds plus the byes announced for round k+1 go in;
round k+1 must come out exactly: the same pairs with the same colours and the same
pairing-allocated bye, for every k.
"""

from __future__ import annotations

import csv

import pytest

from service.engine.model import ByeKind
from service.engine.pairing.dutch import pair_round
from service.engine.trf import parse_trf, rounds_prefix
from tests.data import ORACLE_DUTCH as ORACLE

MAX_PLAYERS = 200


def _files() -> list[str]:
    with (ORACLE / "manifest.tsv").open() as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [row["file"] for row in rows if int(row["players"]) <= MAX_PLAYERS]


@pytest.mark.parametrize("name", _files())
def test_every_round_matches_the_reference(name: str) -> None:
    doc = parse_trf((ORACLE / name).read_text())
    mismatched: list[int] = []
    for k, expected in enumerate(doc.tournament.rounds):
        before = rounds_prefix(doc, k)
        got = pair_round(
            before.tournament,
            byes=before.next_round_byes,
            accelerations=before.accelerations,
            forbidden_pairs=before.forbidden_pairs,
        )
        want_games = sorted((g.white, g.black) for g in expected.games)
        got_games = sorted((g.white, g.black) for g in got.games)
        want_pab = [b.player for b in expected.byes if b.kind is ByeKind.PAIRING_ALLOCATED]
        got_pab = [b.player for b in got.byes if b.kind is ByeKind.PAIRING_ALLOCATED]
        if want_games != got_games or want_pab != got_pab:
            mismatched.append(k + 1)
    assert mismatched == [], f"{name}: rounds {mismatched} differ from the reference"
