"""The registry of tournament systems (engine/systems.py): what every system declares,
and that each declaration holds together.

A new system is one module and one `SYSTEMS` entry: `DECLARED` below is the table a
reviewer reads to see what each system says, and every other test here runs for every
entry, so a new system that forgets a declaration, or declares one that does not hold
(a 092 code that reads back as another system, a tie-break nobody computes, a schedule
that is not a schedule), fails here before any consumer meets it.
"""

from __future__ import annotations

import dataclasses

import pytest

from service.engine.model import GameResult, Round, Tournament
from service.engine.pairing.checker import generate_tournament
from service.engine.pairing.round_pairing import Pairing
from service.engine.scoring.tiebreaks.registry import parse_tiebreak
from service.engine.systems import (
    SYSTEMS,
    PairingName,
    PairingRequest,
    SystemName,
    TournamentSystem,
    by_pairing_name,
    pairing_names,
    spec_of,
    system_from_trf,
)

DECLARED = {
    # name: (092 code, paired in advance, C.07 round-robin reading, late entries,
    #        colour lot, options key, pairing name)
    "swiss-dutch": ("FIDE_DUTCH_2025", False, False, True, True, "swiss", "dutch"),
    "swiss-jca": ("JCA_SWISS", False, False, True, True, "swiss", "jca"),
    "round-robin": ("FIDE_ROUNDROBIN", True, True, False, False, None, None),
    "double-round-robin": ("FIDE_DOUBLE_ROUNDROBIN", True, True, False, False, None, None),
    "flampark": ("FLAMPARK", True, False, False, False, "flampark", "flampark"),
}


def _declared(spec: TournamentSystem) -> tuple[object, ...]:
    return (
        spec.trf_code,
        spec.paired_in_advance,
        spec.round_robin_reading,
        spec.late_entries,
        spec.initial_colour_lot,
        spec.options_key,
        spec.pairing_name,
    )


def test_the_table_of_declarations() -> None:
    assert {name.value: _declared(spec) for name, spec in SYSTEMS.items()} == DECLARED


def test_every_name_has_one_entry_under_its_own_name() -> None:
    assert set(SYSTEMS) == set(SystemName)
    for name, spec in SYSTEMS.items():
        assert spec.name is name
        assert spec_of(name.value) is spec
    assert spec_of("bridge-pairs") is None


def test_every_field_is_declared_by_every_system() -> None:
    """No declaration is left to a default except the schedule, which only systems
    paired in advance have."""
    defaulted = {
        f.name for f in dataclasses.fields(TournamentSystem) if f.default is not dataclasses.MISSING
    }
    assert defaulted == {"schedule"}


@pytest.mark.parametrize("spec", SYSTEMS.values(), ids=lambda s: s.name.value)
def test_the_092_code_reads_back_as_the_system(spec: TournamentSystem) -> None:
    """Export writes `trf_code`; import must read it as the same system (the drift this
    registry ends: JCA and FLAMPARK exported as FIDE_DUTCH_2025)."""
    assert system_from_trf(spec.trf_code) is spec
    for group in spec.trf_words:
        assert system_from_trf(" ".join(group).lower()) is spec


@pytest.mark.parametrize("spec", SYSTEMS.values(), ids=lambda s: s.name.value)
def test_default_tiebreaks_are_ones_the_engine_computes(spec: TournamentSystem) -> None:
    for code in spec.default_tiebreaks:
        parse_tiebreak(code)  # raises UnknownTieBreakError for a code nobody computes


@pytest.mark.parametrize("spec", SYSTEMS.values(), ids=lambda s: s.name.value)
def test_declarations_that_go_together(spec: TournamentSystem) -> None:
    assert (spec.schedule is not None) == spec.paired_in_advance
    if spec.round_robin_reading:
        assert spec.paired_in_advance  # C.07 2026 art. 15.2: pre-determined pairings
    if spec.late_entries:
        assert not spec.paired_in_advance  # a schedule made in advance has no room
    if not spec.paired_in_advance:
        assert spec.needs_round_count and spec.pairing_name is not None


def _legal(pairing: Pairing, field: int, number: int) -> None:
    assert pairing.round == number
    seen = [p for g in pairing.games for p in (g.white, g.black)]
    seen += [b.player for b in pairing.byes]
    assert sorted(seen) == list(range(1, field + 1))  # everyone once
    assert all(g.white != g.black for g in pairing.games)
    assert [g.table for g in pairing.games] == list(range(1, len(pairing.games) + 1))


def _field(size: int) -> Tournament:
    return dataclasses.replace(generate_tournament(size, 0, seed=7, pair=_never), total_rounds=4)


def _never(_tournament: Tournament, _byes: object) -> Pairing:
    raise AssertionError("no round is paired for an empty history")


@pytest.mark.parametrize("spec", SYSTEMS.values(), ids=lambda s: s.name.value)
def test_every_system_pairs_its_first_rounds(spec: TournamentSystem) -> None:
    """Through the one `pair_next` shape: 9 players (one sits out), round 1, its games
    played (White wins), then round 2."""
    tournament = _field(9)
    first = spec.pair_next(tournament, PairingRequest())
    _legal(first, 9, 1)
    assert len(first.byes) == 1
    played = Round(
        1,
        tuple(dataclasses.replace(g, result=GameResult.WHITE_WINS) for g in first.games),
        first.byes,
    )
    second = spec.pair_next(dataclasses.replace(tournament, rounds=(played,)), PairingRequest())
    _legal(second, 9, 2)
    assert not {frozenset((g.white, g.black)) for g in second.games} & {
        frozenset((g.white, g.black)) for g in first.games
    }


@pytest.mark.parametrize(
    "spec", [s for s in SYSTEMS.values() if s.schedule], ids=lambda s: s.name.value
)
def test_a_schedule_pairs_every_round_and_pair_next_follows_it(spec: TournamentSystem) -> None:
    assert spec.schedule is not None
    rounds, _warnings = spec.schedule(8, 4, {})
    assert rounds
    for number, scheduled in enumerate(rounds, start=1):
        assert scheduled.number == number
        seen = sorted(p for g in scheduled.games for p in (g.white, g.black))
        seen = sorted(seen + [b.player for b in scheduled.byes])
        assert seen == list(range(1, 9))
    tournament = _field(8)
    first = spec.pair_next(tournament, PairingRequest())
    assert first.games == rounds[0].games


def test_pairing_names_find_their_system() -> None:
    assert pairing_names() == tuple(
        s.pairing_name for s in SYSTEMS.values() if s.pairing_name is not None
    )
    assert set(pairing_names()) == set(PairingName)
    for name in PairingName:
        assert by_pairing_name(name).pairing_name is name
    with pytest.raises(ValueError, match="unknown system 'monrad'") as caught:
        by_pairing_name("monrad")
    assert getattr(caught.value, "field", None) == "system"
