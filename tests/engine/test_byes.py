"""Requested byes: which the rules grant (engine/byes.py)."""

from __future__ import annotations

import pytest

from service.engine.byes import ByeRequestError, check_requested_byes
from service.engine.errors import EngineError
from service.engine.model import ByeKind

PLAYERS = range(1, 7)


def test_byes_of_players_taking_part_are_granted() -> None:
    check_requested_byes(
        [(1, ByeKind.HALF_POINT), (2, ByeKind.FULL_POINT), (3, ByeKind.ZERO_POINT)],
        players=PLAYERS,
        withdrawn={4},
    )


@pytest.mark.parametrize("kind", [ByeKind.HALF_POINT, ByeKind.FULL_POINT])
def test_a_withdrawn_player_is_granted_no_scoring_bye(kind: ByeKind) -> None:
    with pytest.raises(ByeRequestError) as info:
        check_requested_byes([(1, ByeKind.HALF_POINT), (4, kind)], players=PLAYERS, withdrawn={4})
    assert info.value.field == "byes.1.player"
    assert "withdrawn" in str(info.value) and "FIDE" in str(info.value)
    assert isinstance(info.value, EngineError)


def test_a_withdrawn_player_may_be_listed_with_a_zero_point_bye() -> None:
    check_requested_byes([(4, ByeKind.ZERO_POINT)], players=PLAYERS, withdrawn={4})


@pytest.mark.parametrize(
    ("requested", "field"),
    [
        ([(9, ByeKind.HALF_POINT)], "byes.0.player"),
        ([(1, ByeKind.HALF_POINT), (1, ByeKind.ZERO_POINT)], "byes.1.player"),
    ],
)
def test_unknown_or_repeated_players_are_refused(
    requested: list[tuple[int, ByeKind]], field: str
) -> None:
    with pytest.raises(ByeRequestError) as info:
        check_requested_byes(requested, players=PLAYERS)
    assert info.value.field == field
