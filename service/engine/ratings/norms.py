"""Title norm conditions of one player in one event (FIDE B.01, title regulations
applied from 1 January 2024, art. 1.4; docs/rules/ratings.md#norms).

For each title (GM, IM, WGM, WIM), with its figures:

* at least 9 games played over the board (1.4.1a; forfeits do not count, 1.4.2c); 7
  in a World or Continental Team or Club Championship of 7 to 9 rounds and 8 in a
  World Cup (1.4.1b); 8 in a 9-round event whose ninth round was a forfeit win or a
  pairing-allocated bye (1.4.1c);
* opponents from at least 2 federations other than the player's (1.4.3); at most 3/5
  of them from the player's own federation and at most 2/3 from any one federation
  (1.4.4); FID is accepted but counts as no federation (1.4.2a). Exempt (1.4.3a-d):
  the host federation's players in its national championship or national team
  championship, zonal and sub-zonal tournaments, and a Swiss event whose field
  qualifies under 1.4.3d (`NormEvent.swiss_exemption`, computed in `norm_event`);
* at least half of the opponents title-holders, CM and WCM not counting (1.4.5a);
* at least a third of them, and at least 3, holding the norm's title or a higher one
  (1.4.5b-e); a double round-robin needs at least 6 players (1.4.5);
* an average rating of the opponents (1.4.6, 1.4.7) of at least 2380, 2230, 2180 or
  2030 (1.4.8a), a score of at least 35 % (1.4.8b) and a performance rating of at
  least 2600, 2450, 2400 or 2250 (1.4.8, `performance`).

Minimum shares are rounded up and maximum shares down (1.4.4): comparing exactly does
both. Opponents are counted per game (an opponent met twice counts twice); a blank
title is no title; a blank federation is unknown, and the federation conditions then
name what is missing instead of answering met or not."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from service.engine.ratings.performance import ADJUSTED_FLOOR, norm_performance

__all__ = [
    "EVENT_KINDS",
    "FORMATS",
    "Condition",
    "ExcludedGame",
    "NormCheck",
    "NormEvent",
    "NormOpponent",
    "check_norm",
    "check_norms",
    "norm_titles",
]

MIN_GAMES = 9
TITLE_HOLDERS = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})
RANKS = {
    "GM": frozenset({"GM"}),
    "IM": frozenset({"GM", "IM"}),
    "WGM": frozenset({"GM", "IM", "WGM"}),
    "WIM": frozenset({"GM", "IM", "WGM", "WIM"}),
}
MIN_AVERAGE = {"GM": 2380, "IM": 2230, "WGM": 2180, "WIM": 2030}
MIN_PERFORMANCE = {"GM": 2600, "IM": 2450, "WGM": 2400, "WIM": 2250}
MIN_PERCENT = 35
NO_FEDERATION = "FID"
WOMEN_TITLES = frozenset({"WGM", "WIM"})
DOUBLE_ROUND_ROBIN_PLAYERS = 6

EVENT_KINDS = (
    "ordinary",
    "national-championship",
    "national-team-championship",
    "zonal",
    "team-championship",
    "world-cup",
)
"""What B.01 distinguishes: `national-championship` (final stage, open/men's or
women's, 1.4.3a), `national-team-championship` (1.4.3b), `zonal` (zonal or sub-zonal,
1.4.3c), `team-championship` (World or Continental Team or Club Championship, 1.4.1b),
`world-cup` (World Cup or Women's World Cup, 1.4.1b); `ordinary` is every other event
and the default."""
FORMATS = ("swiss", "round-robin", "double-round-robin")

_HOST_EXEMPTIONS = {
    "national-championship": "1.4.3a national championship",
    "national-team-championship": "1.4.3b national team championship",
}


@dataclass(frozen=True, slots=True)
class NormEvent:
    """What the norm rules read of the event itself (all optional: the default is an
    ordinary event of unknown format, read strictly)."""

    kind: str = "ordinary"
    format: str | None = None
    """swiss, round-robin, double-round-robin; None when unknown."""
    host_federation: str | None = None
    """The federation that registered the event (1.4.3a-b, 1.4.3d)."""
    rounds: int | None = None
    """The event's rounds (1.4.1b, 1.4.1c)."""
    players: int | None = None
    """The field's size (a double round-robin's 6, 1.4.5)."""
    swiss_exemption: bool | None = None
    """Whether the field qualifies under 1.4.3d (`norm_event.swiss_exemption`)."""


@dataclass(frozen=True, slots=True)
class NormOpponent:
    """What the norm rules read of an opponent met over the board."""

    rating: int
    """0 = unrated."""
    title: str | None
    federation: str | None
    halves: int
    """The norm seeker's score against this opponent, in halves."""


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition: its figure, what is required, whether it is met (None: the input
    lacks what it needs, named in `missing`); `exempt` names the article that waives
    it (the condition is then met whatever its figure)."""

    name: str
    value: float | int | None
    required: str
    met: bool | None
    missing: tuple[str, ...] = ()
    exempt: str = ""


@dataclass(frozen=True, slots=True)
class ExcludedGame:
    """A game left out of a norm by 1.4.1f: its round and the beaten opponent's start
    number."""

    round: int
    opponent: int


@dataclass(frozen=True, slots=True)
class NormCheck:
    """One title's norm: met when every condition is; `excluded` names the games left
    out to make it (1.4.1f, `norm_exclusion`)."""

    title: str
    met: bool | None
    conditions: tuple[Condition, ...]
    excluded: tuple[ExcludedGame, ...] = ()


def norm_titles(sex: str | None) -> list[str]:
    """GM and IM, and WGM and WIM unless the player is a man (`sex` "m"; the women's
    titles of B.01 0.3.1 are women's; an unknown sex gets all four)."""
    return [t for t in MIN_PERFORMANCE if sex != "m" or t not in WOMEN_TITLES]


def check_norms(
    federation: str | None,
    opponents: list[NormOpponent],
    *,
    sex: str | None = None,
    event: NormEvent | None = None,
    credited: int = 0,
) -> tuple[NormCheck, ...]:
    """The norms of a player of `federation` who met `opponents` over the board;
    `credited`: the player's rounds won by forfeit or given a pairing-allocated bye
    (1.4.1c)."""
    return tuple(
        check_norm(title, federation, opponents, event=event, credited=credited)
        for title in norm_titles(sex)
    )


def check_norm(
    title: str,
    federation: str | None,
    opponents: list[NormOpponent],
    *,
    event: NormEvent | None = None,
    credited: int = 0,
) -> NormCheck:
    """One title's norm (the conditions of the module's docstring)."""
    event = event or NormEvent()
    count = len(opponents)
    titled = sum(1 for o in opponents if (o.title or "").upper() in TITLE_HOLDERS)
    ranked = sum(1 for o in opponents if (o.title or "").upper() in RANKS[title])
    conditions = [
        _games(count, event, credited),
        *_field(event),
        *_federations(federation, opponents, event),
        Condition("titled_opponents", titled, ">= 1/2 of the opponents", 2 * titled >= count),
        Condition(
            f"{title}_opponents",
            ranked,
            f">= 1/3 of the opponents and >= 3 ({'/'.join(sorted(RANKS[title]))})",
            3 * ranked >= count and ranked >= 3,
        ),
    ]
    figures = norm_performance(
        [o.rating for o in opponents], sum(o.halves for o in opponents), ADJUSTED_FLOOR[title]
    )
    average = figures.average if figures else None
    performance = figures.performance if figures else None
    percent = figures.percent if figures else None
    conditions.append(
        Condition(
            "average_rating",
            average,
            f">= {MIN_AVERAGE[title]}",
            average is not None and average >= MIN_AVERAGE[title],
        )
    )
    conditions.append(
        Condition(
            "score_percent",
            percent,
            f">= {MIN_PERCENT}",
            percent is not None and percent >= MIN_PERCENT,
        )
    )
    conditions.append(
        Condition(
            "performance",
            performance,
            f">= {MIN_PERFORMANCE[title]}",
            performance is not None and performance >= MIN_PERFORMANCE[title],
        )
    )
    return NormCheck(title, verdict(conditions), tuple(conditions))


def verdict(conditions: list[Condition] | tuple[Condition, ...]) -> bool | None:
    """False when a condition fails, None when one is undecided, else True."""
    verdicts = [c.met for c in conditions]
    return False if False in verdicts else (None if None in verdicts else True)


def min_games(event: NormEvent, credited: int) -> tuple[int, str]:
    """The games the event requires and the article saying so (1.4.1a-c)."""
    if event.kind == "team-championship" and event.rounds in (7, 8, 9):
        return 7, "1.4.1b: 7-9 round World/Continental Team or Club Championship"
    if event.kind == "world-cup":
        return 8, "1.4.1b: World Cup, counting as 9"
    if event.rounds == MIN_GAMES and credited >= 1:
        return 8, "1.4.1c: 9 rounds, one a forfeit win or pairing-allocated bye"
    return MIN_GAMES, "1.4.1a"


def _games(count: int, event: NormEvent, credited: int) -> Condition:
    need, source = min_games(event, credited)
    return Condition("games", count, f">= {need} ({source})", count >= need)


def _field(event: NormEvent) -> list[Condition]:
    """A double round-robin's field of at least 6 (1.4.5)."""
    if event.format != "double-round-robin":
        return []
    players = event.players
    return [
        Condition(
            "players",
            players,
            f">= {DOUBLE_ROUND_ROBIN_PLAYERS} (1.4.5: double round-robin)",
            None if players is None else players >= DOUBLE_ROUND_ROBIN_PLAYERS,
            () if players is not None else ("players",),
        )
    ]


def exemption(federation: str | None, event: NormEvent) -> tuple[str, tuple[str, ...]]:
    """The article waiving the federation rules (1.4.3a-d) for this player, "" when
    none does; with the facts missing to decide."""
    if event.kind == "zonal":
        return "1.4.3c zonal or sub-zonal tournament", ()
    if event.kind in _HOST_EXEMPTIONS:
        if not event.host_federation or not federation:
            missing = ("host_federation",) if not event.host_federation else ()
            return "", missing + (("federation",) if not federation else ())
        if event.host_federation.upper() == federation.upper():
            return _HOST_EXEMPTIONS[event.kind], ()
    if event.format == "swiss" and event.swiss_exemption:
        return "1.4.3d Swiss event with >= 20 foreign rated players, 3 federations, 10 titled", ()
    return "", ()


def _federations(
    federation: str | None, opponents: list[NormOpponent], event: NormEvent
) -> list[Condition]:
    """Other federations >= 2, own <= 3/5, any one <= 2/3, unless exempt."""
    count = len(opponents)
    names = ("other_federations", "own_federation", "one_federation")
    required = (">= 2", "<= 3/5 of the opponents", "<= 2/3 of the opponents")
    waived, undecided = exemption(federation, event)
    unknown = sum(1 for o in opponents if not o.federation)
    missing = (("federation",) if not federation else ()) + (
        ("opponents' federation",) if unknown else ()
    )
    if waived and missing:
        return [
            Condition(n, None, r, True, exempt=waived) for n, r in zip(names, required, strict=True)
        ]
    if not waived and (missing or undecided):
        every = tuple(dict.fromkeys(undecided + missing))
        return [Condition(n, None, r, None, every) for n, r in zip(names, required, strict=True)]
    feds = Counter((o.federation or "").upper() for o in opponents)
    feds.pop(NO_FEDERATION, None)
    own = feds.get((federation or "").upper(), 0)
    others = len([f for f in feds if f != (federation or "").upper()])
    largest = max(feds.values(), default=0)
    verdicts = (others >= 2, 5 * own <= 3 * count, 3 * largest <= 2 * count)
    return [
        Condition(name, value, need, True if waived else ok, exempt=waived)
        for name, value, need, ok in zip(
            names, (others, own, largest), required, verdicts, strict=True
        )
    ]
