"""The development coefficient K (FIDE B.02, 2024, art. 8.3.3 and its last paragraph).

K = 40 for a player new to the rating list until they have completed 30 games; 40 for
a player until the end of the year of their 18th birthday while their rating is under
2300; 20 while the rating stays under 2400; 10 once the published rating has reached
2400, even if it drops below later. When K times the number of games rated (n)
exceeds 700, K is the largest whole number with K x n <= 700.

Readings (docs/rules/ratings.md#k): K is decided once per event, from what was true
at its start (rating, games completed before it); the K = 10 rule, being permanent,
is applied before the two K = 40 rules; a fact the rules need and the input lacks is
reported as missing, never assumed."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KFactor", "capped", "development_coefficient", "is_junior"]

K_CAP = 700
"""K x n may not exceed this (art. 8.3.3, last paragraph)."""


@dataclass(frozen=True, slots=True)
class KFactor:
    """K, the rule that gave it, or the facts that were missing to decide it."""

    k: int | None
    rule: str
    """`given`, `reached-2400`, `junior`, `new-player` or `standard`; empty if missing."""
    missing: tuple[str, ...] = ()


def is_junior(birth_year: int | None, year: int | None) -> bool | None:
    """Whether the event's year is at most the year of the player's 18th birthday
    (art. 8.3.3: K = 40 "until the end of the year of their 18th birthday"); None
    when either year is unknown."""
    if birth_year is None or year is None:
        return None
    return year <= birth_year + 18


def development_coefficient(
    rating: int,
    *,
    k: int | None = None,
    games_before: int | None = None,
    reached_2400: bool | None = None,
    birth_year: int | None = None,
    year: int | None = None,
) -> KFactor:
    """K of a rated player at the start of an event (before the 700 cap, `capped`).

    `k`: the coefficient the caller knows (the rating list's), taken as given;
    `games_before`: rated games completed before the event; `reached_2400`: whether a
    published rating of the player ever reached 2400 (a rating of 2400 or more now
    answers it); `birth_year` and `year` (the event's) decide the junior rule."""
    if k is not None:
        return KFactor(k, "given")
    if rating >= 2400 or reached_2400:
        return KFactor(10, "reached-2400")
    missing: list[str] = []
    if reached_2400 is None:
        missing.append("reached_2400")
    junior = is_junior(birth_year, year)
    if rating < 2300 and junior:
        return _or_missing(40, "junior", missing)
    if games_before is not None and games_before < 30:
        return _or_missing(40, "new-player", missing)
    if games_before is None:
        missing.append("games_before")
    if rating < 2300 and junior is None:
        missing.append("birth_year" if birth_year is None else "year")
    return _or_missing(20, "standard", missing)


def _or_missing(k: int, rule: str, missing: list[str]) -> KFactor:
    return KFactor(None, "", tuple(missing)) if missing else KFactor(k, rule)


def capped(k: int, games: int) -> int:
    """Art. 8.3.3 (last paragraph): the largest whole K' <= k with K' x games <= 700."""
    if games and k * games > K_CAP:
        return K_CAP // games
    return k
