"""LAP-POT and LAP-FLOW: the tie-break notes' group H, and potentials against brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.scoring.standings import compute_standings
from service.engine.scoring.tiebreaks.context import build_context
from service.engine.scoring.tiebreaks.laplacian import (
    _bareiss_determinant,
    kirchhoff_matrix,
    potentials,
)
from tests.engine.scoring.seed_data import (
    football_tournament,
    round_robin_tournament,
    seed_002_football,
)


def _leibniz(matrix: list[list[int]]) -> Fraction:
    size = len(matrix)
    total = Fraction(0)
    for perm in permutations(range(size)):
        sign = 1
        for i in range(size):
            for j in range(i + 1, size):
                if perm[i] > perm[j]:
                    sign = -sign
        product = Fraction(sign)
        for i in range(size):
            product *= matrix[i][perm[i]]
        total += product
    return total


def test_group_h_matrix_is_rebuilt_from_the_games() -> None:
    group = seed_002_football()
    assert group.teams == ["col", "jpn", "sen", "pol"]
    ctx = build_context(football_tournament(group))
    _, matrix = kirchhoff_matrix(ctx)
    assert [[v // ctx.unit for v in row] for row in matrix] == group.matrix


def test_group_h_potentials_and_flows() -> None:
    group = seed_002_football()
    assert group.potentials == [81, 72, 45, 36]  # the text's numbers
    assert group.flows == [243, 288, 180, 216]
    standings = compute_standings(football_tournament(group), ("LAP-POT", "LAP-FLOW"))
    rows = {row.start_number: row for row in standings.rows}
    assert [rows[i + 1].tiebreaks["LAP-POT"] for i in range(4)] == group.potentials
    assert [rows[i + 1].tiebreaks["LAP-FLOW"] for i in range(4)] == group.flows
    # Japan above Senegal on 4 points each.
    assert rows[2].rank < rows[3].rank


def test_explain_lists_the_matrix_row() -> None:
    group = seed_002_football()
    standings = compute_standings(football_tournament(group), ("LAP-FLOW",), explain=2)
    assert standings.explanation is not None
    lap = standings.explanation.tiebreaks[0]
    assert lap.value == 288
    assert sorted(c.value for c in lap.contributions) == [0, 1, 3]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(-6, 6), min_size=4, max_size=4), min_size=4, max_size=4))
def test_bareiss_matches_leibniz(matrix: list[list[int]]) -> None:
    assert _bareiss_determinant(matrix) == _leibniz(matrix)


@st.composite
def _round_robin(draw: st.DrawFn) -> tuple[int, dict[tuple[int, int], Fraction]]:
    size = draw(st.integers(2, 6))
    results: dict[tuple[int, int], Fraction] = {}
    for i in range(1, size + 1):
        for j in range(i + 1, size + 1):
            share = draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)]))
            results[(i, j)] = share
            results[(j, i)] = 1 - share
    return size, results


@settings(max_examples=60, deadline=None)
@given(_round_robin())
def test_potentials_equal_principal_minors(
    case: tuple[int, dict[tuple[int, int], Fraction]],
) -> None:
    size, results = case
    ctx = build_context(round_robin_tournament(results, size))
    order, matrix = kirchhoff_matrix(ctx)
    got = potentials(ctx)
    for k, number in enumerate(order):
        minor = [[matrix[i][j] for j in range(size) if j != k] for i in range(size) if i != k]
        expected = _leibniz(minor) / ctx.unit ** (size - 1)
        assert got[number] == expected
