"""Laplacian (Kirchhoff-matrix) potentials and flows: the tie-break notes' ranking method.

The Russian tie-break notes that accompany the Berger tables (docs/rules/tiebreaks.md).

The crosstable becomes a matrix K with K[i][j] = -(points participant i earned
against j) for i != j, and a diagonal that makes every column sum to zero (K[j][j] =
the points everybody earned against j). A participant's *potential* is the principal
minor of K without its row and column; the *flow* is the potential times K[i][i].
The notes work the 2018 World Cup group H (3/1/0): K = [[3,0,-3,-3],[-3,4,-1,0],
[0,-1,4,-3],[0,-3,0,6]], potentials 81, 72, 45, 36, flows 243, 288, 180, 216.

Exact arithmetic throughout (no float determinants). Because every column of K sums
to zero, every cofactor in one column is the same number and the vector of
potentials spans the null space of K (Kirchhoff's matrix-tree theorem): one integer
determinant (Bareiss elimination) and one exact null-space solve give all
potentials in O(n^3) instead of n determinants. A crosstable that falls apart into
separate groups has all potentials 0.

Readings: points from games and forfeits both count (they are in the crosstable);
byes are not against anybody and do not. Several games between the same pair add up.
"""

from __future__ import annotations

from fractions import Fraction

from service.engine.scoring.tiebreaks.base import Contribution, TieBreak, TieBreakExplanation
from service.engine.scoring.tiebreaks.context import Kind, TieBreakContext

__all__ = ["LaplacianFlow", "LaplacianPotential", "kirchhoff_matrix", "potentials"]

_COUNTED = (Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS)


def kirchhoff_matrix(ctx: TieBreakContext) -> tuple[list[int], list[list[int]]]:
    """(participants in order, K in context units)."""
    order = list(ctx.players)
    position = {number: i for i, number in enumerate(order)}
    size = len(order)
    matrix = [[0] * size for _ in range(size)]
    for i, number in enumerate(order):
        pd = ctx.players[number]
        for kind, opponent, points in zip(pd.kinds, pd.opponents, pd.points, strict=True):
            if kind in _COUNTED and opponent in position:
                j = position[opponent]
                matrix[i][j] -= points
                matrix[j][j] += points
    return order, matrix


def _bareiss_determinant(matrix: list[list[int]]) -> int:
    """Determinant of an integer matrix by fraction-free (Bareiss) elimination."""
    size = len(matrix)
    if size == 0:
        return 1
    a = [row[:] for row in matrix]
    sign = 1
    previous = 1
    for k in range(size - 1):
        if a[k][k] == 0:
            swap = next((r for r in range(k + 1, size) if a[r][k] != 0), None)
            if swap is None:
                return 0
            a[k], a[swap] = a[swap], a[k]
            sign = -sign
        pivot = a[k][k]
        for i in range(k + 1, size):
            for j in range(k + 1, size):
                a[i][j] = (a[i][j] * pivot - a[i][k] * a[k][j]) // previous
        previous = pivot
    return sign * a[size - 1][size - 1]


def _null_vector(matrix: list[list[int]]) -> list[Fraction] | None:
    """A vector spanning K's null space when it is one-dimensional, else None."""
    size = len(matrix)
    rows = [[Fraction(v) for v in row] for row in matrix]
    pivots: list[int] = []
    r = 0
    for c in range(size):
        pivot = next((i for i in range(r, size) if rows[i][c] != 0), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        lead = rows[r][c]
        rows[r] = [v / lead for v in rows[r]]
        for i in range(size):
            if i != r and rows[i][c] != 0:
                factor = rows[i][c]
                rows[i] = [a - factor * b for a, b in zip(rows[i], rows[r], strict=True)]
        pivots.append(c)
        r += 1
    free = [c for c in range(size) if c not in pivots]
    if len(free) != 1:
        return None
    vector = [Fraction(0)] * size
    vector[free[0]] = Fraction(1)
    for row_index, c in enumerate(pivots):
        vector[c] = -rows[row_index][free[0]]
    return vector


def potentials(ctx: TieBreakContext) -> dict[int, Fraction]:
    """Every participant's potential, in points^(n-1) (cached per context)."""
    return ctx.cached("lap-pot", lambda: _potentials(ctx))


def _potentials(ctx: TieBreakContext) -> dict[int, Fraction]:
    order, matrix = kirchhoff_matrix(ctx)
    size = len(order)
    if size == 1:
        return {order[0]: Fraction(1)}
    vector = _null_vector(matrix) if size else None
    if vector is None:
        return dict.fromkeys(order, Fraction(0))
    k = max(range(size), key=lambda i: abs(vector[i]))
    minor = [[matrix[i][j] for j in range(size) if j != k] for i in range(size) if i != k]
    cofactor = Fraction(_bareiss_determinant(minor), ctx.unit ** (size - 1))
    scale = cofactor / vector[k]
    return {number: vector[i] * scale for i, number in enumerate(order)}


class LaplacianPotential(TieBreak):
    """LAP-POT: principal minor of the Kirchhoff matrix."""

    code = "LAP-POT"

    def values(self, ctx: TieBreakContext) -> dict[int, Fraction]:
        return potentials(ctx)

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        return _explain(ctx, number, self.code, potentials(ctx)[number], "det(K minus row/col i)")


class LaplacianFlow(TieBreak):
    """LAP-FLOW: potential x K[i][i] (points conceded to others)."""

    code = "LAP-FLOW"

    def values(self, ctx: TieBreakContext) -> dict[int, Fraction]:
        pot = potentials(ctx)
        conceded = _conceded(ctx)
        return {n: pot[n] * conceded[n] for n in ctx.players}

    def explain(self, ctx: TieBreakContext, number: int) -> TieBreakExplanation:
        value = self.values(ctx)[number]
        return _explain(ctx, number, self.code, value, "potential x K[i][i]")


def _conceded(ctx: TieBreakContext) -> dict[int, Fraction]:
    order, matrix = kirchhoff_matrix(ctx)
    return {n: ctx.fraction(matrix[i][i]) for i, n in enumerate(order)}


def _explain(
    ctx: TieBreakContext, number: int, code: str, value: Fraction, note: str
) -> TieBreakExplanation:
    items = tuple(
        Contribution(e.round, e.opponent, ctx.fraction(e.points), f"K[{number}][{e.opponent}]")
        for e in ctx.players[number].entries
        if e.kind in _COUNTED
    )
    return TieBreakExplanation(code, value, items, note)
