"""FLAMPARK pairing (Formuła FLAMPARK, "System kojarzeń FLAMPARK"; docs/rules/flampark.md).

Every round is paired before round 1 from start numbers alone, by arithmetic:

* ``chains``: the basic formulas ``R_N(i)`` with the ceiling and floor bounces;
* ``kinds``: narrowing rounds x2, x4, x8, divisibility and sit-outs, groups;
* ``colours``: colours over the played order;
* ``tables``: fixed tables for even players in basic rounds;
* ``schedule``: options, variants (individual, team, group), round order, rematches.

Entry point: ``flampark_schedule(player_count, rounds, kinds=..., round_order=...,
variant=..., rematch_byes=...)`` returning a ``FlamparkSchedule``.
"""

from __future__ import annotations

from service.engine.pairing.flampark.chains import basic_opponent, basic_round, raw_opponent
from service.engine.pairing.flampark.errors import (
    FlamparkOptionError,
    FlamparkScheduleError,
    TooFewPlayersError,
)
from service.engine.pairing.flampark.kinds import KINDS, capacity, paired_count
from service.engine.pairing.flampark.schedule import (
    VARIANTS,
    CardEntry,
    FlamparkSchedule,
    flampark_schedule,
)

__all__ = [
    "KINDS",
    "VARIANTS",
    "CardEntry",
    "FlamparkOptionError",
    "FlamparkSchedule",
    "FlamparkScheduleError",
    "TooFewPlayersError",
    "basic_opponent",
    "basic_round",
    "capacity",
    "flampark_schedule",
    "paired_count",
    "raw_opponent",
]
