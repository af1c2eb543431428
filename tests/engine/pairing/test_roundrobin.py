"""Berger round-robin: the printed tables of FIDE C.05 Annex 1 (tests/data/seeds), and
properties."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.engine.model import ByeKind, Round
from service.engine.pairing.round_pairing import PairingError
from service.engine.pairing.roundrobin import berger_table, round_robin_rounds
from tests.data import seed_002

# FIDE C.05 Annex 1: size -> rounds -> boards (white, black).
SEED_TABLES: dict[int, list[list[tuple[int, int]]]] = {
    int(size): [[(white, black) for white, black in boards] for boards in rounds]
    for size, rounds in seed_002()["berger_tables"].items()
}


def test_seed_has_every_table() -> None:
    assert sorted(SEED_TABLES) == [4, 6, 8, 10, 12, 14, 16]
    for size, table in SEED_TABLES.items():
        assert len(table) == size - 1
        assert all(len(boards) == size // 2 for boards in table)


@pytest.mark.parametrize("size", sorted(SEED_TABLES))
def test_berger_table_matches_seed(size: int) -> None:
    assert berger_table(size) == SEED_TABLES[size]


@pytest.mark.parametrize("size", sorted(SEED_TABLES))
def test_odd_count_uses_next_even_table(size: int) -> None:
    assert berger_table(size - 1) == SEED_TABLES[size]


@pytest.mark.parametrize("size", sorted(SEED_TABLES))
def test_single_rounds_follow_seed_table(size: int) -> None:
    rounds = round_robin_rounds(size)
    assert [r.number for r in rounds] == list(range(1, size))
    for rnd, boards in zip(rounds, SEED_TABLES[size], strict=True):
        assert [(g.white, g.black) for g in rnd.games] == boards
        assert [g.table for g in rnd.games] == list(range(1, size // 2 + 1))
        assert all(g.round == rnd.number and g.result is None for g in rnd.games)
        assert rnd.byes == ()


@pytest.mark.parametrize("size", sorted(SEED_TABLES))
def test_odd_count_player_meeting_dummy_is_free(size: int) -> None:
    count = size - 1
    rounds = round_robin_rounds(count)
    for rnd, boards in zip(rounds, SEED_TABLES[size], strict=True):
        (bye,) = rnd.byes
        expected_free = next(a if b == size else b for a, b in boards if size in (a, b))
        assert bye.player == expected_free
        assert bye.kind is ByeKind.ZERO_POINT
        assert bye.round == rnd.number
        real = [pair for pair in boards if size not in pair]
        assert [(g.white, g.black) for g in rnd.games] == real
        assert [g.table for g in rnd.games] == list(range(1, len(real) + 1))


@pytest.mark.parametrize("size", sorted(SEED_TABLES))
def test_double_round_robin_order(size: int) -> None:
    """Annex 1: the last two rounds of the first cycle swap; cycle 2 reverses colours."""
    table = SEED_TABLES[size]
    m = len(table)
    rounds = round_robin_rounds(size, double=True)
    assert len(rounds) == 2 * m
    first_order = [*range(m - 2), m - 1, m - 2]
    for played, index in zip(rounds[:m], first_order, strict=True):
        assert [(g.white, g.black) for g in played.games] == table[index]
    for played, boards in zip(rounds[m:], table, strict=True):
        assert [(g.black, g.white) for g in played.games] == boards
    assert [r.number for r in rounds] == list(range(1, 2 * m + 1))


def test_two_players() -> None:
    assert berger_table(2) == [[(1, 2)]]
    single = round_robin_rounds(2)
    assert [(g.white, g.black) for r in single for g in r.games] == [(1, 2)]
    double = round_robin_rounds(2, double=True)
    assert [(g.white, g.black) for r in double for g in r.games] == [(1, 2), (2, 1)]


@pytest.mark.parametrize("bad", [-1, 0, 1])
def test_too_few_players(bad: int) -> None:
    with pytest.raises(PairingError, match="at least 2"):
        round_robin_rounds(bad)
    with pytest.raises(ValueError):
        berger_table(bad)


def _colour_runs(rounds: tuple[Round, ...], count: int) -> dict[int, str]:
    sequences = {p: "" for p in range(1, count + 1)}
    for rnd in rounds:
        for game in rnd.games:
            sequences[game.white] += "W"
            sequences[game.black] += "B"
    return sequences


@given(st.integers(min_value=2, max_value=40), st.booleans())
def test_everyone_meets_everyone(count: int, double: bool) -> None:
    rounds = round_robin_rounds(count, double=double)
    cycles = 2 if double else 1
    assert len(rounds) == cycles * (count - 1 + count % 2)
    meetings = Counter(frozenset((g.white, g.black)) for r in rounds for g in r.games)
    assert len(meetings) == count * (count - 1) // 2
    assert set(meetings.values()) == {cycles}
    if double:
        colours = Counter((g.white, g.black) for r in rounds for g in r.games)
        assert set(colours.values()) == {1}
    for rnd in rounds:
        present = [p for g in rnd.games for p in (g.white, g.black)]
        present += [b.player for b in rnd.byes]
        assert sorted(present) == list(range(1, count + 1))
        assert len(rnd.byes) == count % 2


@given(st.integers(min_value=2, max_value=40), st.booleans())
def test_colours_balanced_and_never_three_in_a_row(count: int, double: bool) -> None:
    """Berger colours differ by at most one per cycle; the double-RR swap avoids WWW/BBB."""
    rounds = round_robin_rounds(count, double=double)
    for sequence in _colour_runs(rounds, count).values():
        if not double:
            assert abs(sequence.count("W") - sequence.count("B")) <= 1
        else:
            assert sequence.count("W") == sequence.count("B")
        if double:
            assert "WWW" not in sequence and "BBB" not in sequence
