"""SB, SB-D, SB-S, KS: the tie-break notes' worked numbers (docs/rules/tiebreaks.md) and
the Koya limit."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.engine.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from service.engine.scoring.standings import compute_standings
from tests.engine.scoring.seed_data import (
    football_tournament,
    round_robin_tournament,
    seed_002_crosstable,
    seed_002_football,
)

JAPAN, SENEGAL = 2, 3


def _football_values(code: str) -> dict[int, Fraction | None]:
    standings = compute_standings(football_tournament(seed_002_football()), (code,))
    (key,) = standings.tiebreaks  # the normalised code ("BERGER" -> "SB")
    return {row.start_number: row.tiebreaks[key] for row in standings.rows}


@pytest.mark.parametrize(
    ("code", "japan", "senegal"),
    [
        ("SB", 8, 5),  # Berger: 6 (all of Colombia) + 2 (half of Senegal) vs 3 + 2
        ("BERGER", 8, 5),
        ("SB-D", 16, 10),  # doubled: 12 + 4 vs 6 + 4
        ("KS", 4, 1),  # Koya: 3 + 1 vs 1 + 0; Poland (3 points) under 50 %
    ],
)
def test_football_group_h(code: str, japan: int, senegal: int) -> None:
    values = _football_values(code)
    assert values[JAPAN] == japan
    assert values[SENEGAL] == senegal


def test_football_points_and_koya_order() -> None:
    tournament = football_tournament(seed_002_football())
    rows = compute_standings(tournament, ("KS",)).rows
    points = {row.start_number: row.points for row in rows}
    assert points == {1: 6, 2: 4, 3: 4, 4: 3}
    order = [row.start_number for row in rows]
    assert order.index(JAPAN) < order.index(SENEGAL)


def test_simplified_berger_on_seed_002() -> None:
    table = seed_002_crosstable()
    tournament = round_robin_tournament(table.results, len(table.names))
    rows = compute_standings(tournament, ("SB-S",)).rows
    for row in rows:
        me = row.start_number
        expected = sum(
            (
                table.points[them] * (1 if r == 1 else -1 if r == 0 else 0)
                for (i, them), r in table.results.items()
                if i == me
            ),
            Fraction(0),
        )
        assert row.tiebreaks["SB-S"] == expected
    # Sidorov: +1 (Vasiliev) +0 (Nikolaev), all else drawn.
    assert {r.start_number: r.tiebreaks["SB-S"] for r in rows}[3] == 1


def _g(rnd: int, white: int, black: int, result: str) -> Game:
    return Game(rnd, white, black, GameResult.parse(result))


def _small_round_robin() -> Tournament:
    # 4 players, 3 rounds: 1 beats everyone, 2 beats 3 and 4, 3 draws 4.
    rounds = (
        Round(1, (_g(1, 1, 4, "1-0"), _g(1, 2, 3, "1-0"))),
        Round(2, (_g(2, 3, 1, "0-1"), _g(2, 4, 2, "0-1"))),
        Round(3, (_g(3, 1, 2, "1-0"), _g(3, 3, 4, "1/2-1/2"))),
    )
    return Tournament(tuple(Player(k) for k in range(1, 5)), rounds)


def test_koya_limit_modifiers() -> None:
    tournament = _small_round_robin()
    # Scores: 1: 3, 2: 2, 3: 0.5, 4: 0.5; max 3, 50 % = 1.5.

    def ks(code: str) -> dict[int, Fraction | None]:
        standings = compute_standings(tournament, (code,))
        (key,) = standings.tiebreaks
        return {r.start_number: r.tiebreaks[key] for r in standings.rows}

    assert ks("KS") == {1: 1, 2: 0, 3: 0, 4: 0}
    # Threshold raised by one half-point (to 2): player 2 still qualifies.
    assert ks("KS/L+1") == {1: 1, 2: 0, 3: 0, 4: 0}
    # Raised by a full point (to 2.5): nobody but 1 qualifies.
    assert ks("KS/L+2") == {1: 0, 2: 0, 3: 0, 4: 0}
    assert ks("KS/L+1.0") == ks("KS/L+2")
    # Lowered by 3 half-points (to 0): everybody qualifies, KS = own points.
    assert ks("KS/L-3") == {1: 3, 2: 2, 3: Fraction(1, 2), 4: Fraction(1, 2)}
    # 10 %: 0.3 needed, everybody qualifies.
    assert ks("KS/L10") == ks("KS/L-3")


def test_sb_cut_removes_the_lowest_opponent() -> None:
    tournament = _small_round_robin()
    rows = {r.start_number: r for r in compute_standings(tournament, ("SB", "SB-C1")).rows}
    # Player 1 beat 4 (0.5), 3 (0.5), 2 (2): SB 3; SB-C1 drops an opponent on 0.5.
    assert rows[1].tiebreaks["SB"] == 3
    assert rows[1].tiebreaks["SB-C1"] == Fraction(5, 2)


def test_sb_with_byes_uses_the_dummy_opponent() -> None:
    # Swiss-like: 1 has a pairing-allocated bye in round 2.
    players = tuple(Player(k) for k in range(1, 4))
    rounds = (
        Round(1, (_g(1, 1, 2, "1-0"),), (Bye(1, 3, ByeKind.PAIRING_ALLOCATED),)),
        Round(2, (_g(2, 3, 2, "1/2-1/2"),), (Bye(2, 1, ByeKind.PAIRING_ALLOCATED),)),
    )
    tournament = Tournament(players, rounds, total_rounds=2)
    rows = {r.start_number: r for r in compute_standings(tournament, ("SB",)).rows}
    # 1: win vs 2 (0.5) + PAB: dummy = own score 2, capped (2026) at 1 x draw x 2 = 1.
    assert rows[1].tiebreaks["SB"] == Fraction(3, 2)
    rows24 = {
        r.start_number: r for r in compute_standings(tournament, ("SB",), edition="2024").rows
    }
    assert rows24[1].tiebreaks["SB"] == Fraction(5, 2)
