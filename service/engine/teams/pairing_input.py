"""A team event as the team pairing engines see it (FIDE C.04.6; docs/rules/team-swiss.md).

`team_states` turns the rounds of a `TeamEvent` (read from a TRF-26 team file) into the
`TeamState`s the team Swiss pairs from: match and game points, the teams really met,
the colour on board 1 each round, the pairing-allocated bye, a match won by forfeit,
and whether the team floated in the last round. `played_round` gives a round of the
event back as the engine's `TeamPairing`, so the checker can compare it.

Readings taken:

* A match counts as played (a meeting, with a board-1 colour) when at least one of its
  games was played over the board. A match forfeited as a whole (record 330), or with
  every board forfeited, is no meeting (C.04.1 b reads "played"); its winner has
  scored without playing (C.04.6 C2).
* A team floated in a round when it played a team whose primary score differed before
  that round (art. 1.5); a bye or an unplayed match is no float.
* The board-1 colour comes from the match's board 1; the first-named team of a match
  (the TRF's home team) is the one with White there in the engine's output.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from service.engine.model import Colour
from service.engine.pairing.team_swiss.model import (
    ColourPreferenceType,
    PrimaryScore,
    TeamMatch,
    TeamPairing,
    TeamState,
    TeamSwissSettings,
)
from service.engine.teams.model import Match, MatchForfeit, TeamEvent, TeamRound, board_points
from service.engine.teams.results import team_table

__all__ = [
    "MatchState",
    "match_state",
    "played_round",
    "present_teams",
    "states_of",
    "team_states",
    "team_swiss_settings",
]


@dataclass(frozen=True, slots=True)
class MatchState:
    """What one match means for the pairing: whether it was played, the home team's
    board-1 colour (when played), and the team that won it without playing."""

    played: bool
    home_colour: Colour | None
    won_without_playing: int | None


def match_state(match: Match) -> MatchState:
    """The pairing's view of `match` (see the module's readings)."""
    if match.forfeit is not None:
        winner = {
            MatchForfeit.HOME_WINS: match.home,
            MatchForfeit.AWAY_WINS: match.away,
        }.get(match.forfeit)
        return MatchState(False, None, winner)
    played = any(b.result is None or b.result.played for b in match.boards)
    if played:
        first = min(match.boards, key=lambda b: b.board)
        return MatchState(True, first.home_colour, None)
    home = sum(board_points(b.outcome(True)) for b in match.boards)
    away = sum(board_points(b.outcome(False)) for b in match.boards)
    winner = match.home if home > away else match.away if away > home else None
    return MatchState(False, None, winner)


def _score(mp: Fraction, gp: Fraction, primary: PrimaryScore) -> Fraction:
    return mp if primary is PrimaryScore.MATCH else gp


def team_states(
    event: TeamEvent,
    *,
    before_round: int | None = None,
    primary: PrimaryScore = PrimaryScore.MATCH,
) -> list[TeamState]:
    """Every team's state before round `before_round` (default: after every round of
    the event), by team number."""
    last = len(event.rounds) if before_round is None else before_round - 1
    table = team_table(event)
    numbers = sorted(t.number for t in event.teams)
    mp = dict.fromkeys(numbers, Fraction(0))
    gp = dict.fromkeys(numbers, Fraction(0))
    met: dict[int, set[int]] = {n: set() for n in numbers}
    colours: dict[int, list[Colour | None]] = {n: [] for n in numbers}
    pab: set[int] = set()
    forfeit_won: set[int] = set()
    floated = dict.fromkeys(numbers, False)
    for rnd in event.rounds[:last]:
        before = {n: _score(mp[n], gp[n], primary) for n in numbers}
        floated = dict.fromkeys(numbers, False)
        seen: set[int] = set()
        for match in rnd.matches:
            state = match_state(match)
            seen.update(match.teams())
            if state.won_without_playing is not None:
                forfeit_won.add(state.won_without_playing)
            sides = ((match.home, match.away, True), (match.away, match.home, False))
            for me, other, home in sides:
                if state.played and state.home_colour is not None:
                    met[me].add(other)
                    colour = state.home_colour if home else state.home_colour.other
                    colours[me].append(colour)
                    floated[me] = before[me] != before[other]
                else:
                    colours[me].append(None)
        for n in numbers:
            if n not in seen:
                colours[n].append(None)
        if rnd.pab is not None:
            pab.add(rnd.pab)
        for n in numbers:
            result = table.rounds[n][rnd.number - 1]
            mp[n] += result.match_points
            gp[n] += result.game_points
    return [
        TeamState(
            number=n,
            match_points=float(mp[n]),
            game_points=float(gp[n]),
            opponents=frozenset(met[n]),
            colours=tuple(colours[n]),
            received_pab=n in pab,
            scored_without_playing=n in forfeit_won,
            floated_last_round=floated[n],
        )
        for n in numbers
    ]


def team_swiss_settings(
    event: TeamEvent,
    *,
    colour_preferences: ColourPreferenceType = ColourPreferenceType.A,
    primary_score: PrimaryScore = PrimaryScore.MATCH,
    initial_colour: Colour | None = None,
    next_round: bool = False,
    secondary_for_colours: bool = True,
) -> TeamSwissSettings:
    """The team Swiss settings of `event`: its planned rounds (TRF 142/XXR). Without a
    planned number, the rounds given, and one more when `next_round` is to be paired
    (C7 and C10 lapse in the last two rounds, so the number matters)."""
    rounds = event.total_rounds
    if rounds is None:
        rounds = len(event.rounds) + (1 if next_round else 0)
    rounds = max(rounds, 1)
    return TeamSwissSettings(
        rounds=rounds,
        colour_preferences=colour_preferences,
        primary_score=primary_score,
        initial_colour=initial_colour or Colour.WHITE,
        secondary_for_colours=secondary_for_colours,
    )


def present_teams(rnd: TeamRound) -> frozenset[int]:
    """Teams paired in `rnd`: in a match (forfeited ones included) or given the PAB."""
    teams = {t for m in rnd.matches for t in m.teams()}
    if rnd.pab is not None:
        teams.add(rnd.pab)
    return frozenset(teams)


def played_round(rnd: TeamRound) -> TeamPairing:
    """Round `rnd` of the event as the engine's `TeamPairing`: each match's white team is
    the one with White on board 1 (the home team of a match not played). The TRF has no
    table numbers: tables follow the file's match order."""
    matches: list[TeamMatch] = []
    for table, match in enumerate(rnd.matches, 1):
        state = match_state(match)
        home_white = state.home_colour in (None, Colour.WHITE)
        white, black = (match.home, match.away) if home_white else (match.away, match.home)
        matches.append(TeamMatch(table, white, black))
    return TeamPairing(rnd.number, tuple(matches), rnd.pab)


def states_of(states: Sequence[TeamState], teams: frozenset[int]) -> list[TeamState]:
    """The states of the teams in `teams`, in team order."""
    return [s for s in states if s.number in teams]
