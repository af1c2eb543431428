"""A team event with a contradiction is refused with the field at fault."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from service.engine.errors import EngineError
from service.engine.teams.checks import check_team_event
from service.engine.teams.model import Match, MatchForfeit, Team, TeamRound
from tests.engine.teams.builders import event, match

GOOD = event(3, 2, [[(1, 2, "1=")], [(3, 1, "00")]], pabs=[3, 2])


def test_a_good_event_passes() -> None:
    check_team_event(GOOD)


def _with_round(index: int, rnd: TeamRound) -> object:
    rounds = list(GOOD.rounds)
    rounds[index] = rnd
    return replace(GOOD, rounds=tuple(rounds))


@pytest.mark.parametrize(
    ("changed", "field", "message"),
    [
        (
            replace(GOOD, teams=(*GOOD.teams, Team(4, "Again", (101,)))),
            "teams[3].players",
            "player 101 is in team 1 and team 4",
        ),
        (
            replace(GOOD, teams=(*GOOD.teams, Team(1, "Twin", (901,)))),
            "teams[3].number",
            "team 1 repeated",
        ),
        (
            _with_round(0, TeamRound(1, (match(1, 2, "1="),), pab=1)),
            "rounds[0].pab",
            "team 1 is already in rounds[0].matches[0].home",
        ),
        (
            _with_round(0, TeamRound(1, (match(1, 5, "1="),))),
            "rounds[0].matches[0].away",
            "team 5 is unknown",
        ),
        (
            _with_round(0, TeamRound(1, (match(1, 2, "1=1"),))),
            "rounds[0].matches[0].boards[2].board",
            "board 3 is outside 1..2",
        ),
        (
            _with_round(
                0, TeamRound(1, (Match(1, 2, match(1, 2, "1=").boards, MatchForfeit.HOME_WINS),))
            ),
            "rounds[0].matches[0].boards",
            "forfeited as a whole has no boards",
        ),
        (
            _with_round(0, TeamRound(1, (match(1, 3, "1="),), unpaired=(2, 2))),
            "rounds[0].unpaired[1]",
            "team 2 is already in rounds[0].unpaired[0]",
        ),
        (
            replace(GOOD, scoring=replace(GOOD.scoring, match_draw=Fraction(3))),
            "scoring.match_win",
            "a win over a draw",
        ),
        (replace(GOOD, scoring=replace(GOOD.scoring, boards=0)), "scoring.boards", "one board"),
    ],
)
def test_contradictions_name_the_field(changed: object, field: str, message: str) -> None:
    with pytest.raises(EngineError, match=re.escape(message)) as caught:
        check_team_event(changed)  # type: ignore[arg-type]
    assert caught.value.field == field


def test_a_player_of_another_team_on_a_board() -> None:
    """Board 2 of team 1 seats player 302, who is in team 3."""
    wrong = match(1, 2, "1=")
    boards = (wrong.boards[0], replace(wrong.boards[1], home_player=302))
    changed = _with_round(0, TeamRound(1, (Match(1, 2, boards),), pab=3))
    with pytest.raises(EngineError, match="player 302 is not in team 1") as caught:
        check_team_event(changed)  # type: ignore[arg-type]
    assert caught.value.field == "rounds[0].matches[0].boards[1].home_player"
