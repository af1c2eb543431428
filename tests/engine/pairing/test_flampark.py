"""FLAMPARK pairing: the worked numbers of the FLAMPARK text and the documented readings."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest

from service.engine.errors import EngineError
from service.engine.model import ByeKind, Colour
from service.engine.pairing.flampark import (
    KINDS,
    VARIANTS,
    FlamparkOptionError,
    FlamparkSchedule,
    FlamparkScheduleError,
    TooFewPlayersError,
    basic_opponent,
    basic_round,
    capacity,
    flampark_schedule,
    paired_count,
    raw_opponent,
)
from service.engine.pairing.round_pairing import PairingError
from tests.data import seed_000

FK6_KINDS = ["basic"] * 5 + ["x2"] * 3 + ["x4", "x8"]
# The FLAMPARK text's figures (tests/data/seeds/000-flampark.json).
SEED = seed_000()


def _chain_examples() -> list[tuple[int, int, int]]:
    """Every ``R<N>(<i>) = ... = <value>`` in the text, as (N, i, value)."""
    return [(n, i, value) for n, i, value in SEED["pairing"]["chain_examples"]]


def _games(schedule: FlamparkSchedule) -> list[tuple[int, int, int]]:
    return [(rnd.number, g.white, g.black) for rnd in schedule.rounds for g in rnd.games]


def _opponents(schedule: FlamparkSchedule, player: int) -> list[int]:
    return [entry.opponent for entry in schedule.card(player) if entry.opponent is not None]


def _max_gap(schedule: FlamparkSchedule) -> int:
    return max(abs(white - black) for _, white, black in _games(schedule))


# --- the chains (Formuła FLAMPARK, "Metoda kojarzenia") ---------------------------------------


def test_seed_chain_examples_are_found() -> None:
    examples = _chain_examples()
    assert {(n, i) for n, i, _ in examples} >= {(8, 1), (8, 4), (14, 4), (8, 5), (8, 7)}


@pytest.mark.parametrize(("player", "round_index", "value"), _chain_examples())
def test_seed_chain_values(player: int, round_index: int, value: int) -> None:
    if value < 1:
        # R8(5) = 3 - 4 = -1: the unbounced value, then the ceiling bounce takes |-1|.
        assert raw_opponent(player, round_index) == value
        assert basic_opponent(player, round_index, 100) == abs(value)
    else:
        assert basic_opponent(player, round_index, 100) == value


def test_round_one_pairs_upper_neighbours() -> None:
    # "Nr 2 gra z nr 1, nr 4 z nr 3, 6 z 5, 8 z 7 itd."
    pairs = [(a, b) for a, b in SEED["pairing"]["round_one_pairs"]]
    assert pairs == [(2, 1), (4, 3), (6, 5), (8, 7)]
    assert basic_round(8, 1) == pairs


def test_ceiling_bounce_turns_the_chain() -> None:
    assert [basic_opponent(8, i, 100) for i in (1, 3, 5, 7, 9)] == [7, 3, 1, 5, 9]
    assert [basic_opponent(4, i, 100) for i in (1, 3, 5)] == [3, 1, 5]


def test_floor_bounce_mirrors_at_the_end() -> None:
    # 20 players, player 18 (= 2 mod 4): odd rounds climb 17, 21 -> past the end.
    assert [raw_opponent(18, i) for i in (1, 3, 5)] == [17, 21, 25]
    assert [basic_opponent(18, i, 20) for i in (1, 3, 5)] == [17, 19, 15]


def test_floor_bounce_is_the_lowest_odd_not_yet_met() -> None:
    """The mirror reproduces the text's rule at each chain's first floor bounce."""
    checked = 0
    for size in range(4, 122, 2):
        for player in range(2, size + 1, 2):
            met: list[int] = []
            for index in range(1, size // 2 + 1):
                raw = raw_opponent(player, index)
                if raw < 1:
                    break
                if raw > size:
                    lowest = max(o for o in range(1, size + 1, 2) if o not in met)
                    assert basic_opponent(player, index, size) == lowest
                    checked += 1
                    break
                met.append(basic_opponent(player, index, size))
    assert checked > 500


def test_chains_give_complete_bipartite_schedules() -> None:
    """Every even size, up to size/2 rounds: perfect matchings, no repeated game."""
    for size in range(2, 122, 2):
        met: set[tuple[int, int]] = set()
        for index in range(1, size // 2 + 1):
            games = basic_round(size, index)
            odds = sorted(odd for _, odd in games)
            assert odds == list(range(1, size, 2))
            assert met.isdisjoint(games)
            met.update(games)
        assert len(met) == (size // 2) ** 2


def test_chain_inputs_are_checked() -> None:
    with pytest.raises(ValueError, match="even positions"):
        raw_opponent(7, 1)
    with pytest.raises(ValueError, match="at least 1"):
        raw_opponent(8, 0)
    with pytest.raises(ValueError, match="at most 4 rounds"):
        basic_round(8, 5)
    with pytest.raises(ValueError, match="even size"):
        basic_round(7, 1)


# --- the text's figures -----------------------------------------------------------------


def _figures() -> tuple[int, int, int]:
    """Largest start-number gaps in 9 rounds: basic, two x2 rounds, four narrowing."""
    gaps = SEED["pairing"]["largest_gap_nine_rounds"]
    return gaps["basic"], gaps["two_x2"], gaps["four_narrowing"]


def _first_tournament_players() -> int:
    return int(SEED["pairing"]["first_tournament_players"])


def _fk6() -> tuple[int, int, int]:
    """(players, rounds, players sitting out the x8 round) from the FK6 report."""
    fk6 = SEED["fk6"]
    return fk6["players"], fk6["rounds"], fk6["x8_sitting_out"]


def test_figures_parsed() -> None:
    assert _figures() == (17, 13, 10)
    assert _first_tournament_players() == 92
    assert _fk6() == (56, 10, 8)


@pytest.mark.parametrize("players", [92, 56, 18, 27, 64, 100, 201])
def test_basic_nine_rounds_largest_gap(players: int) -> None:
    """Formuła FLAMPARK: basic pairing, 9 rounds: opponents at most 17 numbers apart.

    The text names no count; the first tournament had 92 players. The bound is met
    for every count from 18 (= 2 x 9) upwards.
    """
    basic, _, _ = _figures()
    assert _max_gap(flampark_schedule(players, 9)) == basic


@pytest.mark.parametrize("players", [92, 56, 36, 73, 128])
def test_two_narrowing_rounds_largest_gap(players: int) -> None:
    _, two, _ = _figures()
    kinds = ["basic"] * 7 + ["x2"] * 2
    assert _max_gap(flampark_schedule(players, 9, kinds=kinds)) == two
    mixed = ["basic"] * 7 + ["x2", "x4"]
    assert _max_gap(flampark_schedule(players, 9, kinds=mixed)) == two


@pytest.mark.parametrize("players", [92, 56, 48, 81, 160])
def test_four_narrowing_rounds_largest_gap(players: int) -> None:
    _, _, four = _figures()
    for kinds in (
        ["basic"] * 5 + ["x2"] * 3 + ["x4"],
        ["basic"] * 5 + ["x2"] * 2 + ["x4", "x8"],
    ):
        assert _max_gap(flampark_schedule(players, 9, kinds=kinds)) == four


def test_fk6_tournament() -> None:
    """FK6: 56 players, 10 rounds, all kinds; 8 sit out the x8 round; player 1 meets
    exactly the ten next numbers; in the middle of the list opponents are at most
    10 places apart."""
    players, rounds, paused = _fk6()
    schedule = flampark_schedule(players, rounds, kinds=FK6_KINDS)
    assert sorted(_opponents(schedule, 1)) == list(range(2, 12))
    x8 = schedule.rounds[schedule.kinds.index("x8")]
    assert len(x8.byes) == paused
    assert [bye.player for bye in x8.byes] == list(range(players - paused + 1, players + 1))
    assert all(bye.kind is ByeKind.ZERO_POINT for bye in x8.byes)
    assert sum(len(rnd.byes) for rnd in schedule.rounds) == paused
    for player in range(players // 4, 3 * players // 4):
        assert max(abs(o - player) for o in _opponents(schedule, player)) <= 10
    assert _max_gap(schedule) == 10
    # "for the next 3 players only one jump in the round-robin" (Formuła FLAMPARK)
    for player in (2, 3, 4):
        near = set(range(1, 12)) - {player}
        assert len(set(_opponents(schedule, player)) - near) <= 1


def test_fk6_opponents_by_kind() -> None:
    """The FK6 reading (docs/rules/flampark.md): {2,6,4,10,8} + {3,11,7} + {5} + {9}."""
    schedule = flampark_schedule(56, 10, kinds=FK6_KINDS)
    by_kind: dict[str, list[int]] = {}
    for entry, kind in zip(schedule.card(1), schedule.kinds, strict=True):
        assert entry.opponent is not None
        by_kind.setdefault(kind, []).append(entry.opponent)
    assert by_kind == {"basic": [2, 6, 4, 10, 8], "x2": [3, 11, 7], "x4": [5], "x8": [9]}


def test_worst_case_x8_sit_outs() -> None:
    """Formuła FLAMPARK: at worst 14 surplus pauses (an even count 14 above a multiple of 16)."""
    schedule = flampark_schedule(62, 10, kinds=FK6_KINDS)
    x8 = schedule.rounds[schedule.kinds.index("x8")]
    assert [bye.player for bye in x8.byes] == list(range(49, 63))
    worst = max(
        len(flampark_schedule(n, 10, kinds=FK6_KINDS).rounds[9].byes) for n in range(32, 100, 2)
    )
    assert worst == 14


# --- narrowing rounds -------------------------------------------------------------------


def test_x2_roles_follow_the_text() -> None:
    """x2: among evens, 2, 6, 10 act as odd and 4, 8, 12 as even (and the odds alike)."""
    rnd = flampark_schedule(16, 4, kinds=["x2", "basic", "basic", "basic"]).rounds[0]
    pairs = {frozenset((g.white, g.black)) for g in rnd.games}
    assert pairs == {
        frozenset(p)
        for p in [(4, 2), (8, 6), (12, 10), (16, 14), (3, 1), (7, 5), (11, 9), (15, 13)]
    }


def test_x4_roles_follow_the_text() -> None:
    """x4: in the class 0 mod 4, 4, 12, 20 act as odd and 8, 16, 24 as even."""
    rnd = flampark_schedule(32, 4, kinds=["x4", "basic", "basic", "basic"]).rounds[0]
    pairs = {frozenset((g.white, g.black)) for g in rnd.games}
    assert {frozenset((8, 4)), frozenset((16, 12)), frozenset((24, 20))} <= pairs
    assert all((g.white - g.black) % 8 == 4 for g in rnd.games)


@pytest.mark.parametrize(("kind", "factor"), [("x2", 2), ("x4", 4), ("x8", 8)])
@pytest.mark.parametrize("players", [40, 45, 57, 63, 64])
def test_narrowing_sit_outs_are_the_bottom(kind: str, factor: int, players: int) -> None:
    schedule = flampark_schedule(players, 3, kinds=[kind, "basic", "basic"])
    paired = paired_count(players, factor)
    assert paired % (2 * factor) == 0 and players - paired < 2 * factor
    assert [b.player for b in schedule.rounds[0].byes] == list(range(paired + 1, players + 1))


def test_capacity() -> None:
    assert capacity(56, 8) == 3
    assert capacity(56, 1) == 28
    assert capacity(57, 1) == 29
    flampark_schedule(48, 6, kinds=["x8"] * 3 + ["basic"] * 3)
    with pytest.raises(FlamparkOptionError, match="4 x8 rounds asked, but 47 players"):
        flampark_schedule(47, 6, kinds=["x8"] * 4 + ["basic"] * 2)


# --- basic rounds: tables, colours, byes ------------------------------------------------


@pytest.mark.parametrize("players", [20, 27, 56])
def test_even_players_keep_their_table(players: int) -> None:
    schedule = flampark_schedule(players, 9)
    for rnd in schedule.rounds:
        for game in rnd.games:
            even = game.white if game.white % 2 == 0 else game.black
            assert (game.white + game.black) % 2 == 1
            assert game.table == even // 2
        assert sorted(g.table for g in rnd.games) == list(range(1, len(rnd.games) + 1))


@pytest.mark.parametrize("players", [20, 56, 101])
def test_basic_colours_alternate(players: int) -> None:
    schedule = flampark_schedule(players, 9)
    for player in range(1, players + 1):
        card = schedule.card(player)
        for before, after in itertools.pairwise(card):
            if before.colour is not None and after.colour is not None:
                assert before.colour is not after.colour
        # After a bye the player resumes the round-by-round pattern.
        colours = [e.colour for e in card]
        for i in range(2, len(colours)):
            if colours[i - 1] is None and colours[i] is not None and colours[i - 2]:
                assert colours[i] is colours[i - 2]


def test_top_player_colour_in_round_one() -> None:
    assert flampark_schedule(20, 5).rounds[0].games[0].white == 1
    black_first = flampark_schedule(20, 5, top_colour=Colour.BLACK)
    assert black_first.rounds[0].games[0].black == 1
    assert all(g.black % 2 == 1 for g in black_first.rounds[0].games)


def test_odd_count_byes_go_to_different_bottom_players() -> None:
    players, rounds = 57, 9
    schedule = flampark_schedule(players, rounds)
    byes = [rnd.byes for rnd in schedule.rounds]
    assert all(len(b) == 1 for b in byes)
    assert byes[0][0].player == players
    sitting = [b[0].player for b in byes]
    assert len(set(sitting)) == rounds
    assert min(sitting) >= players - 2 * rounds


def test_sit_out_kind_is_configurable() -> None:
    schedule = flampark_schedule(21, 5, sit_out=ByeKind.PAIRING_ALLOCATED)
    assert {b.kind for rnd in schedule.rounds for b in rnd.byes} == {ByeKind.PAIRING_ALLOCATED}


# --- round order -------------------------------------------------------------------------


def test_round_order_plays_computed_rounds_in_any_order() -> None:
    order = [10, 3, 7, 1, 9, 2, 8, 4, 6, 5]
    plain = flampark_schedule(56, 10, kinds=FK6_KINDS)
    moved = flampark_schedule(56, 10, kinds=FK6_KINDS, round_order=order)
    assert moved.computed == tuple(order)
    for played, computed in enumerate(order, start=1):
        rnd = moved.rounds[played - 1]
        assert rnd.number == played
        assert all(g.round == played for g in rnd.games)
        assert moved.kinds[played - 1] == FK6_KINDS[computed - 1]
        pairs = {frozenset((g.white, g.black)) for g in rnd.games}
        source = plain.rounds[computed - 1]
        assert pairs == {frozenset((g.white, g.black)) for g in source.games}


def test_colours_follow_the_played_order() -> None:
    order = [5, 1, 4, 2, 3]
    schedule = flampark_schedule(40, 5, round_order=order)
    assert schedule.rounds[0].games[0].white % 2 == 1  # odd players white in round 1
    for player in range(1, 41):
        colours = [e.colour for e in schedule.card(player)]
        assert all(a is not b for a, b in itertools.pairwise(colours))


# --- rematch games ------------------------------------------------------------------------


def test_rematch_byes_pair_the_sit_outs() -> None:
    plain = flampark_schedule(62, 10, kinds=FK6_KINDS)
    schedule = flampark_schedule(62, 10, kinds=FK6_KINDS, rematch_byes=True)
    met = Counter(frozenset((w, b)) for _, w, b in _games(schedule))
    assert max(met.values()) == 1
    plain_byes = sum(len(r.byes) for r in plain.rounds)
    byes = sum(len(r.byes) for r in schedule.rounds)
    assert byes < plain_byes
    for before, after in zip(plain.rounds, schedule.rounds, strict=True):
        extra = after.games[len(before.games) :]
        sitting = {b.player for b in before.byes}
        assert all({g.white, g.black} <= sitting for g in extra)
        assert [g.table for g in after.games] == list(range(1, len(after.games) + 1))
        assert len(after.byes) == len(before.byes) - 2 * len(extra)


def test_rematch_skips_players_who_meet_elsewhere() -> None:
    # 59 players: the x8 round leaves 49..59 out; 49-50 meet in basic round 1, so 49
    # takes the nearest sit-out it never meets.
    schedule = flampark_schedule(59, 10, kinds=FK6_KINDS, rematch_byes=True)
    x8 = schedule.rounds[9]
    rematch = {frozenset((g.white, g.black)) for g in x8.games if g.white > 48}
    plain = flampark_schedule(59, 10, kinds=FK6_KINDS)
    elsewhere = {frozenset((w, b)) for _, w, b in _games(plain)}
    assert rematch and rematch.isdisjoint(elsewhere)
    assert frozenset((49, 50)) not in rematch


# --- variants -------------------------------------------------------------------------------


def test_team_variant() -> None:
    schedule = flampark_schedule(40, 9, variant="team")
    assert schedule.teams == (tuple(range(1, 41, 2)), tuple(range(2, 41, 2)))
    assert schedule.team_of(7) == 1 and schedule.team_of(8) == 2
    for _, white, black in _games(schedule):
        assert schedule.team_of(white) != schedule.team_of(black)
    with pytest.raises(FlamparkOptionError, match="odd count of 41"):
        flampark_schedule(41, 9, variant="team")
    with pytest.raises(FlamparkOptionError, match="team-mates"):
        flampark_schedule(40, 9, variant="team", kinds=["x2"] + ["basic"] * 8)
    with pytest.raises(FlamparkOptionError, match="no groups"):
        schedule.group_of(1)


@pytest.mark.parametrize(("players", "rounds"), [(40, 5), (47, 5), (30, 7), (100, 9)])
def test_group_variant(players: int, rounds: int) -> None:
    schedule = flampark_schedule(players, rounds, variant="group")
    assert schedule.groups is not None
    assert [n for group in schedule.groups for n in group] == list(range(1, players + 1))
    assert all(len(group) >= 2 * rounds for group in schedule.groups)
    assert all(len(group) == 2 * rounds for group in schedule.groups[:-1])
    for _, white, black in _games(schedule):
        assert schedule.group_of(white) == schedule.group_of(black)
    for group in schedule.groups:
        if len(group) != 2 * rounds:
            continue
        for members in (group[0::2], group[1::2]):
            sets = {frozenset(_opponents(schedule, n)) for n in members}
            assert len(sets) == 1  # one kind shares its opponents: all of the other kind
            assert sets.pop() == frozenset(group) - frozenset(members)
    with pytest.raises(FlamparkOptionError, match="no teams"):
        schedule.team_of(1)


# --- validation -------------------------------------------------------------------------------


def test_too_few_players() -> None:
    with pytest.raises(TooFewPlayersError, match=r"9 rounds need at least 18 players, got 17"):
        flampark_schedule(17, 9)
    assert issubclass(TooFewPlayersError, FlamparkScheduleError)
    assert issubclass(FlamparkScheduleError, PairingError) and issubclass(
        FlamparkScheduleError, EngineError
    )


def test_fewer_than_three_times_rounds_warns() -> None:
    schedule = flampark_schedule(20, 9)
    assert len(schedule.warnings) == 1 and "27" in schedule.warnings[0]
    assert flampark_schedule(27, 9).warnings == ()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kinds": ["basic"] * 4}, "4 round kinds given for 5 rounds"),
        ({"kinds": ["basic"] * 4 + ["x3"]}, "unknown round kind 'x3'"),
        ({"round_order": [1, 2, 3, 4, 4]}, "round_order must list"),
        ({"round_order": [1, 2, 3, 4]}, "round_order must list"),
        ({"variant": "pairs"}, "unknown variant 'pairs'"),
        ({"variant": "group", "kinds": ["x2"] + ["basic"] * 4}, "across the groups"),
    ],
)
def test_invalid_options(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(FlamparkOptionError, match=re.escape(message)):
        flampark_schedule(30, 5, **kwargs)  # type: ignore[arg-type]


def test_invalid_numbers() -> None:
    with pytest.raises(FlamparkOptionError, match="at least 1 round"):
        flampark_schedule(30, 0)
    with pytest.raises(FlamparkOptionError, match="must be an integer"):
        flampark_schedule(30, True)
    with pytest.raises(FlamparkOptionError, match="must be an integer"):
        flampark_schedule(30.0, 5)  # type: ignore[arg-type]
    with pytest.raises(FlamparkOptionError, match="not on the list"):
        flampark_schedule(30, 5).card(31)


def test_public_surface() -> None:
    import service.engine.pairing.flampark as module

    assert KINDS == ("basic", "x2", "x4", "x8")
    assert VARIANTS == ("individual", "team", "group")
    assert {"flampark_schedule", "FlamparkSchedule", "FlamparkScheduleError"} <= set(module.__all__)
    assert all(hasattr(module, name) for name in module.__all__)


def test_pairing_view_of_a_round() -> None:
    schedule = flampark_schedule(57, 10, kinds=FK6_KINDS, round_order=[10, *range(1, 10)])
    pairing = schedule.pairing(1)
    assert pairing.round == 1
    assert pairing.games == schedule.rounds[0].games
    assert [b.player for b in pairing.byes] == list(range(49, 58))
    assert pairing.notes == ("FLAMPARK x8 round, computed round 10",)
    with pytest.raises(FlamparkOptionError, match="round 11 is not in the schedule"):
        schedule.pairing(11)


def test_a_kind_mix_that_idles_players_warns_naming_them_and_the_rounds() -> None:
    """15 players, basic, basic, x2, x2: 13 and 15 sit out 3 of the 4 rounds."""
    schedule = flampark_schedule(15, 4, kinds=["basic", "basic", "x2", "x2"])
    idle: dict[int, list[int]] = {}
    for rnd in schedule.rounds:
        for bye in rnd.byes:
            idle.setdefault(bye.player, []).append(rnd.number)
    most = {p: r for p, r in idle.items() if 2 * len(r) > 4}
    assert most == {13: [2, 3, 4], 15: [1, 3, 4]}
    sit_out = [w for w in schedule.warnings if "sits out" in w]
    assert sit_out == [
        f"player {p} sits out 3 of 4 rounds (rounds {', '.join(map(str, r))}): fewer "
        "narrowing rounds (x2, x4, x8) or more players keep everyone playing"
        for p, r in sorted(most.items())
    ]
    paired = flampark_schedule(15, 4, kinds=["basic", "basic", "x2", "x2"], rematch_byes=True)
    assert not [w for w in paired.warnings if "sits out" in w]
    assert not [w for w in flampark_schedule(15, 4).warnings if "sits out" in w]
