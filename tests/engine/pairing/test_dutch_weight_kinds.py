"""Weights computed once per pair of kinds (weights.py `WeightContext.weight`).

A pair's weight depends on what the weight function reads of the two players, so
players alike in all of it share their weights with any third player. The cache is
exact only if the kind holds everything the function reads: every weight the engine
asks for while it re-pairs reference tournaments (both editions, odd fields, byes,
forfeits, the 2017 collapsed last bracket) is compared with the weight computed
afresh.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable

import pytest

from service.engine.model import Colour
from service.engine.pairing.dutch.players import SwissPlayer
from service.engine.pairing.dutch.weights import _KIND_FIELDS, WeightContext, _Info
from tests.engine.pairing.reference import reference_files, repaired_rounds

Weight = Callable[[WeightContext, SwissPlayer, SwissPlayer, bool, bool], int]


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every weight asked for, one at a time (`weight`) or a row at a time (`weights`),
    checked against the weight computed afresh."""
    counts: Counter[str] = Counter()
    cached: Weight = WeightContext.weight
    cached_row = WeightContext.weights

    def check(
        ctx: WeightContext, higher: SwissPlayer, lower: SwissPlayer, cur: bool, nxt: bool, got: int
    ) -> None:
        hi, lo = ctx.info[higher.number], ctx.info[lower.number]
        if ctx.compatible(higher, lower):
            assert got == ctx._weight_of(hi, lo, cur, nxt)
            counts["weights"] += 1
            counts["same kind"] += hi.kind == lo.kind
            counts["psd"] += ctx.psd_mode
        else:
            assert got == 0

    def spy(
        ctx: WeightContext, higher: SwissPlayer, lower: SwissPlayer, cur: bool, nxt: bool
    ) -> int:
        got = cached(ctx, higher, lower, cur, nxt)
        check(ctx, higher, lower, cur, nxt, got)
        return got

    def spy_row(
        ctx: WeightContext, highers: list[SwissPlayer], lower: SwissPlayer, cur: bool, nxt: bool
    ) -> list[int]:
        row = cached_row(ctx, highers, lower, cur, nxt)
        assert len(row) == len(highers)
        for higher, got in zip(highers, row, strict=True):
            check(ctx, higher, lower, cur, nxt, got)
        return row

    monkeypatch.setattr(WeightContext, "weight", spy)
    monkeypatch.setattr(WeightContext, "weights", spy_row)
    return counts


@pytest.mark.parametrize("rules", ["dutch-2026", "dutch-2017"])
def test_every_weight_asked_for_is_the_weight_computed_afresh(
    rules: str, compared: Counter[str]
) -> None:
    names = reference_files(max_players=40)[:30]
    rounds = sum(1 for name in names for _ in repaired_rounds(name, rules))
    assert rounds > 100
    assert compared["weights"] > 10_000
    assert compared["same kind"] > 0
    if rules == "dutch-2017":
        assert compared["psd"] > 0  # the collapsed last bracket was weighed


def test_players_of_one_kind_weigh_alike_whatever_their_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Most fields seldom decide a weight in real rounds (two players with the same
    absolute preference meet only in the final round, with a topscorer), so the
    reference rounds above may never tell one value from another. Here every field
    the weight function reads is drawn at random for a real round's players, final
    round and topscorers included, and every pair is weighed both ways."""
    contexts: list[WeightContext] = []
    build = WeightContext.__init__

    def spy(ctx: WeightContext, *args: object, **kwargs: object) -> None:
        build(ctx, *args, **kwargs)  # type: ignore[arg-type]
        contexts.append(ctx)

    monkeypatch.setattr(WeightContext, "__init__", spy)
    for _ in repaired_rounds("v0009.trf"):  # 49 players, 7 rounds
        pass
    ctx = contexts[-1]  # the last round: every float field in use
    rng = random.Random(11)
    infos = list(ctx.info.values())
    levels = [(info.score, info.s, info.shift) for info in infos]

    def draw() -> dict[str, object]:
        return {
            "level": rng.choice(levels),
            "bye_candidate": rng.random() < 0.5,
            "bye_rank": rng.randrange(3),
            "down1": rng.random() < 0.3,
            "up1": rng.random() < 0.3,
            "down2": rng.random() < 0.3,
            "up2": rng.random() < 0.3,
            "topscorer": rng.random() < 0.5,
            "imbalance": rng.randrange(4),
            "repeated": rng.choice([Colour.WHITE, Colour.BLACK, None]),
            "pref": rng.choice([Colour.WHITE, Colour.BLACK, None]),
            "strong": rng.random() < 0.5,
        }

    # a few kinds of player, and for each kind and field a twin that differs from it in
    # that field alone: a field the kind left out would put twins who weigh
    # differently into one kind
    bases = [draw() for _ in range(3)]
    raws = list(bases)
    for base in bases:
        for field in base:
            twin = dict(base)
            while twin[field] == base[field]:
                twin[field] = draw()[field]
            raws.append(twin)
    assert len(raws) <= len(infos)
    for info, raw in zip(infos, raws + bases * len(infos), strict=False):
        info.score, info.s, info.shift = raw["level"]  # type: ignore[misc]
        info.bye_candidate = bool(raw["bye_candidate"])
        info.bye_rank = int(raw["bye_rank"])  # type: ignore[call-overload]
        info.down1, info.up1 = bool(raw["down1"]), bool(raw["up1"])
        info.down2, info.up2 = bool(raw["down2"]), bool(raw["up2"])
        info.topscorer = bool(raw["topscorer"])
        # colours as art. 1.7 makes them: an absolute preference from a difference
        # beyond one or the same colour twice, always for a colour
        info.imbalance = int(raw["imbalance"])  # type: ignore[call-overload]
        info.repeated = raw["repeated"]
        info.absolute_imbalance = info.imbalance > 1
        info.absolute = info.absolute_imbalance or info.repeated is not None
        info.pref = raw["pref"] or (Colour.WHITE if info.absolute else None)
        info.mild_or_none = not raw["strong"] and not info.absolute
        info.forbidden = frozenset()
    ctx.final_round = True
    ctx._sort_kinds()
    players = ctx.players
    weighed = 0
    for single in (False, True):
        ctx.single_downfloater_is_bye = single
        for i, lower in enumerate(players):
            for higher in players[:i]:
                if not ctx.compatible(higher, lower):
                    continue
                hi, lo = ctx.info[higher.number], ctx.info[lower.number]
                for cur, nxt in ((True, False), (False, True), (False, False)):
                    assert ctx.weight(higher, lower, cur, nxt) == ctx._weight_of(hi, lo, cur, nxt)
                    weighed += 1
    assert weighed > 1_000
    assert ctx._kinds < len(players)  # some players share a kind


def test_the_kind_holds_every_field_but_those_of_meeting() -> None:
    """A field added to the per-player values must be sorted: into the kind, or among
    those that only decide whether two players may meet."""
    meeting = {"forbidden", "topscorer"}
    derived = {"score", "kind"}  # score is s unscaled; kind is the result
    every = {f.name for f in dataclasses.fields(_Info)}
    assert set(_KIND_FIELDS) == every - meeting - derived
