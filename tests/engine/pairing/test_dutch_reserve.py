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

from service.engine.pairing.dutch.players import SwissPlayer
from service.engine.pairing.dutch.weights import WeightContext
from tests.data import ORACLE_DUTCH as ORACLE
from tests.engine.pairing.reference import repaired_rounds


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
    for _ in repaired_rounds(name):
        pass
    assert checked["pairs"] > 0


def _checked_unmeetable(name: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """Re-pair `name` with `unmeetable` checked against `meetable` on every field;
    returns how many pairs were parted by colour alone."""
    checked = {"fields": 0, "parted": 0, "by_colour": 0}
    unmeetable = WeightContext.unmeetable

    def spy(ctx: WeightContext, players: Sequence[SwissPlayer]) -> list[tuple[int, int]]:
        found = unmeetable(ctx, players)
        expected = [
            (i, j)
            for j in range(len(players))
            for i in range(j)
            if i not in ctx.meetable(players[j], players[:j])
        ]
        assert found == sorted(expected)
        checked["fields"] += 1
        checked["parted"] += len(found)
        info = ctx.info
        checked["by_colour"] += sum(
            1
            for i, j in found
            if players[i].number not in info[players[j].number].forbidden
            and players[j].number not in info[players[i].number].forbidden
        )
        return found

    monkeypatch.setattr(WeightContext, "unmeetable", spy)
    for _ in repaired_rounds(name):
        pass
    assert checked["fields"] > 0 and checked["parted"] > 0
    return checked["by_colour"]


@pytest.mark.parametrize("name", _files(4))
def test_the_unmeetable_pairs_are_what_meetable_leaves_out(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reserve is laid for a whole field at once, less `unmeetable`'s pairs: they
    must be exactly the pairs `meetable` refuses (rematches, forbidden pairs, two
    absolute preferences for one colour), checked on every round of reference
    tournaments with absolute colour preferences."""
    _checked_unmeetable(name, monkeypatch)


def test_some_unmeetable_pairs_are_parted_by_colour_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Across those tournaments some pairs are parted by colour alone (C3), so the
    check above covers that path and not only rematches."""
    clashes = 0
    for name in _files(4):
        with monkeypatch.context() as patched:
            clashes += _checked_unmeetable(name, patched)
    assert clashes > 0
