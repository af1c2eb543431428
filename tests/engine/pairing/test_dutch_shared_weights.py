"""A bracket's rows store each distinct weight once (brackets.py `_set_base_weights`).

A first round is one bracket of the whole field whose weights are all alike, and a
later bracket's rows hold few distinct values, each a few hundred bits wide: one integer
object per pair took a 5,000-player first round to 3.3 GB
(docs/decisions/shared-weights.md). The matcher's own sharing is tested in
`test_dutch_matching.py`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from service.cli import main
from service.engine.pairing.matching import WeightedMatcher


def test_a_brackets_rows_share_one_integer_per_weight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows: list[list[int]] = []
    original = WeightedMatcher.set_weights

    def spy(matcher: WeightedMatcher, v: int, items: Iterable[tuple[int, int]]) -> None:
        items = list(items)
        if sys._getframe(1).f_code.co_name == "_set_base_weights":
            rows.append([w for _, w in items if w])
        original(matcher, v, items)

    monkeypatch.setattr(WeightedMatcher, "set_weights", spy)
    field = tmp_path / "start.trf"
    generate = ["generate", "--players", "41", "--rounds", "0", "--seed", "9", "-o", str(field)]
    assert main(generate) == 0
    assert main(["pair", str(field), "--format", "json"]) == 0
    assert '"round": 1' in capsys.readouterr().out
    weights = [w for row in rows for w in row]
    assert len(weights) >= 40 * 39 // 2  # the one bracket of 41, densely weighed
    distinct = set(weights)
    assert len(distinct) < 10
    assert len({id(w) for w in weights}) == len(distinct)
