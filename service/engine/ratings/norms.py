"""Title norm conditions of one player in one event (FIDE B.01, title regulations
applied from 1 January 2024, art. 1.4).

For each title (GM, IM, WGM, WIM), with its figures:

* at least 9 games played over the board (1.4.1; forfeits do not count, 1.4.2c);
* opponents from at least 2 federations other than the player's (1.4.3); at most 3/5
  of them from the player's own federation and at most 2/3 from any one federation
  (1.4.4); FID (no federation) is accepted but counts as no federation;
* at least half of the opponents title-holders, CM and WCM not counting (1.4.5a);
* at least a third of them, and at least 3, holding the norm's title or a higher one
  (1.4.5b-e: GM: GM; IM: GM, IM; WGM: GM, IM, WGM; WIM: GM, IM, WGM, WIM);
* an average rating of the opponents (1.4.6, 1.4.7) of at least 2380, 2230, 2180 or
  2030 (1.4.8a);
* a score of at least 35 % (1.4.8b), the percentage rounded as 1.4.9 says;
* a performance rating of at least 2600, 2450, 2400 or 2250 (1.4.8, `performance`).

Minimum shares are rounded up and maximum shares down (1.4.4): comparing exactly does
both. Readings (docs/rules/ratings.md#norms): opponents are counted per game (an
opponent met twice counts twice); the exemptions and concessions of B.01 (the
federation rules waived in national championships, zonals and large Swiss events,
1.4.3a-d; 7 or 8 games in some events, 1.4.1; the halved title counts of a double
round-robin, 1.4.5; an unrated round-robin player scoring zero, 1.4.2b) are not
applied: the figures say what this event's games give; a blank title is no title; a
blank federation is unknown, and the federation conditions then name what is missing
instead of answering met or not."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from service.engine.ratings.performance import ADJUSTED_FLOOR, norm_performance

__all__ = ["Condition", "NormCheck", "NormOpponent", "check_norms"]

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
    lacks what it needs, named in `missing`)."""

    name: str
    value: float | int | None
    required: str
    met: bool | None
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NormCheck:
    """One title's norm: met when every condition is."""

    title: str
    met: bool | None
    conditions: tuple[Condition, ...]


WOMEN_TITLES = frozenset({"WGM", "WIM"})


def check_norms(
    federation: str | None, opponents: list[NormOpponent], *, sex: str | None = None
) -> tuple[NormCheck, ...]:
    """The norms of a player of `federation` who met `opponents` over the board: GM and
    IM, and WGM and WIM unless the player is a man (`sex` "m"; the women's titles of
    B.01 0.3.1 are women's; an unknown sex gets all four)."""
    titles = [t for t in MIN_PERFORMANCE if sex != "m" or t not in WOMEN_TITLES]
    return tuple(_check(title, federation, opponents) for title in titles)


def _check(title: str, federation: str | None, opponents: list[NormOpponent]) -> NormCheck:
    count = len(opponents)
    titled = sum(1 for o in opponents if (o.title or "").upper() in TITLE_HOLDERS)
    ranked = sum(1 for o in opponents if (o.title or "").upper() in RANKS[title])
    conditions = [
        Condition("games", count, f">= {MIN_GAMES}", count >= MIN_GAMES),
        *_federations(federation, opponents),
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
    verdicts = [c.met for c in conditions]
    met = False if False in verdicts else (None if None in verdicts else True)
    return NormCheck(title, met, tuple(conditions))


def _federations(federation: str | None, opponents: list[NormOpponent]) -> list[Condition]:
    """Other federations >= 2, own <= 3/5, any one <= 2/3."""
    count = len(opponents)
    names = ("other_federations", "own_federation", "one_federation")
    required = (">= 2", "<= 3/5 of the opponents", "<= 2/3 of the opponents")
    unknown = sum(1 for o in opponents if not o.federation)
    missing = (("federation",) if not federation else ()) + (
        ("opponents' federation",) if unknown else ()
    )
    if missing:
        return [Condition(n, None, r, None, missing) for n, r in zip(names, required, strict=True)]
    feds = Counter((o.federation or "").upper() for o in opponents)
    feds.pop(NO_FEDERATION, None)
    own = feds.get((federation or "").upper(), 0)
    others = len([f for f in feds if f != (federation or "").upper()])
    largest = max(feds.values(), default=0)
    return [
        Condition(names[0], others, required[0], others >= 2),
        Condition(names[1], own, required[1], 5 * own <= 3 * count),
        Condition(names[2], largest, required[2], 3 * largest <= 2 * count),
    ]
