"""Which C.07 reading the standings take: what the caller says decides, the shape only
when nothing is said (engine/scoring/reading.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.engine.scoring.reading import (
    DEFAULT_ROUND_ROBIN,
    DEFAULT_SWISS,
    DEFAULT_TIEBREAKS,
    TOURNAMENT_SYSTEMS,
    reading_for,
    system_from_trf,
)
from service.engine.scoring.standings import Standings, compute_standings
from tests.engine.scoring.builders import every_pair_meets


def _values(table: Standings, number: int) -> dict[str, Fraction | None]:
    return next(r.tiebreaks for r in table.rows if r.start_number == number)


@pytest.mark.parametrize(
    ("declared", "system"),
    [
        ("FIDE_DUTCH_2025", "swiss-dutch"),
        ("Swiss system", "swiss-dutch"),
        ("FIDE_BURSTEIN", "swiss-dutch"),
        ("FIDE_ROUNDROBIN", "round-robin"),
        ("Round Robin", "round-robin"),
        ("Double round-robin", "double-round-robin"),
        ("Berger", "round-robin"),
        ("JCA Swiss", "swiss-jca"),
        ("FLAMPARK", "flampark"),
        ("", None),
        (None, None),
        ("Open A", None),
    ],
)
def test_the_092_record_names_a_system(declared: str | None, system: str | None) -> None:
    assert system_from_trf(declared) == system


def test_the_caller_decides_then_the_file_then_the_shape() -> None:
    event = every_pair_meets()
    inferred = reading_for(event)
    assert (inferred.round_robin, inferred.source, inferred.system) == (True, "inferred", None)
    declared = reading_for(event, None, "FIDE_DUTCH_2025")
    assert (declared.round_robin, declared.source) == (False, "trf-092")
    told = reading_for(event, "swiss-dutch", "FIDE_ROUNDROBIN")
    assert (told.round_robin, told.source, told.system) == (False, "request", "swiss-dutch")
    assert told.as_dict() == {"reading": "swiss", "system": "swiss-dutch", "source": "request"}
    assert reading_for(event, "round-robin").name == "round-robin"


def test_a_swiss_where_every_pair_meets_is_ranked_as_a_swiss_when_said() -> None:
    """C.07 art. 16 (Swiss) and 2026 art. 15.2 (pre-determined pairings) count player
    1's forfeits differently: the reading named must be the one applied."""
    event = every_pair_meets()
    codes = ["BH", "BH-C1", "FB", "SB"]
    swiss = compute_standings(
        event, codes, round_robin=reading_for(event, "swiss-dutch").round_robin
    )
    fixed = compute_standings(event, codes, round_robin=reading_for(event).round_robin)
    assert (swiss.round_robin, fixed.round_robin) == (False, True)

    assert _values(swiss, 1) != _values(fixed, 1)
    # the opponents of player 1 in rounds 1 and 7 see a forfeit too
    assert swiss.rows != fixed.rows


def test_one_default_list_per_system() -> None:
    assert set(DEFAULT_TIEBREAKS) == set(TOURNAMENT_SYSTEMS)
    assert DEFAULT_TIEBREAKS["round-robin"] == DEFAULT_ROUND_ROBIN
    assert DEFAULT_TIEBREAKS["swiss-dutch"] == DEFAULT_SWISS
    event = every_pair_meets()
    assert reading_for(event).default_tiebreaks() == DEFAULT_ROUND_ROBIN
    assert reading_for(event, "swiss-jca").default_tiebreaks() == DEFAULT_TIEBREAKS["swiss-jca"]
    assert reading_for(event, None, "FIDE_DUTCH_2025").default_tiebreaks() == DEFAULT_SWISS
