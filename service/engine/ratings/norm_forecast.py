"""The last-round forecast of a title norm (FIDE B.01, 2024, art. 1.4;
docs/rules/ratings.md#last-round-forecast): with one round left, which result in it
gives the norm, against the paired opponent or, while the round is unpaired, against
an opponent of what rating, title and federation.

The conditions split by what decides them: the opponent's federation decides 1.4.3-1.4.4,
the title 1.4.5, the rating (with the result) 1.4.6-1.4.8, the result alone the score
and the game count. Each part is searched on its own: the federations the player met,
the own one and a new one; no title, a title-holder's, the norm's title; the lowest
rating from 1400 (an unrated opponent counts 1400, 1.4.6) to 2900 (above anyone's
rating) that does it. The
rating only ever helps (the adjusted floor raises one opponent, never lowers one), so
the search halves the range."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.engine.ratings.norms import (
    NO_FEDERATION,
    RANKS,
    TITLE_HOLDERS,
    Condition,
    NormCheck,
    NormEvent,
    NormOpponent,
    check_norm,
    verdict,
)

__all__ = ["RESULTS", "Forecast", "Option", "Requirement", "forecast_norm"]

RESULTS = (("loss", 0), ("draw", 1), ("win", 2))
LOWEST, HIGHEST = 1400, 2900
"""The ratings searched: the rating list's floor, and a ceiling no one has reached."""
_NEW = "*"
"""Stands for a federation the player has not met (nor is the player's own)."""
_FEDERATION = frozenset({"other_federations", "own_federation", "one_federation"})
_RATING = frozenset({"average_rating", "performance"})


@dataclass(frozen=True, slots=True)
class Requirement:
    """What an opponent not yet known must be for the result to give the norm."""

    min_rating: int | None
    """None: any rating, unrated included."""
    titles: tuple[str, ...] | None
    """The titles one of which the opponent must hold; None: no title needed."""
    new_federation: bool
    """The opponent must be of a federation neither the player's nor one met so far."""
    federations_excluded: tuple[str, ...]
    """Federations the opponent must not be of."""


@dataclass(frozen=True, slots=True)
class Option:
    """A result in the last round that gives the norm, and against whom."""

    result: str
    against: Requirement | None
    """None when the opponent is known (the paired one) or any opponent will do."""


@dataclass(frozen=True, slots=True)
class Forecast:
    """The norm's last round: `status` secured (any result, or no game, gives it),
    open (some result does: `needs` the least), out-of-reach, or unknown (facts
    missing)."""

    round: int
    opponent: int | None
    """The paired opponent's start number; None when unpaired or without a game."""
    status: str
    needs: str | None
    options: tuple[Option, ...]


def forecast_norm(
    title: str,
    federation: str | None,
    opponents: list[NormOpponent],
    *,
    event: NormEvent,
    credited: int,
    last_round: int,
    game: bool,
    opponent: tuple[int, NormOpponent] | None = None,
) -> Forecast:
    """The forecast for a player who met `opponents` over rounds 1..last_round-1.
    `game` False: no game in the last round (a bye or absence, already counted in
    `credited`); `opponent`: the paired opponent (start number, facts; its `halves`
    ignored), None while unpaired."""
    now = check_norm(title, federation, opponents, event=event, credited=credited)
    number = opponent[0] if opponent else None
    if not game:
        return Forecast(last_round, None, _status(now.met), None, ())
    if event.format == "swiss" and now.met is True:
        # 1.4.1e: outside predetermined pairings, later games may be left out.
        every = tuple(Option(r, None) for r, _ in RESULTS)
        return Forecast(last_round, number, "secured", "loss", every)
    facets: _Facets | None = None
    if opponent is None:
        # The best last game there is (a win against a 2900 of the norm's title and of
        # a new federation) decides for every result when it fails.
        best = NormOpponent(HIGHEST, title, _NEW, 2)
        top = check_norm(title, federation, [*opponents, best], event=event, credited=credited)
        if top.met is False:
            return Forecast(last_round, None, "out-of-reach", None, ())
        facets = _facets(title, federation, opponents, event, credited)
    options: list[Option] = []
    undecided = False
    for result, halves in RESULTS:
        if opponent is not None:
            facts = opponent[1]
            extra = NormOpponent(facts.rating, facts.title, facts.federation, halves)
            met = check_norm(
                title, federation, [*opponents, extra], event=event, credited=credited
            ).met
            option = Option(result, None) if met else None
        else:
            assert facets is not None
            option, met = _unknown(
                title, federation, opponents, event, credited, facets, result, halves
            )
        undecided = undecided or met is None
        if option is not None:
            options.append(option)
    if options:
        status = "secured" if len(options) == len(RESULTS) and not options[0].against else "open"
        return Forecast(last_round, number, status, options[0].result, tuple(options))
    return Forecast(last_round, number, "unknown" if undecided else "out-of-reach", None, ())


def _status(met: bool | None) -> str:
    return {True: "secured", False: "out-of-reach", None: "unknown"}[met]


def _part(check: NormCheck, names: Callable[[str], bool]) -> bool | None:
    return verdict([c for c in check.conditions if names(c.name)])


@dataclass(frozen=True, slots=True)
class _Facets:
    """The federations and titles of an unknown opponent that do it (whatever the
    result: neither part reads the score)."""

    federations: dict[str, bool | None]
    titles: dict[str | None, bool | None]
    best_federation: str

    def verdict(self) -> bool | None:
        return verdict(
            [
                Condition("", None, "", _any(list(self.federations.values()))),
                Condition("", None, "", _any(list(self.titles.values()))),
            ]
        )


def _facets(
    title: str,
    federation: str | None,
    opponents: list[NormOpponent],
    event: NormEvent,
    credited: int,
) -> _Facets:
    def trial(holds: str | None, fed: str) -> NormCheck:
        extra = NormOpponent(HIGHEST, holds, fed, 2)
        return check_norm(title, federation, [*opponents, extra], event=event, credited=credited)

    met_feds = sorted(
        {(o.federation or "").upper() for o in opponents}
        - {NO_FEDERATION, "", (federation or "").upper()}
    )
    candidates = ([federation.upper()] if federation else []) + met_feds + [_NEW]
    fed_ok = {c: _part(trial(title, c), _FEDERATION.__contains__) for c in candidates}
    good = [c for c, ok in fed_ok.items() if ok]
    best = good[0] if good else _NEW
    title_ok = {
        holds: _part(trial(holds, best), _is_title_condition) for holds in (None, "FM", title)
    }
    return _Facets(fed_ok, title_ok, best)


def _unknown(
    title: str,
    federation: str | None,
    opponents: list[NormOpponent],
    event: NormEvent,
    credited: int,
    facets: _Facets,
    result: str,
    halves: int,
) -> tuple[Option | None, bool | None]:
    """One result against an opponent not yet known: the option, if any, and whether
    it was decided (None: facts missing)."""

    def trial(rating: int) -> NormCheck:
        extra = NormOpponent(rating, title, facets.best_federation, halves)
        return check_norm(title, federation, [*opponents, extra], event=event, credited=credited)

    top = trial(HIGHEST)
    rest = _part(
        top, lambda n: n not in _FEDERATION and n not in _RATING and not _is_title_condition(n)
    )
    decided = [facets.verdict(), rest, _part(top, _RATING.__contains__)]
    met = verdict([Condition("", None, "", d) for d in decided])
    if met is not True:
        return None, met
    lowest = _lowest_rating(lambda r: _part(trial(r), _RATING.__contains__))
    titles: tuple[str, ...] | None = None
    if not facets.titles[None]:
        titles = (
            tuple(sorted(TITLE_HOLDERS)) if facets.titles["FM"] else tuple(sorted(RANKS[title]))
        )
    known = [c for c in facets.federations if c != _NEW]
    new_needed = not any(facets.federations[c] for c in known)
    excluded = () if new_needed else tuple(c for c in known if not facets.federations[c])
    if lowest is None and titles is None and not new_needed and not excluded:
        return Option(result, None), True
    return Option(result, Requirement(lowest, titles, new_needed, excluded)), True


def _is_title_condition(name: str) -> bool:
    return name == "titled_opponents" or name.endswith("_opponents")


def _any(values: list[bool | None]) -> bool | None:
    """True when one candidate does it, None when one is undecided, else False."""
    return True if True in values else (None if None in values else False)


def _lowest_rating(ok: Callable[[int], bool | None]) -> int | None:
    """The lowest rating in [1400, 2900] for which `ok` holds (it holds at 2900);
    None when 1400 does."""
    if ok(LOWEST):
        return None
    low, high = LOWEST, HIGHEST
    while high - low > 1:
        middle = (low + high) // 2
        if ok(middle):
            high = middle
        else:
            low = middle
    return high
