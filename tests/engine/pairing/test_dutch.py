"""FIDE Dutch pairing (service.engine.pairing.dutch): rules, options and invariants."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Player,
    Round,
    Tournament,
)
from service.engine.pairing.dutch import RULES, pair_round
from service.engine.pairing.dutch.players import build_players
from service.engine.pairing.round_pairing import Pairing, PairingError


def _players(n: int) -> tuple[Player, ...]:
    return tuple(Player(i, f"P{i}", 2400 - i) for i in range(1, n + 1))


def _with_results(pairing: Pairing, rng: random.Random, forfeit: float = 0.0) -> Round:
    results = [GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS]
    games = []
    for g in pairing.games:
        if rng.random() < forfeit:
            result = rng.choice([GameResult.WHITE_WINS_FORFEIT, GameResult.BLACK_WINS_FORFEIT])
        else:
            result = rng.choice(results)
        games.append(Game(pairing.round, g.white, g.black, result, g.table))
    return Round(pairing.round, tuple(games), pairing.byes)


def _simulate(
    n: int, rounds: int, seed: int, *, absent_rate: float = 0.0, forfeit: float = 0.0
) -> tuple[Tournament, list[Pairing], list[list[Bye]]]:
    rng = random.Random(seed)
    tournament = Tournament(players=_players(n), total_rounds=rounds)
    pairings: list[Pairing] = []
    announced_all: list[list[Bye]] = []
    for r in range(1, rounds + 1):
        announced = [
            Bye(r, p.start_number, rng.choice([ByeKind.HALF_POINT, ByeKind.ZERO_POINT]))
            for p in tournament.players
            if rng.random() < absent_rate
        ]
        pairing = pair_round(tournament, byes=announced)
        pairings.append(pairing)
        announced_all.append(announced)
        played = _with_results(pairing, rng, forfeit)
        tournament = Tournament(
            players=tournament.players,
            rounds=(*tournament.rounds, played),
            total_rounds=rounds,
        )
    return tournament, pairings, announced_all


def test_round_one_pairs_top_half_against_bottom_half_with_alternating_colours() -> None:
    pairing = pair_round(Tournament(players=_players(8), total_rounds=5))
    assert [(g.table, g.white, g.black) for g in pairing.games] == [
        (1, 1, 5),
        (2, 6, 2),
        (3, 3, 7),
        (4, 8, 4),
    ]
    assert pairing.round == 1
    assert pairing.byes == ()


def test_round_one_black1_swaps_every_colour() -> None:
    t = Tournament(players=_players(8), total_rounds=5, initial_colour=Colour.BLACK)
    assert [(g.white, g.black) for g in pair_round(t).games] == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_odd_field_gives_the_pab_to_the_lowest_player() -> None:
    pairing = pair_round(Tournament(players=_players(7), total_rounds=5))
    assert pairing.byes == (Bye(1, 7, ByeKind.PAIRING_ALLOCATED),)
    assert len(pairing.games) == 3


def test_announced_byes_are_not_paired_and_are_listed() -> None:
    byes = [Bye(1, 2, ByeKind.HALF_POINT), Bye(1, 5, ByeKind.ZERO_POINT)]
    pairing = pair_round(Tournament(players=_players(8), total_rounds=5), byes=byes)
    paired = {p for g in pairing.games for p in (g.white, g.black)}
    assert paired == {1, 3, 4, 6, 7, 8}
    assert set(pairing.byes) == set(byes)


def test_second_round_avoids_rematches_and_alternates_colours() -> None:
    t = Tournament(players=_players(4), total_rounds=3)
    r1 = pair_round(t)
    assert [(g.white, g.black) for g in r1.games] == [(1, 3), (4, 2)]
    played = Round(
        1,
        (
            Game(1, 1, 3, GameResult.WHITE_WINS, 1),
            Game(1, 4, 2, GameResult.BLACK_WINS, 2),
        ),
    )
    r2 = pair_round(Tournament(players=t.players, rounds=(played,), total_rounds=3))
    # Winners 1 and 2 meet; 1 had white, 2 had black, so 2 gets white.
    assert [(g.white, g.black) for g in r2.games] == [(2, 1), (3, 4)]


def test_forfeited_game_is_not_a_meeting() -> None:
    forfeited = Round(
        1,
        (
            Game(1, 1, 2, GameResult.WHITE_WINS_FORFEIT, 1),
            Game(1, 3, 4, GameResult.DRAW, 2),
        ),
    )
    t = Tournament(players=_players(4), rounds=(forfeited,), total_rounds=3)
    # 1 (1 point) and 2 (0 points) may meet again: the game was not played.
    games = {frozenset((g.white, g.black)) for g in pair_round(t).games}
    assert frozenset((3, 4)) not in games


def test_forbidden_pairs_are_never_paired() -> None:
    t = Tournament(players=_players(8), total_rounds=5)
    pairing = pair_round(t, forbidden_pairs=[frozenset((1, 5))])
    games = {frozenset((g.white, g.black)) for g in pairing.games}
    assert frozenset((1, 5)) not in games
    assert len(games) == 4


def test_acceleration_pairs_the_accelerated_group_first() -> None:
    # Baku-style: the top half gets one virtual point in round 1.
    acc = {i: (Fraction(1),) for i in range(1, 5)}
    pairing = pair_round(Tournament(players=_players(8), total_rounds=5), accelerations=acc)
    games = {frozenset((g.white, g.black)) for g in pairing.games}
    assert games == {frozenset(p) for p in [(1, 3), (2, 4), (5, 7), (6, 8)]}


def test_no_legal_pairing_raises() -> None:
    played = Round(1, (Game(1, 1, 2, GameResult.DRAW, 1),))
    t = Tournament(players=_players(2), rounds=(played,), total_rounds=3)
    with pytest.raises(PairingError):
        pair_round(t)


def test_bad_arguments() -> None:
    t = Tournament(players=_players(4), total_rounds=1)
    with pytest.raises(ValueError, match="unknown rules"):
        pair_round(t, rules="dutch-1992")
    with pytest.raises(ValueError, match="unknown player"):
        pair_round(t, byes=[Bye(1, 9, ByeKind.HALF_POINT)])
    with pytest.raises(ValueError, match="chosen by the pairing"):
        pair_round(t, byes=[Bye(1, 1, ByeKind.PAIRING_ALLOCATED)])
    done = Tournament(players=t.players, rounds=(Round(1),), total_rounds=1)
    with pytest.raises(PairingError, match="already paired"):
        pair_round(done)


def test_explain_gives_one_line_per_bracket() -> None:
    tournament, _, _ = _simulate(12, 3, seed=3)
    tournament = Tournament(players=tournament.players, rounds=tournament.rounds[:2])
    pairing = pair_round(tournament, explain=True)
    assert pairing.notes
    assert all(note.startswith(("bracket ", "pairing-allocated bye")) for note in pairing.notes)
    assert not pair_round(tournament).notes


def test_full_point_bye_blocks_the_pab_only_under_the_2026_rules() -> None:
    # Player 5 took a requested full-point bye in round 1; 6 is absent throughout.
    win, draw, loss = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS
    r1 = Round(
        1,
        (Game(1, 1, 2, win, 1), Game(1, 3, 4, win, 2)),
        (Bye(1, 5, ByeKind.FULL_POINT), Bye(1, 6, ByeKind.ZERO_POINT)),
    )
    r2 = Round(
        2,
        (Game(2, 1, 3, draw, 1), Game(2, 5, 2, loss, 2), Game(2, 4, 6, win, 3)),
    )
    t = Tournament(players=_players(6), rounds=(r1, r2), total_rounds=5)
    absent = [Bye(3, 6, ByeKind.ZERO_POINT)]

    def pab(rules: str) -> list[int]:
        pairing = pair_round(t, byes=absent, rules=rules)
        return [b.player for b in pairing.byes if b.kind is ByeKind.PAIRING_ALLOCATED]

    # Score 1 group: 2, 4, 5. C.04.1 d (2026) excludes 5 (scored a win unplayed);
    # the 2017 rule only excludes PAB and forfeit-win recipients.
    assert pab("dutch-2026") in ([2], [4])
    assert len(pab("dutch-2017")) == 1
    eligible = {
        rules_2017: {
            p.number: p.bye_eligible
            for p in build_players(
                t, absent=[6], accelerations=None, forbidden_pairs=(), rules_2017=rules_2017
            )[1]
        }
        for rules_2017 in (False, True)
    }
    assert eligible[False] == {1: True, 2: True, 3: True, 4: True, 5: False}
    assert eligible[True] == {1: True, 2: True, 3: True, 4: True, 5: True}
    assert "dutch-2017" in RULES


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=24),
    rounds=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=10**6),
    absent_rate=st.sampled_from([0.0, 0.1]),
    forfeit=st.sampled_from([0.0, 0.1]),
)
def test_invariants_over_simulated_events(
    n: int, rounds: int, seed: int, absent_rate: float, forfeit: float
) -> None:
    try:
        tournament, pairings, announced = _simulate(
            n, rounds, seed, absent_rate=absent_rate, forfeit=forfeit
        )
    except PairingError:
        return  # tiny fields can run out of legal opponents
    met: set[frozenset[int]] = set()
    pab_before: set[int] = set()
    for r, (pairing, byes) in enumerate(zip(pairings, announced, strict=True)):
        rnd = tournament.rounds[r]
        absent = {b.player for b in byes}
        seen = [p for g in pairing.games for p in (g.white, g.black)]
        pabs = [b.player for b in pairing.byes if b.kind is ByeKind.PAIRING_ALLOCATED]
        assert sorted(seen + pabs) == sorted(
            p.start_number for p in tournament.players if p.start_number not in absent
        )
        assert len(pabs) <= 1
        assert [g.table for g in pairing.games] == list(range(1, len(pairing.games) + 1))
        for g in pairing.games:
            assert frozenset((g.white, g.black)) not in met
        for pab in pabs:
            assert pab not in pab_before
            pab_before.add(pab)
        for g in rnd.games:
            if g.result is not None and g.result.played:
                met.add(frozenset((g.white, g.black)))
            elif g.result is GameResult.WHITE_WINS_FORFEIT:
                pab_before.add(g.white)
            elif g.result is GameResult.BLACK_WINS_FORFEIT:
                pab_before.add(g.black)
    # Colour rules C1.f/g: never three in a row, never a difference beyond 2
    # (the final-round topscorer exception aside).
    history = tournament.history()
    for entries in history.values():
        colours = [e.colour for e in entries[:-1] if e.played and e.colour is not None]
        diff = sum(1 if c is Colour.WHITE else -1 for c in colours)
        assert abs(diff) <= 2
        for a, b, c in zip(colours, colours[1:], colours[2:], strict=False):
            assert not (a is b is c)


def test_initial_colour_is_read_back_from_round_one_when_not_given() -> None:
    # Round 1 was paired with the top player on black; 5 and 6 were absent.
    r1 = Round(
        1,
        (
            Game(1, 3, 1, GameResult.DRAW, 1),
            Game(1, 2, 4, GameResult.DRAW, 2),
        ),
        (Bye(1, 5, ByeKind.ZERO_POINT), Bye(1, 6, ByeKind.ZERO_POINT)),
    )
    t = Tournament(players=_players(6), rounds=(r1,), total_rounds=5)
    games = {frozenset((g.white, g.black)): g for g in pair_round(t).games}
    # 5 and 6 have no colour history: the higher (5, odd position) takes the
    # initial colour, which round 1 shows was black.
    assert games[frozenset((5, 6))].white == 6
    stated = Tournament(
        players=t.players, rounds=(r1,), total_rounds=5, initial_colour=Colour.WHITE
    )
    games = {frozenset((g.white, g.black)): g for g in pair_round(stated).games}
    assert games[frozenset((5, 6))].white == 5


def test_a_lone_player_gets_the_pab_unless_already_given_one() -> None:
    t = Tournament(players=_players(3), total_rounds=3)
    lone = pair_round(t, byes=[Bye(1, 1, ByeKind.HALF_POINT), Bye(1, 2, ByeKind.ZERO_POINT)])
    assert lone.games == ()
    assert Bye(1, 3, ByeKind.PAIRING_ALLOCATED) in lone.byes
    r1 = Round(1, (), (Bye(1, 3, ByeKind.PAIRING_ALLOCATED),))
    again = Tournament(players=t.players, rounds=(r1,), total_rounds=3)
    with pytest.raises(PairingError):
        pair_round(again, byes=[Bye(2, 1, ByeKind.HALF_POINT), Bye(2, 2, ByeKind.HALF_POINT)])


def test_double_forfeit_players_may_meet_again_and_keep_their_colours() -> None:
    r1 = Round(1, (Game(1, 1, 2, GameResult.DOUBLE_FORFEIT, 1),))
    t = Tournament(players=_players(2), rounds=(r1,), total_rounds=3)
    (game,) = pair_round(t).games
    assert {game.white, game.black} == {1, 2}
    assert game.white == 1  # no colour history: the higher player takes white1


def test_public_surface() -> None:
    import service.engine.pairing.dutch as dutch

    assert sorted(dutch.__all__) == ["RULES", "pair_round"]
    assert RULES == ("dutch-2026", "dutch-2017")
