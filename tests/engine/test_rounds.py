"""Where a tournament stands between rounds (engine/rounds.py)."""

from __future__ import annotations

import pytest

from service.engine.rounds import RoundProgress, round_progress, rounds_left


@pytest.mark.parametrize(
    ("first_open", "last_paired", "total", "expected"),
    [
        (None, 0, 5, RoundProgress(0, finished=False)),  # nothing paired yet
        (3, 3, 5, RoundProgress(3, finished=False)),  # round 3 being played
        (None, 3, 5, RoundProgress(3, finished=False)),  # round 3 complete
        (None, 5, 5, RoundProgress(5, finished=True)),  # the last round complete
        (5, 5, 5, RoundProgress(5, finished=False)),
        (None, 4, None, RoundProgress(4, finished=False)),  # no declared number
    ],
)
def test_round_progress(
    first_open: int | None, last_paired: int, total: int | None, expected: RoundProgress
) -> None:
    assert round_progress(first_open, last_paired, total) == expected


def test_a_round_without_games_is_complete_once_paired() -> None:
    """Every player had a bye in the last round: no game is open, so the tournament is
    finished the moment that round is paired; a middle one lets the next be paired."""
    assert round_progress(None, 7, 7) == RoundProgress(7, finished=True)
    assert round_progress(None, 4, 7) == RoundProgress(4, finished=False)


@pytest.mark.parametrize(
    ("last_paired", "total", "left"), [(0, 5, 5), (4, 5, 1), (5, 5, 0), (6, 5, 0), (3, None, None)]
)
def test_rounds_left(last_paired: int, total: int | None, left: int | None) -> None:
    assert rounds_left(last_paired, total) == left
