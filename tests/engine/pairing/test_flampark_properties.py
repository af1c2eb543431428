"""FLAMPARK invariants over player counts 2 x rounds .. 400, 3 .. 13 rounds, any mix."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.model import Colour
from service.engine.pairing.flampark import (
    KINDS,
    FlamparkOptionError,
    FlamparkSchedule,
    capacity,
    flampark_schedule,
    paired_count,
)

FACTORS = {"basic": 1, "x2": 2, "x4": 4, "x8": 8}


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, list[str], list[int]]:
    rounds = draw(st.integers(3, 13))
    players = draw(st.integers(2 * rounds, 400))
    weights = draw(st.sampled_from(["mixed", "basic-heavy", "narrow"]))
    pool = {"mixed": KINDS, "basic-heavy": ("basic",) * 3 + KINDS, "narrow": KINDS[1:]}[weights]
    kinds = draw(st.lists(st.sampled_from(pool), min_size=rounds, max_size=rounds))
    order = draw(st.permutations(list(range(1, rounds + 1))))
    return players, rounds, kinds, list(order)


def _fits(players: int, kinds: list[str]) -> bool:
    return all(n <= capacity(players, FACTORS[k]) for k, n in Counter(kinds).items())


def _check_valid(schedule: FlamparkSchedule, players: int, rounds: int) -> None:
    assert len(schedule.rounds) == rounds
    met: Counter[frozenset[int]] = Counter()
    for number, rnd in enumerate(schedule.rounds, start=1):
        assert rnd.number == number
        seen = [p for g in rnd.games for p in (g.white, g.black)] + [b.player for b in rnd.byes]
        assert sorted(seen) == list(range(1, players + 1))
        assert sorted(g.table for g in rnd.games) == list(range(1, len(rnd.games) + 1))
        assert all(g.round == number and g.result is None for g in rnd.games)
        met.update(frozenset((g.white, g.black)) for g in rnd.games)
    assert not met or max(met.values()) == 1


@settings(max_examples=150, deadline=None)
@given(setups(), st.booleans(), st.sampled_from([Colour.WHITE, Colour.BLACK]))
def test_every_schedule_is_valid(
    setup: tuple[int, int, list[str], list[int]], rematch: bool, top: Colour
) -> None:
    players, rounds, kinds, order = setup
    if not _fits(players, kinds):
        try:
            flampark_schedule(players, rounds, kinds=kinds, round_order=order)
        except FlamparkOptionError as error:
            assert "rounds asked" in str(error)
        else:
            raise AssertionError("a mix beyond capacity must be refused")
        return
    schedule = flampark_schedule(
        players, rounds, kinds=kinds, round_order=order, rematch_byes=rematch, top_colour=top
    )
    _check_valid(schedule, players, rounds)
    assert schedule.kinds == tuple(kinds[c - 1] for c in order)
    few = [w for w in schedule.warnings if "sensible minimum" in w]
    assert (players < 3 * rounds) == bool(few)
    idle: Counter[int] = Counter(b.player for rnd in schedule.rounds for b in rnd.byes)
    named = {int(w.split()[1]) for w in schedule.warnings if "sits out" in w}
    assert named == {p for p, n in idle.items() if 2 * n > rounds}
    assert len(schedule.warnings) == len(few) + len(named)
    # The t-th round of a kind: chain games differ by factor x odd, at most factor x (4 t//2 + 1).
    seen_kind: dict[int, int] = {}
    counts: Counter[str] = Counter()
    for computed in range(1, rounds + 1):
        counts[kinds[computed - 1]] += 1
        seen_kind[computed] = counts[kinds[computed - 1]]
    for rnd, computed in zip(schedule.rounds, order, strict=True):
        kind = kinds[computed - 1]
        factor = FACTORS[kind]
        paired = paired_count(players, factor)
        bound = factor * (4 * (seen_kind[computed] // 2) + 1)
        bottom = set(range(paired + 1, players + 1))
        for game in rnd.games:
            gap = abs(game.white - game.black)
            if game.white <= paired and game.black <= paired:
                assert gap % (2 * factor) == factor
                assert gap <= bound
            else:
                assert rematch and {game.white, game.black} <= bottom
        byes = {b.player for b in rnd.byes}
        if factor == 1:
            assert len(byes) == players % 2
            assert all(b >= players - 2 * rounds for b in byes)
        elif rematch:
            assert byes <= bottom
        else:
            assert byes == bottom
    # Colours: nobody has one colour three games running (see the colours module).
    for player in range(1, players + 1):
        colours = [e.colour for e in schedule.card(player) if e.colour is not None]
        assert all(
            not colours[i] == colours[i - 1] == colours[i - 2] for i in range(2, len(colours))
        )
    again = flampark_schedule(
        players, rounds, kinds=kinds, round_order=order, rematch_byes=rematch, top_colour=top
    )
    assert again == schedule


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 13).flatmap(lambda r: st.tuples(st.just(r), st.integers(2 * r, 400))))
def test_basic_schedules_alternate_colours(setup: tuple[int, int]) -> None:
    rounds, players = setup
    schedule = flampark_schedule(players, rounds)
    for player in range(1, players + 1):
        colours = [e.colour for e in schedule.card(player)]
        for i in range(1, len(colours)):
            if colours[i] is not None and colours[i - 1] is not None:
                assert colours[i] is not colours[i - 1]
    for rnd in schedule.rounds:
        for game in rnd.games:
            even = game.white if game.white % 2 == 0 else game.black
            assert game.table == even // 2


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 13).flatmap(lambda r: st.tuples(st.just(r), st.integers(r, 200))),
    st.sampled_from(["team", "group"]),
)
def test_team_and_group_variants(setup: tuple[int, int], variant: str) -> None:
    rounds, half = setup
    players = 2 * half if variant == "team" else 2 * half + half % 2
    schedule = flampark_schedule(players, rounds, variant=variant)
    _check_valid(schedule, players, rounds)
    for rnd in schedule.rounds:
        for game in rnd.games:
            if variant == "team":
                assert schedule.team_of(game.white) != schedule.team_of(game.black)
            else:
                assert schedule.group_of(game.white) == schedule.group_of(game.black)
