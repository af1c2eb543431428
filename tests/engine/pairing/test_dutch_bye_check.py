"""An odd field's completion check (brackets.py `_prepare_bye`) against the rules' words.

Before the first bracket the engine fixes, for an odd field, the PAB assignee's score
(C2, C5: the lowest score of a player who may get the PAB while everyone else can still
be paired, C1 and C3) and whether that player will be the single downfloater of the top
score group (C9 then applies there). The check is a weighted matching over a sparse
graph, most of its pairs held in the matcher's reserve; here it is compared with the
definitions, searched exhaustively over who gets the PAB, on every round of simulated
events (forfeits and announced byes make players ineligible for the PAB) and of the
small reference tournaments.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache

import pytest

from service.engine.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    Tournament,
)
from service.engine.pairing.dutch import brackets, pair_round
from service.engine.pairing.dutch.players import SwissPlayer
from service.engine.pairing.matching import WeightedMatcher
from service.engine.pairing.round_pairing import PairingError
from tests.engine.pairing.reference import reference_files, repaired_rounds

Outcome = tuple[Fraction, bool]
"""The PAB assignee's score and whether it is the top group's single downfloater."""


def _pairable(players: Sequence[SwissPlayer], meet: Callable[[int, int], bool]) -> bool:
    """Whether `players` can all be paired with one another (exhaustive search)."""

    @cache
    def search(left: frozenset[int]) -> bool:
        if not left:
            return True
        first = min(left)
        rest = left - {first}
        return any(meet(first, other) and search(rest - {other}) for other in rest)

    return search(frozenset(range(len(players))))


def _by_definition(
    order: Sequence[SwissPlayer], score: Sequence[Fraction], compatible: Callable[..., bool]
) -> Outcome:
    """C5: the lowest score among the players who may get the PAB (C2) and leave the
    others pairable (C1, C3); C9's condition: one of them is in the top score group
    and the rest of that group pairs inside it (and the players below among
    themselves)."""

    def pairable(group: list[int]) -> bool:
        players = [order[v] for v in group]
        return _pairable(players, lambda a, b: compatible(players[a], players[b]))

    everyone = range(len(order))
    candidates = [
        b for b in everyone if order[b].bye_eligible and pairable([v for v in everyone if v != b])
    ]
    assert candidates, "a complete round exists (the engine paired it)"
    bye_score = min(score[b] for b in candidates)
    top = [v for v in everyone if score[v] >= score[0]]
    below = [v for v in everyone if score[v] < score[0]]
    single = bye_score >= score[0] and any(
        score[b] == bye_score and pairable([v for v in top if v != b]) and pairable(below)
        for b in candidates
    )
    return bye_score, single


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Compare every odd field's check with `_by_definition`; counts the kinds seen."""
    kinds: Counter[str] = Counter()
    prepare = brackets._RoundPairer._prepare_bye

    def spy(pairer: brackets._RoundPairer) -> None:
        prepare(pairer)
        if not pairer.n & 1 or not pairer.pab_criteria:
            return
        ctx = pairer.ctx
        expected = _by_definition(pairer.order, pairer.score, ctx.compatible)
        assert (ctx.bye_score, ctx.single_downfloater_is_bye) == expected
        top = sum(1 for s in pairer.score if s >= pairer.score[0])
        if ctx.bye_score < pairer.score[0]:
            kinds["PAB below the top group"] += 1
        elif top == pairer.n:
            kinds["one score group"] += 1
        else:
            kinds[f"PAB in the top group, single downfloater {expected[1]}"] += 1

    monkeypatch.setattr(brackets._RoundPairer, "_prepare_bye", spy)
    return kinds


def _next_round(tournament: Tournament, rng: random.Random) -> Tournament | None:
    """Pair the next round with random absences, then play it with random results and
    forfeits (a forfeit win or an unplayed point bars the PAB later, C2)."""
    number = len(tournament.rounds) + 1
    absent = [
        Bye(number, p.start_number, rng.choice([ByeKind.HALF_POINT, ByeKind.ZERO_POINT]))
        for p in tournament.players
        if rng.random() < 0.15
    ]
    try:
        pairing = pair_round(tournament, byes=absent)
    except PairingError:
        return None
    results = [
        GameResult.WHITE_WINS,
        GameResult.DRAW,
        GameResult.BLACK_WINS,
        GameResult.WHITE_WINS_FORFEIT,
        GameResult.BLACK_WINS_FORFEIT,
    ]
    games = tuple(
        Game(number, g.white, g.black, rng.choices(results, (4, 2, 4, 1, 1))[0], g.table)
        for g in pairing.games
    )
    played = Round(number, games, pairing.byes)
    return Tournament(
        players=tournament.players,
        rounds=(*tournament.rounds, played),
        total_rounds=tournament.total_rounds,
    )


def test_the_pab_score_and_single_downfloater_match_their_definitions(
    checked: Counter[str],
) -> None:
    rng = random.Random(2026)
    for _ in range(60):
        size = rng.randrange(3, 16)
        players = tuple(Player(i, f"P{i}", 2400 - 10 * i) for i in range(1, size + 1))
        tournament: Tournament | None = Tournament(players=players, total_rounds=7)
        for _ in range(7):
            assert tournament is not None
            tournament = _next_round(tournament, rng)
            if tournament is None:
                break
    # every branch of the check was met: the PAB below the top group, a field of one
    # score group, and the top group's PAB with and without a single downfloater
    assert len(checked) == 4, checked


def test_the_reference_tournaments_checks_match_their_definitions(
    checked: Counter[str],
) -> None:
    files = reference_files(max_players=23)
    assert files
    for name in files:
        for _ in repaired_rounds(name):
            pass
    assert checked["PAB below the top group"] > 0


def test_the_check_weighs_the_near_pairs_and_reserves_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 61-player start list: one score group, every pair may meet. The check used to
    put all 1,830 pairs in the matcher's graph; now each player's pairs with the
    `_NEAR` players just above it are there and the rest wait in the reserve."""
    checks: list[WeightedMatcher] = []
    build = brackets._RoundPairer._bye_check

    def spy(pairer: brackets._RoundPairer) -> WeightedMatcher:
        checks.append(build(pairer))
        return checks[-1]

    monkeypatch.setattr(brackets._RoundPairer, "_bye_check", spy)
    size = 61
    players = tuple(Player(i, f"P{i}", 2400 - 10 * i) for i in range(1, size + 1))
    pairing = pair_round(Tournament(players=players, total_rounds=5))
    assert pairing.byes == (Bye(1, size, ByeKind.PAIRING_ALLOCATED),)
    [check] = checks
    in_graph = reserved = 0
    for v in range(size):
        for u in range(v):
            if check.weight(v, u):  # every pair may meet
                reserved += check._reserve.holds(v, u)
                in_graph += not check._reserve.holds(v, u)
    assert in_graph + reserved == size * (size - 1) // 2
    assert in_graph <= size * brackets._NEAR
