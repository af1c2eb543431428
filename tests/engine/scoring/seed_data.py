"""Test data parsed from the seed texts (shared/seeds) at test time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from service.engine.model import Game, GameResult, Player, PointSystem, Round, Tournament
from tests.conftest import SHARED_DIR

SHARED = SHARED_DIR
SEED_002 = next((SHARED / "seeds").glob("002_*.txt"))

_RESULT = {"1": Fraction(1), "½": Fraction(1, 2), "0": Fraction(0)}


@dataclass(frozen=True)
class Crosstable:
    """The seed 002 example round-robin: names, results[i][j], the text's Berger column."""

    names: list[str]
    results: dict[tuple[int, int], Fraction]
    berger: dict[int, Fraction]
    points: dict[int, Fraction]


def seed_002_crosstable() -> Crosstable:
    """Parse the 7-player crosstable (rows omit the diagonal; last column is KB)."""
    text = SEED_002.read_text(encoding="utf-8")
    block = text.split("Участники 1 2 3 4 5 6 7", 1)[1].split("Обозначения", 1)[0]
    rows = [line.split() for line in block.strip().splitlines() if re.match(r"^\d+ ", line)]
    n = len(rows)
    names: list[str] = []
    results: dict[tuple[int, int], Fraction] = {}
    berger: dict[int, Fraction] = {}
    points: dict[int, Fraction] = {}
    for row in rows:
        me = int(row[0])
        names.append(row[1])
        cells = row[2 : 2 + n - 1]
        opponents = [j for j in range(1, n + 1) if j != me]
        for them, cell in zip(opponents, cells, strict=True):
            results[(me, them)] = _RESULT[cell]
        points[me] = sum((results[(me, j)] for j in opponents), Fraction(0))
        berger[me] = Fraction(row[-1].replace(",", "."))
    return Crosstable(names, results, berger, points)


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
    """Seed 002's World Cup 2018 group H: the Kirchhoff matrix and the printed output."""

    teams: list[str]
    matrix: list[list[int]]
    potentials: list[int]
    flows: list[int]


def seed_002_football() -> FootballGroup:
    """Parse K = np.matrix([...]), the minor variable names and the `>>>` output line."""
    text = SEED_002.read_text(encoding="utf-8")
    body = text.split("K = np . matrix (", 1)[1].split(")", 1)[0]
    numbers = [int(n.replace(" ", "")) for n in re.findall(r"-?\s*\d+", body)]
    size = int(len(numbers) ** 0.5)
    matrix = [numbers[i * size : (i + 1) * size] for i in range(size)]
    teams = re.findall(r"^(\w+) = minor \(K , (\d) , \d \)", text, flags=re.M)
    names = [name for name, _ in sorted(teams, key=lambda t: int(t[1]))]
    output = text.split(">>>", 1)[1].splitlines()[0].split()
    printed = [round(float(v)) for v in output]
    return FootballGroup(names, matrix, printed[:size], printed[size:])


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
    text = SEED_002.read_text(encoding="utf-8")
    out: dict[int, list[Fraction]] = {}
    for number, name in ((3, "Сидорова"), (4, "Кузнецова")):
        line = next(
            ln for ln in text.splitlines() if ln.startswith(f"Коэффициент Бергера участника {name}")
        )
        items = re.findall(r"(\d+(?:,\d+)?) \(", line)
        out[number] = [Fraction(item.replace(",", ".")) for item in items]
    return out
