"""The points-only table used beside FLAMPARK's PF equals the engine's standings with
no tie-breaks."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    PointSystem,
    Round,
    Tournament,
)
from service.engine.scoring.points import points_only
from service.engine.scoring.standings import compute_standings

RESULTS = [None, *GameResult]


def random_tournament(seed: int, players: int, rounds: int, football: bool) -> Tournament:
    rng = random.Random(seed)
    numbers = list(range(1, players + 1))
    played = []
    for number in range(1, rounds + 1):
        rng.shuffle(numbers)
        games = tuple(
            Game(number, numbers[i], numbers[i + 1], rng.choice(RESULTS), i // 2 + 1)
            for i in range(0, len(numbers) - 1, 2)
        )
        byes = tuple(
            Bye(number, numbers[-1], rng.choice(list(ByeKind))) for _ in range(len(numbers) % 2)
        )
        played.append(Round(number, games, byes))
    return Tournament(
        players=tuple(Player(n, f"P{n}", 2000 - n) for n in range(1, players + 1)),
        rounds=tuple(played),
        points=PointSystem.football() if football else PointSystem(),
    )


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 30),
    rounds=st.integers(0, 7),
    football=st.booleans(),
)
def test_points_only_matches_compute_standings(
    seed: int, players: int, rounds: int, football: bool
) -> None:
    tournament = random_tournament(seed, players, rounds, football)
    fast = points_only(tournament)
    full = compute_standings(tournament, [])
    assert [(r.rank, r.start_number, r.points) for r in fast.rows] == [
        (r.rank, r.start_number, r.points) for r in full.rows
    ]
