"""A random team-tournament generator for the team Swiss (FIDE C.04.A asks an endorsed
program for a random tournament generator; C.04.6 for the pairing).

Teams get ratings drawn from a seeded generator, TPNs by rating; every round is paired
by `pair_team_round` from the history so far, and each board's result is drawn by the
Elo expectation of the two teams (a third of the non-decisive share draws). Match
points 2/1/0; the PAB scores a drawn match (art. 1.4: 1 match point, half the boards in
game points). A team floated when its opponent had a different primary score. The
first-named team has White on the odd boards (`board_colours`). Every round can then
be replayed from `states_before` and checked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from service.engine.model import Colour
from service.engine.pairing.team_swiss.colours import board_colours
from service.engine.pairing.team_swiss.engine import pair_team_round
from service.engine.pairing.team_swiss.model import (
    TeamPairing,
    TeamState,
    TeamSwissSettings,
)

__all__ = ["PlayedRound", "TeamTournament", "generate_team_tournament", "states_before"]


@dataclass(frozen=True, slots=True)
class PlayedRound:
    pairing: TeamPairing
    game_points: tuple[tuple[float, float], ...]
    """(white team, black team) game points per match, in table order."""


@dataclass(frozen=True, slots=True)
class TeamTournament:
    teams: int
    boards: int
    settings: TeamSwissSettings
    ratings: tuple[int, ...]
    rounds: tuple[PlayedRound, ...]


def states_before(tournament: TeamTournament, round_number: int) -> list[TeamState]:
    """Every team's state before `round_number` (1-based), rebuilt from the results."""
    states = {n: TeamState(n) for n in range(1, tournament.teams + 1)}
    boards = tournament.boards
    primary = tournament.settings.primary_score
    for played in tournament.rounds[: round_number - 1]:
        before = {n: s.score(primary) for n, s in states.items()}
        seen: set[int] = set()
        for match, (gw, gb) in zip(played.pairing.matches, played.game_points, strict=True):
            for me, other, mine, theirs, colour in (
                (match.white, match.black, gw, gb, Colour.WHITE),
                (match.black, match.white, gb, gw, Colour.BLACK),
            ):
                s = states[me]
                mp = 2.0 if mine > theirs else 1.0 if mine == theirs else 0.0
                states[me] = TeamState(
                    me,
                    s.match_points + mp,
                    s.game_points + mine,
                    s.opponents | {other},
                    (*s.colours, colour),
                    s.received_pab,
                    s.scored_without_playing,
                    before[me] != before[other],
                )
                seen.add(me)
        for n, s in states.items():
            if n in seen:
                continue
            got_bye = n == played.pairing.bye
            states[n] = TeamState(
                n,
                s.match_points + (1.0 if got_bye else 0.0),
                s.game_points + (boards / 2 if got_bye else 0.0),
                s.opponents,
                (*s.colours, None),
                s.received_pab or got_bye,
                s.scored_without_playing,
                False,
            )
    return [states[n] for n in range(1, tournament.teams + 1)]


def _board_points(rng: random.Random, white_rating: int, black_rating: int) -> float:
    expected = 1 / (1 + 10 ** ((black_rating - white_rating) / 400))
    roll = rng.random()
    if roll < expected * 0.7:
        return 1.0
    if roll < 1 - (1 - expected) * 0.7:
        return 0.5
    return 0.0


def generate_team_tournament(
    teams: int, settings: TeamSwissSettings, *, seed: int, boards: int = 4
) -> TeamTournament:
    """A complete random event of `settings.rounds` rounds."""
    rng = random.Random(seed)
    ratings = tuple(sorted((rng.randint(1200, 2700) for _ in range(teams)), reverse=True))
    sequence = board_colours(boards)
    tournament = TeamTournament(teams, boards, settings, ratings, ())
    for number in range(1, settings.rounds + 1):
        pairing = pair_team_round(states_before(tournament, number), number, settings)
        points: list[tuple[float, float]] = []
        for match in pairing.matches:
            gw = 0.0
            for colour in sequence:
                w_rating = ratings[match.white - 1] + rng.randint(-150, 150)
                b_rating = ratings[match.black - 1] + rng.randint(-150, 150)
                if colour is Colour.WHITE:
                    gw += _board_points(rng, w_rating, b_rating)
                else:
                    gw += 1 - _board_points(rng, b_rating, w_rating)
            points.append((gw, boards - gw))
        played = PlayedRound(pairing, tuple(points))
        tournament = TeamTournament(teams, boards, settings, ratings, (*tournament.rounds, played))
    return tournament
