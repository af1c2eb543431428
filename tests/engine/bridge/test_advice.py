"""The lecture's advice for small club events (service.engine.bridge.advice).

The lecture is *Wynik rozdania*, the Polish scoring course docs/rules/bridge.md follows;
its figures are in tests/data/seeds/003-bridge.json.
"""

from __future__ import annotations

import pytest

from service.engine.bridge import (
    BridgeInputError,
    ClubScoring,
    DatumMethod,
    butler,
    club_scoring_advice,
    pzbs_kept_count,
)
from tests.data import seed_003


def _seed_table() -> list[tuple[int, str, str]]:
    """(tables, form, comment) rows of the text's 'Małe turnieje klubowe' slide."""
    return [(tables, form, comment) for tables, form, comment in seed_003()["club_advice"]]


def test_seed_table_is_followed():
    rows = _seed_table()
    assert [row[0] for row in rows] == [2, 3, 4, 5, 6]
    expected_form = {
        "IMPy": ClubScoring.IMPS,
        "IMPy/Maksy": ClubScoring.IMPS_OR_MATCHPOINTS,
        "Maksy": ClubScoring.MATCHPOINTS,
    }
    for tables, form, comment in rows:
        advice = club_scoring_advice(tables)
        assert advice.scoring is expected_form[form]
        if comment.startswith("Bez odrzucania"):  # "without discarding"
            assert advice.datum_method is DatumMethod.MEAN
        if comment.startswith("Srednia z 2"):  # "mean of 2 scores"
            assert advice.datum_method is DatumMethod.PZBS
            assert pzbs_kept_count(tables) == 2


def test_advice_for_larger_events_and_its_use():
    assert club_scoring_advice(12).scoring is ClubScoring.MATCHPOINTS
    advice = club_scoring_advice(3)
    assert advice.datum_method is not None
    result = butler([620, 170, -100], advice.datum_method)
    assert result.datum is not None and result.datum.value == 230


@pytest.mark.parametrize("bad", [1, 0, -4, 2.5, True])
def test_invalid_table_count(bad):
    with pytest.raises(BridgeInputError) as info:
        club_scoring_advice(bad)
    assert info.value.field == "tables"
