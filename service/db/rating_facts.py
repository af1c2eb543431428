"""A player's facts from the rating list as a stored player keeps them (`players.extra`):
the FIDE title (the norms count titled opponents, FIDE B.01 1.4.4; titles rank players
of equal rating, C.04.2) and the K-factor facts: the K the rating list publishes, the
rated games completed before the event and whether a published rating ever reached
2400 (FIDE B.02, 2024, art. 8.3.3; docs/rules/ratings.md#k-facts). The birth year, the
last K fact, is a column of its own and personal data; these are published facts,
shown to every reader.

A fact set to null is removed: the rules then name it as missing again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.db.tables import PlayerRow
from service.engine.ratings.event import PlayerFacts

__all__ = [
    "K_FACTS",
    "RATING_FACTS",
    "facts_by_start_number",
    "rating_facts_of",
    "with_rating_facts",
]

K_FACTS = ("k", "games_before", "reached_2400")
"""The K-factor facts (B.02 8.3.3) a player may record."""
RATING_FACTS = ("title", *K_FACTS)
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


def title_of(extra: Mapping[str, Any]) -> str | None:
    """The player's FIDE title: the one recorded through the API, else the imported
    file's (TRF 001 cols 11-13, kept with the file's other fields)."""
    title = extra.get("title") or (extra.get("trf") or {}).get("title")
    return str(title) if title else None


def rating_facts_of(row: PlayerRow) -> dict[str, Any]:
    """The player's facts by name, null where none is recorded."""
    return {name: row.extra.get(name) for name in K_FACTS} | {"title": title_of(row.extra)}


def facts_by_start_number(players: Mapping[int, PlayerRow]) -> dict[int, PlayerFacts]:
    """The facts the rating rules read (`engine.ratings.event.PlayerFacts`) of every
    numbered player who has one recorded."""
    facts = {}
    for number, row in players.items():
        k, games, reached = (row.extra.get(name) for name in K_FACTS)
        if k is None and games is None and reached is None:
            continue
        facts[number] = PlayerFacts(k=k, games_before=games, reached_2400=reached)
    return facts
