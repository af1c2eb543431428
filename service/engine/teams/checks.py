"""A team event built from outside (a request body, a file) checked before it is scored:
every contradiction is an `EngineError` naming the field at fault.

The rules: team numbers and players are unique (a player is in one team); in a round a
team has one match, the pairing-allocated bye or nothing; a match is between two known
teams, its boards are numbered 1..boards once each, and each board seats a player of
the home team's lineup against one of the away team's; a player sits at one board a
round; a match forfeited as a whole has no boards; the scoring has at least one board
and a win worth at least a draw, a draw at least a loss (C.07 Art. 11).
"""

from __future__ import annotations

from service.engine.errors import EngineError
from service.engine.teams.model import EMPTY_SEAT, Match, TeamEvent, TeamRound

__all__ = ["check_team_event"]


def check_team_event(event: TeamEvent) -> None:
    """Raise `EngineError` (with `field`) at the first contradiction in `event`."""
    scoring = event.scoring
    if scoring.boards < 1:
        raise EngineError("a match has at least one board", field="scoring.boards")
    if not scoring.match_win >= scoring.match_draw >= scoring.match_loss:
        raise EngineError(
            "match points must rank a win over a draw over a loss", field="scoring.match_win"
        )
    lineups: dict[int, frozenset[int]] = {}
    team_of: dict[int, int] = {}
    for index, team in enumerate(event.teams):
        if team.number in lineups:
            raise EngineError(f"team {team.number} repeated", field=f"teams[{index}].number")
        for player in team.players:
            if player in team_of:
                raise EngineError(
                    f"player {player} is in team {team_of[player]} and team {team.number}",
                    field=f"teams[{index}].players",
                )
            team_of[player] = team.number
        lineups[team.number] = frozenset(team.players)
    for index, rnd in enumerate(event.rounds):
        if rnd.number != index + 1:
            raise EngineError(
                f"round {rnd.number} is in place {index + 1}", field=f"rounds[{index}].number"
            )
        _check_round(rnd, f"rounds[{index}]", lineups, scoring.boards)


def _check_round(
    rnd: TeamRound, where: str, lineups: dict[int, frozenset[int]], boards: int
) -> None:
    seen: dict[int, str] = {}

    def take(team: int, field: str) -> None:
        if team not in lineups:
            raise EngineError(f"round {rnd.number}: team {team} is unknown", field=field)
        if team in seen:
            raise EngineError(
                f"round {rnd.number}: team {team} is already in {seen[team]}", field=field
            )
        seen[team] = field

    seated: set[int] = set()
    for index, match in enumerate(rnd.matches):
        field = f"{where}.matches[{index}]"
        take(match.home, f"{field}.home")
        take(match.away, f"{field}.away")
        _check_match(match, field, lineups, boards, seated, rnd.number)
    if rnd.pab is not None:
        take(rnd.pab, f"{where}.pab")
    for index, team in enumerate(rnd.unpaired):
        take(team, f"{where}.unpaired[{index}]")


def _check_match(
    match: Match,
    field: str,
    lineups: dict[int, frozenset[int]],
    boards: int,
    seated: set[int],
    round_no: int,
) -> None:
    if match.forfeit is not None and match.boards:
        raise EngineError("a match forfeited as a whole has no boards", field=f"{field}.boards")
    numbers: set[int] = set()
    for index, board in enumerate(match.boards):
        at = f"{field}.boards[{index}]"
        if not 1 <= board.board <= boards or board.board in numbers:
            raise EngineError(
                f"round {round_no}: board {board.board} is outside 1..{boards} or repeated",
                field=f"{at}.board",
            )
        numbers.add(board.board)
        for side, player, team in (
            ("home_player", board.home_player, match.home),
            ("away_player", board.away_player, match.away),
        ):
            if player == EMPTY_SEAT and board.home_player != board.away_player:
                continue  # a board left empty, won by the other side by default
            if player not in lineups[team]:
                raise EngineError(
                    f"round {round_no}: player {player} is not in team {team}",
                    field=f"{at}.{side}",
                )
            if player in seated:
                raise EngineError(
                    f"round {round_no}: player {player} sits at two boards",
                    field=f"{at}.{side}",
                )
            seated.add(player)
