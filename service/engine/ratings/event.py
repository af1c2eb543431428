"""What one event did to each player's rating, with the figures behind it (B.02, 2024
rules and their 2025 amendment; B.01 norm conditions): the engine's answer to
`arbiter ratings` and `POST /v1/compute/ratings` (docs/rules/ratings.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from service.engine.model import Tournament
from service.engine.ratings.change import rated_result
from service.engine.ratings.games import played_games
from service.engine.ratings.initial import InitialRating, initial_rating
from service.engine.ratings.k_factor import capped, development_coefficient
from service.engine.ratings.norm_event import NormSettings
from service.engine.ratings.norm_forecast import Forecast
from service.engine.ratings.norm_players import player_norms
from service.engine.ratings.norms import NormCheck
from service.engine.scoring.tiebreaks.ratings import performance

__all__ = ["PlayerFacts", "RatingRow", "rate_event"]


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """What the rating rules need of a player beyond the start list (all optional)."""

    k: int | None = None
    """The development coefficient, when the caller knows it (the rating list's)."""
    games_before: int | None = None
    """Rated games completed before the event."""
    reached_2400: bool | None = None
    """Whether a published rating of the player ever reached 2400."""


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's figures for the event."""

    start_number: int
    rating: int
    """Rating at the start; 0 = unrated."""
    games: int
    """Rated games: played over the board against a rated opponent."""
    score: Fraction
    """Score in those games."""
    expected: Fraction | None
    """Expected score We (rated players)."""
    k: int | None
    """K applied (after the 700 cap); None when it cannot be decided."""
    k_rule: str
    change: Fraction | None
    """K x (W - We); None for an unrated player or a K that cannot be decided."""
    performance: int | None
    """TPR (FIDE C.07 art. 10.2) over the rated games."""
    initial: InitialRating | None
    """An unrated player's initial rating (B.02 art. 8.2)."""
    missing: tuple[str, ...]
    """Facts the rules needed and the input lacked."""
    norms: tuple[NormCheck, ...]
    forecasts: Mapping[str, Forecast] = field(default_factory=dict)
    """The last-round forecast per title, while one round is left."""


def rate_event(
    tournament: Tournament,
    facts: Mapping[int, PlayerFacts] | None = None,
    *,
    year: int | None = None,
    norm_settings: NormSettings | None = None,
) -> list[RatingRow]:
    """Every player's row, in start-number order. `facts` by start number; `year`: the
    event's, for the junior K rule; `norm_settings`: the event's kind, format and host
    federation for the norm rules."""
    facts = facts or {}
    players = {p.start_number: p for p in tournament.players}
    played = played_games(tournament)
    norms_of = player_norms(tournament, norm_settings)
    rows = []
    for player in sorted(tournament.players, key=lambda p: p.start_number):
        games = played.get(player.start_number, [])
        rated = [
            (players[g.opponent].rating, g.halves) for g in games if players[g.opponent].rating
        ]
        norms = norms_of[player.start_number].checks
        forecasts = norms_of[player.start_number].forecasts
        tpr = performance([r for r, _ in rated], sum(h for _, h in rated))
        score = Fraction(sum(h for _, h in rated), 2)
        if not player.rating:
            rows.append(
                RatingRow(
                    start_number=player.start_number,
                    rating=0,
                    games=len(rated),
                    score=score,
                    expected=None,
                    k=None,
                    k_rule="",
                    change=None,
                    performance=tpr,
                    initial=initial_rating(rated),
                    missing=(),
                    norms=norms,
                    forecasts=forecasts,
                )
            )
            continue
        fact = facts.get(player.start_number, PlayerFacts())
        result = rated_result(player.rating, rated)
        decided = development_coefficient(
            player.rating,
            k=fact.k,
            games_before=fact.games_before,
            reached_2400=fact.reached_2400,
            birth_year=player.birth_year,
            year=year,
        )
        k = None if decided.k is None else capped(decided.k, result.games)
        rows.append(
            RatingRow(
                player.start_number,
                player.rating,
                result.games,
                result.score,
                result.expected,
                k,
                decided.rule,
                None if k is None else result.change(k),
                tpr,
                None,
                decided.missing,
                norms,
                forecasts,
            )
        )
    return rows
