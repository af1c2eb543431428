"""The completion fields as the matcher's reserve (brackets.py `_set_outside_weights`).

The reserve is exact only if every pair outside the bracket weighs F - p(higher) -
p(lower) and `meetable` names exactly the pairs that weigh anything. Both are checked
on every pair the engine reserves while it pairs every round of reference
tournaments with odd fields, pairing-allocated byes and absolute colour preferences.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence

import pytest

from service.engine.pairing.dutch import pair_round
from service.engine.pairing.dutch.players import SwissPlayer
from service.engine.pairing.dutch.weights import WeightContext
from service.engine.trf import parse_trf, rounds_prefix
from tests.data import ORACLE_DUTCH as ORACLE


def _files(count: int) -> list[str]:
    with (ORACLE / "manifest.tsv").open() as fh:
        rows = [
            row for row in csv.DictReader(fh, delimiter="\t") if 20 <= int(row["players"]) <= 60
        ]
    odd = [row["file"] for row in rows if int(row["players"]) % 2]
    even = [row["file"] for row in rows if not int(row["players"]) % 2]
    return odd[:count] + even[:2]


@pytest.mark.parametrize("name", _files(4))
def test_every_reserved_pair_weighs_the_flat_weight_less_both_potentials(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = {"pairs": 0}
    meetable = WeightContext.meetable

    def spy(ctx: WeightContext, lower: SwissPlayer, highers: Sequence[SwissPlayer]) -> list[int]:
        found = meetable(ctx, lower, highers)
        row = ctx.outside_weights(lower, highers)
        assert found == [i for i, w in enumerate(row) if w]
        flat = ctx.outside_constant()
        mine = ctx.outside_potential(lower)
        for i in found:
            assert row[i] == flat - ctx.outside_potential(highers[i]) - mine
        checked["pairs"] += len(found)
        return found

    monkeypatch.setattr(WeightContext, "meetable", spy)
    doc = parse_trf((ORACLE / name).read_text())
    for k in range(len(doc.tournament.rounds)):
        before = rounds_prefix(doc, k)
        pair_round(
            before.tournament,
            byes=before.next_round_byes,
            accelerations=before.accelerations,
            forbidden_pairs=before.forbidden_pairs,
        )
    assert checked["pairs"] > 0
