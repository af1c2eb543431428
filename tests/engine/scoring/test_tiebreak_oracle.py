"""Tie-breaks against FIDE's tie-break checker: 40 Swiss events with forfeits and byes.

tests/data/tiebreaks (see its README) holds, for every player of every file, the
checker's values of 12 tie-breaks under the 2024 and the 2026 edition of C.07. The
events are Swiss (round by round), so unplayed rounds follow C.07 art. 16 (the dummy
opponent of 16.4, capped in 2026; the adjusted scores of 16.3) whatever the shape.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from service.engine.scoring.standings import compute_standings
from service.engine.trf import parse_trf

DATA = Path(__file__).resolve().parents[2] / "data" / "tiebreaks"
EXPECTED: dict[str, dict[str, dict[str, dict[str, float | None]]]] = json.loads(
    (DATA / "expected.json").read_text()
)
CODES = ("BH", "BH-C1", "BH-M1", "FB", "SB", "ARO", "WIN", "WON", "BPG", "BWG", "PS", "KS")
CASES = [(name, edition) for name in sorted(EXPECTED) for edition in ("2024", "2026")]


def _shown(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


@pytest.mark.parametrize(("name", "edition"), CASES)
def test_every_value_matches_the_checker(name: str, edition: str) -> None:
    doc = parse_trf((DATA / name).read_text())
    table = compute_standings(doc.tournament, CODES, edition=edition, round_robin=False)
    got = {
        str(row.start_number): {code: _shown(row.tiebreaks[code]) for code in CODES}
        for row in table.rows
    }
    assert got == EXPECTED[name][edition]


def test_the_set_covers_what_it_claims() -> None:
    """The README's counts: 396 players, and four who never play over the board."""
    players = sum(len(EXPECTED[name]["2026"]) for name in EXPECTED)
    no_game = [
        (name, number)
        for name in EXPECTED
        for number, values in EXPECTED[name]["2026"].items()
        if values["ARO"] is None
    ]
    assert len(EXPECTED) == 40
    assert players == 396
    assert len(no_game) == 4


@pytest.mark.parametrize("name", ["t-f01.trf", "t-f22.trf", "t-f27.trf", "t-f29.trf"])
def test_aro_without_a_game_is_undefined_and_explained_so(name: str) -> None:
    """C.07 art. 10.1: an average over no opponent is undefined; never 0."""
    doc = parse_trf((DATA / name).read_text())
    number = next(int(n) for n, v in EXPECTED[name]["2026"].items() if v["ARO"] is None)
    table = compute_standings(doc.tournament, ["ARO"], explain=number, round_robin=False)
    row = next(r for r in table.rows if r.start_number == number)
    assert row.tiebreaks["ARO"] is None
    assert table.explanation is not None
    explained = table.explanation.as_dict()["tiebreaks"]
    assert isinstance(explained, list) and explained[0]["value"] is None
    # an undefined ARO ranks below every defined one among players tied on points
    tied = [r for r in table.rows if r.points == row.points]
    assert tied[-1].start_number == number or all(
        r.tiebreaks["ARO"] is None for r in tied[tied.index(row) :]
    )
