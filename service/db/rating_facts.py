"""A player's K-factor facts as a stored player keeps them (`players.extra`): the K the
rating list publishes, the rated games completed before the event and whether a
published rating ever reached 2400 (FIDE B.02, 2024, art. 8.3.3;
docs/rules/ratings.md#k-facts). The birth year, the fourth fact, is a column of its
own and personal data; these three are rating facts, shown to every reader.

A fact set to null is removed: the rules then name it as missing again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.db.tables import PlayerRow
from service.engine.ratings.event import PlayerFacts

__all__ = ["RATING_FACTS", "facts_by_start_number", "rating_facts_of", "with_rating_facts"]

RATING_FACTS = ("k", "games_before", "reached_2400")
"""The player fields kept in `players.extra` under these names."""


def with_rating_facts(extra: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """`extra` with the rating facts of `fields` set (a null one removed); the other
    fields are left to the caller."""
    kept = dict(extra)
    for name in RATING_FACTS:
        if name not in fields:
            continue
        if fields[name] is None:
            kept.pop(name, None)
        else:
            kept[name] = fields[name]
    return kept


def rating_facts_of(row: PlayerRow) -> dict[str, Any]:
    """The player's three facts by name, null where none is recorded."""
    return {name: row.extra.get(name) for name in RATING_FACTS}


def facts_by_start_number(players: Mapping[int, PlayerRow]) -> dict[int, PlayerFacts]:
    """The facts the rating rules read (`engine.ratings.event.PlayerFacts`) of every
    numbered player who has one recorded."""
    facts = {}
    for number, row in players.items():
        k, games, reached = (row.extra.get(name) for name in RATING_FACTS)
        if k is None and games is None and reached is None:
            continue
        facts[number] = PlayerFacts(k=k, games_before=games, reached_2400=reached)
    return facts
