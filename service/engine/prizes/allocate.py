"""Share the prize lists out over the final standings (docs/rules/prizes.md).

Two steps. First each prize (a place of a list) goes to the best-placed eligible player
who holds no prize yet, the prizes taken in the order the one-prize rule sets: by amount,
highest first (`highest`: each player ends with the higher prize), or the places before
the categories (`place-first`). Then, list by list, the players tied on points who took
that list's prizes (with any eligible player tied with them who took none) share them as
the organizer declared: `split` pools and divides equally, `hort` (the Hort system) lets
each keep half of the prize of their own place and pools the other halves, `tiebreak`
keeps the tie-break order (players whose rank is shared even so divide their prizes).
Amounts stay exact fractions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from service.engine.model import Player
from service.engine.prizes.rules import Category, Missing, PrizeRules, eligibility

__all__ = ["Award", "PrizeOutcome", "Standing", "award_prizes"]


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of the final standings, in standings order: rank shared where every
    criterion ties."""

    start_number: int
    rank: int
    points: Fraction


@dataclass(frozen=True, slots=True)
class Award:
    """A player's prize: the list, the places pooled for it (1-based; one place when not
    shared), the player's own place (None: tied in without a place of their own) and
    the exact amount."""

    prize: str
    places: tuple[int, ...]
    place: int | None
    player: int
    amount: Fraction
    shared_with: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PrizeOutcome:
    """The awards in list order, then by amount; the players left out for missing facts."""

    awards: tuple[Award, ...]
    missing: tuple[Missing, ...]


def award_prizes(
    rules: PrizeRules,
    standings: Sequence[Standing],
    players: Mapping[int, Player],
    year: int | None,
) -> PrizeOutcome:
    """Every award under `rules` (see the module's text)."""
    lists = rules.lists()
    eligible, missing = _eligible(lists, standings, players, year)
    held = _hand_out(rules, lists, eligible)
    awards: list[Award] = []
    taken = set(held)
    for index, category in enumerate(lists):
        awards.extend(_share(rules, index, category, eligible[index], held, taken))
    return PrizeOutcome(tuple(awards), tuple(missing))


def _eligible(
    lists: Sequence[Category],
    standings: Sequence[Standing],
    players: Mapping[int, Player],
    year: int | None,
) -> tuple[list[list[Standing]], list[Missing]]:
    """Each list's eligible players in standings order, and who is out for a missing fact."""
    eligible: list[list[Standing]] = []
    missing: list[Missing] = []
    for category in lists:
        mine = []
        for line in standings:
            verdict = eligibility(category, players[line.start_number], year)
            if verdict is True:
                mine.append(line)
            elif isinstance(verdict, str):
                missing.append(Missing(line.start_number, category.name, verdict))
        eligible.append(mine)
    return eligible, missing


def _hand_out(
    rules: PrizeRules, lists: Sequence[Category], eligible: Sequence[Sequence[Standing]]
) -> dict[int, tuple[int, int]]:
    """Player -> (list index, place index): each prize to the best-placed eligible player
    holding none, in the one-prize rule's order."""
    slots = [
        (index, place, amount)
        for index, category in enumerate(lists)
        for place, amount in enumerate(category.amounts)
    ]
    if rules.one_prize == "highest":
        slots.sort(key=lambda slot: (-slot[2], slot[0], slot[1]))
    held: dict[int, tuple[int, int]] = {}
    for index, place, _ in slots:
        for line in eligible[index]:
            if line.start_number not in held:
                held[line.start_number] = (index, place)
                break
    return held


def _share(
    rules: PrizeRules,
    index: int,
    category: Category,
    eligible: Sequence[Standing],
    held: Mapping[int, tuple[int, int]],
    taken: set[int],
) -> list[Award]:
    """One list's awards: its holders grouped by points, each group sharing by the tie
    rule. An eligible player tied with a group and holding no prize joins it (and then
    holds this share, so no later list counts them)."""
    holders = [line for line in eligible if held.get(line.start_number, (-1, 0))[0] == index]
    awards: list[Award] = []
    for points in dict.fromkeys(line.points for line in holders):
        group = [
            line
            for line in eligible
            if line.points == points
            and (held.get(line.start_number, (-1, 0))[0] == index or line.start_number not in taken)
        ]
        place = {
            line.start_number: held[line.start_number][1]
            for line in group
            if line.start_number in held
        }
        own = _own(group, {n: category.amounts[p] for n, p in place.items()})
        pool = sum(own.values(), Fraction(0))
        for line in group:
            number = line.start_number
            amount = _amount(rules, own[number], pool, len(group))
            if amount == 0:
                continue
            taken.add(number)
            sharers = (
                [o.start_number for o in group if o.rank == line.rank]
                if rules.ties == "tiebreak"
                else [o.start_number for o in group]
            )
            awards.append(
                Award(
                    prize=category.name,
                    places=tuple(sorted(place[n] + 1 for n in sharers if n in place)),
                    place=place[number] + 1 if number in place else None,
                    player=number,
                    amount=amount,
                    shared_with=tuple(n for n in sharers if n != number),
                )
            )
    return awards


def _own(group: Sequence[Standing], prize: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """Each player's own-place prize; players whose rank is shared (every criterion
    ties, so no order between them) have the mean of their places' prizes."""
    by_rank: dict[int, list[int]] = {}
    for line in group:
        by_rank.setdefault(line.rank, []).append(line.start_number)
    own: dict[int, Fraction] = {}
    for numbers in by_rank.values():
        mean = sum((prize.get(n, Fraction(0)) for n in numbers), Fraction(0)) / len(numbers)
        own.update(dict.fromkeys(numbers, mean))
    return own


def _amount(rules: PrizeRules, own: Fraction, pool: Fraction, size: int) -> Fraction:
    if rules.ties == "split":
        return pool / size
    if rules.ties == "hort":
        return own / 2 + pool / 2 / size
    return own
