"""The worked figures of the tie-break notes that come with the Berger tables
(tests/data/seeds/002-round-robin.json; docs/rules/tiebreaks.md) as engine objects."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from service.engine.model import Game, GameResult, Player, PointSystem, Round, Tournament
from tests.data import seed_002


@dataclass(frozen=True)
class Crosstable:
    """The notes' example round-robin: names, results[i][j], the text's Berger column."""

    names: list[str]
    results: dict[tuple[int, int], Fraction]
    berger: dict[int, Fraction]
    points: dict[int, Fraction]


def seed_002_crosstable() -> Crosstable:
    """The 7-player crosstable: each row lists the scores against the others in
    start-number order (the diagonal omitted), then the printed Berger coefficient."""
    data = seed_002()["crosstable"]
    n = len(data["names"])
    results: dict[tuple[int, int], Fraction] = {}
    berger: dict[int, Fraction] = {}
    points: dict[int, Fraction] = {}
    for me, (cells, coefficient) in enumerate(zip(data["results"], data["berger"], strict=True), 1):
        opponents = [j for j in range(1, n + 1) if j != me]
        for them, cell in zip(opponents, cells, strict=True):
            results[(me, them)] = Fraction(cell)
        points[me] = sum((results[(me, j)] for j in opponents), Fraction(0))
        berger[me] = Fraction(coefficient)
    return Crosstable(list(data["names"]), results, berger, points)


def round_robin_tournament(
    results: dict[tuple[int, int], Fraction], n: int, points: PointSystem | None = None
) -> Tournament:
    """A round-robin whose games reproduce `results` (score of i against j, 1/½/0);
    rounds follow the circle method so nobody plays twice in a round."""
    games: dict[int, list[Game]] = {}
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            share = results[(i, j)]
            if share + results[(j, i)] != 1:
                raise ValueError(f"inconsistent crosstable at {i}-{j}")
            result = (
                GameResult.WHITE_WINS
                if share == 1
                else GameResult.DRAW
                if share == Fraction(1, 2)
                else GameResult.BLACK_WINS
            )
            rnd = _circle_round(i, j, n)
            games.setdefault(rnd, []).append(Game(rnd, i, j, result))
    rounds = tuple(Round(r, tuple(games[r])) for r in sorted(games))
    players = tuple(Player(k, f"P{k}") for k in range(1, n + 1))
    return Tournament(players, rounds, points=points or PointSystem())


def _circle_round(i: int, j: int, n: int) -> int:
    """Round of pair (i, j) in a circle-method schedule (odd n gets a dummy)."""
    m = n if n % 2 == 0 else n + 1
    if j == m:
        return (2 * (i - 1)) % (m - 1) + 1
    return (i + j - 2) % (m - 1) + 1


@dataclass(frozen=True)
class FootballGroup:
    """The notes' World Cup 2018 group H: the Kirchhoff matrix and the printed output."""

    teams: list[str]
    matrix: list[list[int]]
    potentials: list[int]
    flows: list[int]


def seed_002_football() -> FootballGroup:
    """K = np.matrix([...]), the teams in minor order and the printed `>>>` output."""
    data = seed_002()["football_group"]
    return FootballGroup(
        list(data["teams"]), [list(row) for row in data["kirchhoff"]],
        list(data["potentials"]), list(data["flows"]),
    )  # fmt: skip


def football_tournament(group: FootballGroup) -> Tournament:
    """The group's games rebuilt from K (points i earned against j = -K[i][j], 3/1/0)."""
    size = len(group.matrix)
    results: dict[tuple[int, int], Fraction] = {}
    for i in range(size):
        for j in range(size):
            if i != j:
                earned = -group.matrix[i][j]
                results[(i + 1, j + 1)] = {3: Fraction(1), 1: Fraction(1, 2), 0: Fraction(0)}[
                    earned
                ]
    return round_robin_tournament(results, size, PointSystem.football())


def seed_002_berger_breakdown() -> dict[int, list[Fraction]]:
    """The text's per-opponent Berger items for Sidorov (3) and Kuznetsov (4), in
    start-number order of the opponents: "2,5 (половина очков Иванова) + ..."."""
    return {
        int(number): [Fraction(item) for item in items]
        for number, items in seed_002()["berger_breakdown"].items()
    }
