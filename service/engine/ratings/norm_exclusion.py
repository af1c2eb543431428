"""Games left out to make a norm (FIDE B.01, 2024, art. 1.4.1f;
docs/rules/ratings.md#leaving-out-beaten-opponents).

A player may ignore the results against opponents they beat, provided the games left
still number at least the minimum (1.4.1a-c) and meet every other condition. A norm
missed over all the games is checked again over the fewest such games left out.

The search. Leaving out wins cannot mend the games count, the number of other
federations or the 35 % score, so a norm failing on those is not searched. With k wins
left out the score is fixed (k points fewer), and among the beaten opponents of one
group (same rank for the norm's title, title-holder or not, same federation when the
federation rules apply) leaving out the lowest-rated is never worse: the ratings kept
are, sorted, each at least as high, so Ra after the floor (1.4.6-1.4.7) and Rp (1.4.8)
are too, while every count stays equal. So k is tried only when its bound, the k
weakest wins left out, reaches the average and Rp, and then over how many of each
group to leave out, each choice counted for the title shares and Ra/Rp before the
full check. At most sum C(w, k) for k <= games - minimum choices of w wins (1,093 for
13 wins and 4 spare games; well under a millisecond a player in practice)."""

from __future__ import annotations

from collections.abc import Iterator

from service.engine.ratings.norms import (
    MIN_AVERAGE,
    MIN_PERFORMANCE,
    RANKS,
    TITLE_HOLDERS,
    NormCheck,
    NormEvent,
    NormOpponent,
    check_norm,
    exemption,
    min_games,
)
from service.engine.ratings.performance import ADJUSTED_FLOOR, UNRATED_AS, norm_performance

__all__ = ["exclude_beaten"]

_UNMENDABLE = frozenset({"games", "other_federations", "score_percent", "players"})
_BOUNDED = ("average_rating", "performance")


def exclude_beaten(
    check: NormCheck,
    federation: str | None,
    opponents: list[NormOpponent],
    *,
    event: NormEvent,
    credited: int,
) -> tuple[NormCheck, tuple[int, ...]] | None:
    """The norm `check` (over all of `opponents`) made by leaving out games won, with
    the positions in `opponents` left out; None when it is met already, undecided, or
    no choice allowed by 1.4.1f makes it. The fewest games are left out, and of the
    choices leaving out as many, the one with the highest Rp (the first on a tie)."""
    if check.met is not False or any(c.met is None for c in check.conditions):
        return None
    if any(c.met is False and c.name in _UNMENDABLE for c in check.conditions):
        return None
    need, _ = min_games(event, credited)
    wins = sorted(
        (i for i, o in enumerate(opponents) if o.halves == 2),
        key=lambda i: (opponents[i].rating or UNRATED_AS, i),
    )
    groups = _groups(check.title, federation, opponents, wins, event)
    held = {c.name: int(c.value or 0) for c in check.conditions if c.name.endswith("_opponents")}
    ranked, titled = held[f"{check.title}_opponents"], held["titled_opponents"]
    for k in range(1, min(len(opponents) - need, len(wins)) + 1):
        bound = _without(check.title, federation, opponents, wins[:k], event, credited)
        verdicts = {c.name: c.met for c in bound.conditions}
        if verdicts.get("score_percent") is False:
            return None  # the score only falls as more wins are left out
        if not all(verdicts.get(name) for name in _BOUNDED):
            continue
        best: tuple[NormCheck, tuple[int, ...]] | None = None
        for counts in _splits([len(g) for _, g in groups], k):
            kept = len(opponents) - k
            less_ranked = sum(n for (key, _), n in zip(groups, counts, strict=True) if key[0])
            less_titled = sum(n for (key, _), n in zip(groups, counts, strict=True) if key[1])
            if not _shares(ranked - less_ranked, titled - less_titled, kept):
                continue  # 1.4.5a-e, counted without a check
            left_out = sorted(
                i for (_, group), n in zip(groups, counts, strict=True) for i in group[:n]
            )
            if not _figures(check.title, opponents, left_out):
                continue  # 1.4.8a and 1.4.8, counted without a check
            again = _without(check.title, federation, opponents, left_out, event, credited)
            if again.met is True and (best is None or _rp(again) > _rp(best[0])):
                best = (again, tuple(left_out))
        if best is not None:
            return best
    return None


_Key = tuple[bool, bool, str]


def _groups(
    title: str,
    federation: str | None,
    opponents: list[NormOpponent],
    wins: list[int],
    event: NormEvent,
) -> list[tuple[_Key, list[int]]]:
    """The beaten opponents by what the conditions count of them, lowest-rated first."""
    waived, _ = exemption(federation, event)
    groups: dict[_Key, list[int]] = {}
    for i in wins:
        held = (opponents[i].title or "").upper()
        fed = "" if waived else (opponents[i].federation or "").upper()
        groups.setdefault((held in RANKS[title], held in TITLE_HOLDERS, fed), []).append(i)
    return list(groups.items())


def _shares(ranked: int, titled: int, games: int) -> bool:
    """1.4.5a-e over `games` kept: half title-holders, a third (and 3) of the title."""
    return 2 * titled >= games and 3 * ranked >= games and ranked >= 3


def _splits(sizes: list[int], total: int) -> Iterator[tuple[int, ...]]:
    """Every way of taking `total` from groups of `sizes`, at most a group's size each."""
    if not sizes:
        if total == 0:
            yield ()
        return
    rest = sum(sizes[1:])
    for n in range(max(0, total - rest), min(sizes[0], total) + 1):
        for tail in _splits(sizes[1:], total - n):
            yield (n, *tail)


def _without(
    title: str,
    federation: str | None,
    opponents: list[NormOpponent],
    left_out: list[int],
    event: NormEvent,
    credited: int,
) -> NormCheck:
    dropped = set(left_out)
    kept = [o for i, o in enumerate(opponents) if i not in dropped]
    return check_norm(title, federation, kept, event=event, credited=credited)


def _figures(title: str, opponents: list[NormOpponent], left_out: list[int]) -> bool:
    """Ra and Rp of the games kept reach the title's (1.4.8a, 1.4.8)."""
    dropped = set(left_out)
    kept = [o for i, o in enumerate(opponents) if i not in dropped]
    figures = norm_performance(
        [o.rating for o in kept], sum(o.halves for o in kept), ADJUSTED_FLOOR[title]
    )
    return (
        figures is not None
        and figures.average >= MIN_AVERAGE[title]
        and figures.performance >= MIN_PERFORMANCE[title]
    )


def _rp(check: NormCheck) -> int:
    return next(int(c.value or 0) for c in check.conditions if c.name == "performance")
