"""Varma tables and the restricted drawing of start numbers (FIDE C.05 Annex 2)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.pairing import varma
from service.engine.pairing.round_pairing import PairingError
from service.engine.pairing.roundrobin import berger_table
from service.engine.pairing.varma import (
    SET_NAMES,
    VARMA_TABLES,
    VarmaError,
    draw_order,
    varma_draw,
    varma_sets,
)
from tests.data import seed_002


def seed_tables() -> dict[int, dict[str, tuple[int, ...]]]:
    """The Varma sets as printed in Annex 2, keyed by the even field size."""
    return {
        int(size): {letter: tuple(numbers) for letter, numbers in sets.items()}
        for size, sets in seed_002()["varma_sets"].items()
    }


def test_public_surface() -> None:
    assert set(varma.__all__) == {
        "MAX_PLAYERS",
        "MIN_PLAYERS",
        "SET_NAMES",
        "VARMA_TABLES",
        "VarmaError",
        "draw_order",
        "varma_draw",
        "varma_sets",
    }


def test_the_seed_prints_every_size_from_10_to_24() -> None:
    assert sorted(seed_tables()) == list(range(10, 25, 2))


@pytest.mark.parametrize("size", range(10, 25, 2))
def test_sets_match_the_seed_text(size: int) -> None:
    printed = seed_tables()[size]
    ours = varma_sets(size)
    assert dict(VARMA_TABLES[size]) == ours
    for letter, numbers in printed.items():
        assert ours[letter] == numbers
    # The stored text lost set D for 21/22 and 23/24: it is what A, B, C leave.
    missing = set(SET_NAMES) - set(printed)
    assert missing <= {"D"}
    if missing:
        rest = set(range(1, size + 1)).difference(*printed.values())
        assert ours["D"] == tuple(sorted(rest))


@pytest.mark.parametrize("n", range(9, 25))
def test_sets_partition_the_start_numbers(n: int) -> None:
    sets = varma_sets(n)
    numbers = [x for name in SET_NAMES for x in sets[name]]
    assert sorted(numbers) == list(range(1, n + 1))


def test_odd_fields_drop_the_dummy() -> None:
    assert varma_sets(9)["D"] == (2,)
    assert varma_sets(11)["C"] == (6, 8)
    assert varma_sets(23)["D"] == (5,)


@pytest.mark.parametrize("n", [8, 25, 0, -3, True, 10.0, "12"])
def test_no_table_outside_9_to_24(n: object) -> None:
    with pytest.raises(VarmaError):
        varma_sets(n)  # type: ignore[arg-type]
    assert issubclass(VarmaError, PairingError)
    assert issubclass(VarmaError, ValueError)


def test_too_few_players_to_draw() -> None:
    with pytest.raises(VarmaError, match="9 to 24"):
        varma_draw([(f"p{i}", "POL") for i in range(8)], seed=1)


def _last_rounds_meetings(size: int) -> set[tuple[str, int, int, int]]:
    """Same-set pairs that meet in the last three rounds of the Berger table."""
    rounds = berger_table(size)
    found = set()
    for index, boards in enumerate(rounds, start=1):
        if index <= len(rounds) - 3:
            continue
        for white, black in boards:
            for name, numbers in varma_sets(size).items():
                if white in numbers and black in numbers:
                    found.add((name, min(white, black), max(white, black), index))
    return found


@pytest.mark.parametrize("size", range(10, 25, 2))
def test_one_set_does_not_meet_in_the_last_three_rounds(size: int) -> None:
    """What the sets are for (FIDE's older wording of the same annex): compatriots meet
    early. It holds for every size except 11/12, where 6 and 12 (set C) meet in the
    last round of the Berger table printed in Annex 1."""
    expected = {("C", 6, 12, 11)} if size == 12 else set()
    assert _last_rounds_meetings(size) == expected


# ------------------------------------------------------------------ drawing order


def test_draw_order_by_size_then_code_then_name() -> None:
    players = [
        ("Zoltan", "hun"),
        ("Anna", "POL"),
        ("bolek", "POL"),
        ("Adam", "HUN"),
        ("Carl", "GER"),
        ("Cezary", "POL"),
        ("Dora", "ARM"),
        ("Ewa", "ARM"),
    ]
    assert draw_order(players) == [
        ("POL", ("Anna", "bolek", "Cezary")),
        ("ARM", ("Dora", "Ewa")),
        ("HUN", ("Adam", "Zoltan")),
        ("GER", ("Carl",)),
    ]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([("a", "POL"), ("a", "GER")], "duplicate"),
        ([("", "POL")], "non-empty"),
        ([("a", " ")], "no federation"),
        ([("a", "POL", "x")], "pair"),
    ],
)
def test_draw_order_rejects_bad_entries(players: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(VarmaError, match=message):
        draw_order(players)


# ------------------------------------------------------------------ the draw


def _field(sizes: list[int]) -> list[tuple[str, str]]:
    players: list[tuple[str, str]] = []
    for index, size in enumerate(sizes):
        code = f"F{index:02d}"
        players.extend((f"{code}-{k}", code) for k in range(size))
    return players


def _set_of(n: int) -> dict[int, str]:
    return {x: name for name, numbers in varma_sets(n).items() for x in numbers}


def test_draw_is_a_bijection_and_deterministic() -> None:
    players = _field([4, 3, 2, 2, 1, 1, 1])
    first = varma_draw(players, seed=2024)
    assert sorted(first) == sorted(p for p, _ in players)
    assert sorted(first.values()) == list(range(1, 15))
    assert varma_draw(players, seed=2024) == first
    assert varma_draw(list(reversed(players)), seed=2024) == first
    outcomes = {tuple(sorted(varma_draw(players, seed=s).items())) for s in range(20)}
    assert len(outcomes) > 1


def test_the_largest_contingent_gets_an_envelope_large_enough() -> None:
    # Four POL players among 12: only A (4 numbers) holds them all.
    players = _field([4, 1, 1, 1, 1, 1, 1, 1, 1])
    sets = _set_of(12)
    for seed in range(30):
        drawn = varma_draw(players, seed=seed)
        assert {sets[drawn[f"F00-{k}"]] for k in range(4)} == {"A"}


def test_a_contingent_larger_than_any_set_is_split_over_the_fullest() -> None:
    players = _field([6, 1, 1, 1, 1])  # 10 players: sets of 3, 3, 2, 2
    sets = _set_of(10)
    for seed in range(30):
        drawn = varma_draw(players, seed=seed)
        used = Counter(sets[drawn[f"F00-{k}"]] for k in range(6))
        assert sorted(used.values()) == [3, 3]


@st.composite
def fields(draw: st.DrawFn) -> list[int]:
    n = draw(st.integers(9, 24))
    sizes: list[int] = []
    while sum(sizes) < n:
        sizes.append(draw(st.integers(1, min(6, n - sum(sizes)))))
    return sizes


def _fits(sizes: list[int], n: int) -> bool:
    """At most four contingents of 2+ players, each fitting the same-rank set."""
    groups = sorted((s for s in sizes if s >= 2), reverse=True)
    capacity = sorted((len(v) for v in varma_sets(n).values()), reverse=True)
    return len(groups) <= 4 and all(g <= c for g, c in zip(groups, capacity, strict=False))


@settings(max_examples=300, deadline=None)
@given(fields(), st.integers(0, 2**32))
def test_federations_stay_within_one_set_when_the_sets_allow(sizes, seed) -> None:
    players = _field(sizes)
    n = len(players)
    drawn = varma_draw(players, seed=seed)
    assert sorted(drawn.values()) == list(range(1, n + 1))
    sets = _set_of(n)
    per_federation: dict[str, set[str]] = {}
    for player_id, federation in players:
        per_federation.setdefault(federation, set()).add(sets[drawn[player_id]])
    if _fits(sizes, n):
        assert all(len(used) == 1 for used in per_federation.values())
        # ... and no two multi-player contingents share a set.
        multi = [next(iter(u)) for f, u in per_federation.items() if sizes[int(f[1:])] >= 2]
        assert len(multi) == len(set(multi))
    # The first contingent always fits if any set is large enough for it.
    first_code, first_ids = draw_order(players)[0]
    largest = max(len(v) for v in varma_sets(n).values())
    if len(first_ids) <= largest:
        assert len(per_federation[first_code]) == 1
