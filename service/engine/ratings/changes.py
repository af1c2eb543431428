"""Each rated player's rating change over an event without the norm checks and initial
ratings: what the standings, the cards and the live feed show after every result
(FIDE B.02, 2024, art. 8.3; docs/rules/ratings.md#where-the-change-is-shown).

The figures are `event.rate_event`'s (the same rated games, K rules and 700 cap); the
norms, which cost most of that computation, are left to the rating report."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from service.engine.model import Tournament
from service.engine.ratings.change import rated_result
from service.engine.ratings.event import PlayerFacts
from service.engine.ratings.games import played_games
from service.engine.ratings.k_factor import capped, development_coefficient
from service.engine.scoring.tiebreaks.ratings import performance

__all__ = ["PlayerChange", "rating_changes"]


@dataclass(frozen=True, slots=True)
class PlayerChange:
    """A rated player's figures for the event (the fields of `event.RatingRow`)."""

    start_number: int
    rating: int
    games: int
    score: Fraction
    expected: Fraction
    k: int | None
    k_rule: str
    change: Fraction | None
    performance: int | None
    missing: tuple[str, ...]


def rating_changes(
    tournament: Tournament,
    facts: Mapping[int, PlayerFacts] | None = None,
    *,
    year: int | None = None,
) -> dict[int, PlayerChange]:
    """Every rated player's figures by start number (unrated players are absent: they
    get an initial rating, B.02 8.2, not a change)."""
    facts = facts or {}
    ratings = {p.start_number: p.rating for p in tournament.players}
    played = played_games(tournament)
    changes = {}
    for player in tournament.players:
        if not player.rating:
            continue
        rated = [
            (ratings[g.opponent], g.halves)
            for g in played.get(player.start_number, [])
            if ratings[g.opponent]
        ]
        result = rated_result(player.rating, rated)
        fact = facts.get(player.start_number, PlayerFacts())
        decided = development_coefficient(
            player.rating,
            k=fact.k,
            games_before=fact.games_before,
            reached_2400=fact.reached_2400,
            birth_year=player.birth_year,
            year=year,
        )
        k = None if decided.k is None else capped(decided.k, result.games)
        changes[player.start_number] = PlayerChange(
            start_number=player.start_number,
            rating=player.rating,
            games=result.games,
            score=result.score,
            expected=result.expected,
            k=k,
            k_rule=decided.rule,
            change=None if k is None else result.change(k),
            performance=performance([r for r, _ in rated], sum(h for _, h in rated)),
            missing=decided.missing,
        )
    return changes
