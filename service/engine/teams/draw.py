"""The next round of a team event, board by board (docs/rules/team-swiss.md).

`next_team_round` pairs the round after the last one of a `TeamEvent`: by FIDE C.04.6
(the team Swiss, from `team_states`) or from the Berger tables (a team round-robin).
Each match names its first-named (home) team, the one with White on board 1, and
seats each team's players on the boards from its lineup: board k is the k-th player
of the team's list (TRF 310 order), the default lineup before captains name theirs.

Board colours follow record 352 when it starts with White (the first-named team's
colour on each board), else alternate from board 1 (art. 1.6).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from service.engine.errors import EngineError
from service.engine.model import Colour
from service.engine.pairing.team_roundrobin import team_round_robin
from service.engine.pairing.team_swiss.colours import board_colours
from service.engine.pairing.team_swiss.engine import pair_team_round
from service.engine.pairing.team_swiss.model import (
    ColourPreferenceType,
    PrimaryScore,
)
from service.engine.teams.baku import TeamAcceleration, accelerated_states
from service.engine.teams.model import TeamEvent
from service.engine.teams.pairing_input import team_states, team_swiss_settings

__all__ = [
    "BoardSeat",
    "ByeKind",
    "DrawnMatch",
    "TeamDraw",
    "TeamPairingSystem",
    "board_sequence",
    "next_team_round",
]


class TeamPairingSystem(enum.StrEnum):
    """How a team event's next round is paired."""

    SWISS = "team-swiss"
    ROUND_ROBIN = "team-round-robin"


class ByeKind(enum.StrEnum):
    """A team without a match in the round."""

    PAB = "pairing-allocated"
    """The team Swiss's pairing-allocated bye (C.04.6 art. 3.4)."""
    FREE = "free"
    """The idle team of a round-robin with an odd number of teams (no points)."""


@dataclass(frozen=True, slots=True)
class BoardSeat:
    """One board: the players with White and Black (start numbers; None when the
    team's lineup is shorter than the boards)."""

    board: int
    white: int | None
    black: int | None
    white_team: int


@dataclass(frozen=True, slots=True)
class DrawnMatch:
    """A match of the round: `home` is the first-named team (White on board 1)."""

    table: int
    home: int
    away: int
    boards: tuple[BoardSeat, ...]


@dataclass(frozen=True, slots=True)
class TeamDraw:
    """The paired round."""

    round: int
    matches: tuple[DrawnMatch, ...]
    bye: int | None
    bye_kind: ByeKind | None
    notes: tuple[str, ...] = ()
    absent: tuple[int, ...] = ()
    """Teams announced as not playing the round: not paired, no points."""


def board_sequence(boards: int, record_352: str = "") -> tuple[Colour, ...]:
    """The first-named team's colour on each board."""
    letters = record_352.strip().upper()
    if letters[:1] == "W" and len(letters) >= boards and set(letters) <= {"W", "B"}:
        return tuple(Colour.WHITE if c == "W" else Colour.BLACK for c in letters[:boards])
    return board_colours(boards)


def _seats(
    event: TeamEvent, home: int, away: int, sequence: tuple[Colour, ...]
) -> tuple[BoardSeat, ...]:
    home_players = event.team(home).players
    away_players = event.team(away).players
    seats = []
    for board, colour in enumerate(sequence, 1):
        h = home_players[board - 1] if board <= len(home_players) else None
        a = away_players[board - 1] if board <= len(away_players) else None
        if colour is Colour.WHITE:
            seats.append(BoardSeat(board, h, a, home))
        else:
            seats.append(BoardSeat(board, a, h, away))
    return tuple(seats)


def next_team_round(
    event: TeamEvent,
    system: TeamPairingSystem,
    *,
    record_352: str = "",
    colour_preferences: ColourPreferenceType = ColourPreferenceType.A,
    primary_score: PrimaryScore = PrimaryScore.MATCH,
    initial_colour: Colour | None = None,
    absent: frozenset[int] = frozenset(),
    acceleration: Sequence[TeamAcceleration] = (),
    secondary_for_colours: bool = True,
) -> TeamDraw:
    """Pair round `len(event.rounds) + 1` of `event` with `system` (raises
    `EngineError` naming `system` or `round` when the event cannot have that round).
    The team Swiss leaves the `absent` teams out of the round (announced absences:
    they are not paired and score nothing, docs/teams.md#absent-teams), and adds the
    `acceleration`'s virtual points to the pairing scores (`teams.baku`).
    `secondary_for_colours` False: the competition's rules say not to use the secondary
    score when choosing the first-team of a match (C.04.6 4.2.2)."""
    number = len(event.rounds) + 1
    if event.total_rounds is not None and number > event.total_rounds:
        raise EngineError(
            f"all {event.total_rounds} rounds are paired (TRF 142/XXR)", field="round"
        )
    sequence = board_sequence(event.scoring.boards, record_352)
    if system is TeamPairingSystem.ROUND_ROBIN:
        return _round_robin(event, number, sequence)
    settings = team_swiss_settings(
        event,
        colour_preferences=colour_preferences,
        primary_score=primary_score,
        initial_colour=initial_colour,
        next_round=True,
        secondary_for_colours=secondary_for_colours,
    )
    states = [s for s in team_states(event, primary=primary_score) if s.number not in absent]
    states = accelerated_states(states, acceleration, number)
    pairing = pair_team_round(states, number, settings)
    matches = tuple(
        DrawnMatch(m.table, m.white, m.black, _seats(event, m.white, m.black, sequence))
        for m in pairing.matches
    )
    kind = ByeKind.PAB if pairing.bye is not None else None
    return TeamDraw(number, matches, pairing.bye, kind, pairing.notes, tuple(sorted(absent)))


def _round_robin(event: TeamEvent, number: int, sequence: tuple[Colour, ...]) -> TeamDraw:
    numbers = sorted(t.number for t in event.teams)
    count = len(numbers)
    if numbers != list(range(1, count + 1)):
        raise EngineError("a round-robin needs teams numbered 1..n", field="teams")
    cycle = count - 1 if count % 2 == 0 else count
    double = event.planned_rounds > cycle
    schedule = team_round_robin(count, double=double)
    if number > len(schedule):
        raise EngineError(
            f"a round-robin of {count} teams has {len(schedule)} rounds", field="round"
        )
    rnd = schedule[number - 1]
    matches = tuple(
        DrawnMatch(table, home, away, _seats(event, home, away, sequence))
        for table, (home, away) in enumerate(rnd.matches, 1)
    )
    kind = ByeKind.FREE if rnd.free is not None else None
    return TeamDraw(number, matches, rnd.free, kind)
