"""A pairing checker and a random tournament generator (FIDE C.04.A: an endorsed
program provides a free pairing checker and a random tournament generator).

`check_rounds` re-pairs every round of a finished tournament from the rounds before it
(and that round's announced byes) and lists every difference from what was played.
`generate_tournament` pairs round after round with the engine and draws results from a
seeded random number generator, with the stronger player more likely to win.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from service.engine.model import Bye, ByeKind, GameResult, Player, Round, Tournament
from service.engine.pairing.round_pairing import Pairing

__all__ = ["Difference", "PairFunction", "check_rounds", "generate_tournament"]

PairFunction = Callable[[Tournament, tuple[Bye, ...]], Pairing]
"""Pairs the round after `tournament.rounds`, given that round's announced byes."""


@dataclass(frozen=True, slots=True)
class Difference:
    """A round whose pairing differs from what the rules give."""

    round: int
    """The round."""
    played: tuple[tuple[int, int], ...]
    """(white, black) pairs in the tournament that the engine did not give."""
    expected: tuple[tuple[int, int], ...]
    """(white, black) pairs the engine gives that were not played."""
    played_bye: int | None
    """The pairing-allocated bye in the tournament."""
    expected_bye: int | None
    """The pairing-allocated bye the engine gives."""


def _pab(byes: Iterable[Bye]) -> int | None:
    return next((b.player for b in byes if b.kind is ByeKind.PAIRING_ALLOCATED), None)


def check_rounds(tournament: Tournament, pair: PairFunction) -> list[Difference]:
    """Every round whose pairs, colours or pairing-allocated bye differ from the engine's."""
    differences = []
    for index, played in enumerate(tournament.rounds):
        announced = tuple(b for b in played.byes if b.kind is not ByeKind.PAIRING_ALLOCATED)
        before = replace(tournament, rounds=tournament.rounds[:index])
        pairing = pair(before, announced)
        actual = {(g.white, g.black) for g in played.games}
        given = {(g.white, g.black) for g in pairing.games}
        if actual != given or _pab(played.byes) != _pab(pairing.byes):
            differences.append(
                Difference(
                    round=played.number,
                    played=tuple(sorted(actual - given)),
                    expected=tuple(sorted(given - actual)),
                    played_bye=_pab(played.byes),
                    expected_bye=_pab(pairing.byes),
                )
            )
    return differences


def _result(rng: random.Random, white: Player, black: Player) -> GameResult:
    """Elo expectation: the stronger player wins more often; a third of the rest draws."""
    expected = 1 / (1 + 10 ** ((black.rating - white.rating) / 400))
    draw = 0.3
    roll = rng.random()
    if roll < expected * (1 - draw):
        return GameResult.WHITE_WINS
    if roll < 1 - (1 - expected) * (1 - draw):
        return GameResult.DRAW
    return GameResult.BLACK_WINS


def generate_tournament(
    players: int, rounds: int, *, seed: int, pair: PairFunction, name: str = ""
) -> Tournament:
    """A complete random tournament: ratings 1000..2800 drawn with `seed`, start numbers by
    rating, each round paired by `pair`, results drawn by rating."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2800) for _ in range(players)), reverse=True)
    field = tuple(Player(n, f"Player {n:04d}", r) for n, r in enumerate(ratings, start=1))
    tournament = Tournament(
        players=field, total_rounds=rounds, name=name or f"Random tournament {seed}"
    )
    by_number = {p.start_number: p for p in field}
    for _ in range(rounds):
        pairing = pair(tournament, ())
        games = tuple(
            replace(g, result=_result(rng, by_number[g.white], by_number[g.black]))
            for g in pairing.games
        )
        played = Round(pairing.round, games, pairing.byes)
        tournament = replace(tournament, rounds=(*tournament.rounds, played))
    return tournament
