"""Each rated player's rating change from a stored tournament's confirmed games, as the
standings, the player cards, a player's games and the live feed show it (FIDE B.02,
2024, art. 8.3; docs/rules/ratings.md#where-the-change-is-shown).

K is decided from the player's stored K-factor facts (`k`, `games_before`,
`reached_2400`: service/db/rating_facts.py) and birth year; where the rules need a fact
no one recorded, the change is null with the missing facts named, never guessed. A
reader who may not see personal data gets the figures computed without birth years
(the junior rule then names the birth year as missing); the three rating facts are no
personal data and count for every reader."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.offload import run_cpu
from service.db.rating_facts import facts_by_start_number
from service.db.tables import TournamentRow
from service.db.tournament_config import config_of
from service.engine.model import Tournament
from service.engine.ratings.changes import PlayerChange, rating_changes
from service.engine.ratings.event import PlayerFacts
from service.engine.ratings.per_game import GameChange, game_changes
from service.views.cache import ViewCache
from service.views.prizes import event_year
from service.views.snapshots import engine_view, players_view

__all__ = [
    "card_figures",
    "change_fields",
    "games_document",
    "is_rated",
    "live_change",
    "live_standings",
    "rated_view",
    "rating_rows",
    "stored_facts",
    "with_rating_changes",
    "without_rating_changes",
]


async def stored_facts(
    views: ViewCache, session: AsyncSession, row: TournamentRow
) -> dict[int, PlayerFacts]:
    """Each numbered player's stored K-factor facts (FIDE B.02 8.3.3), by start number,
    read from the start list kept for the tournament's latest event."""
    return facts_by_start_number(await players_view(views, session, row))


async def rated_view(
    views: ViewCache, session: AsyncSession, row: TournamentRow, *, personal: bool
) -> tuple[Tournament, int, dict[int, PlayerFacts]]:
    """The engine's view of the confirmed games (birth years blanked unless the reader
    may see personal data), the event's year (the one the prizes read) and the
    players' stored K-factor facts."""
    tournament = await engine_view(views, session, row)
    if not personal:
        players = tuple(
            replace(p, birth_year=None, sex=None, federation=None) for p in tournament.players
        )
        tournament = replace(tournament, players=players)
    facts = await stored_facts(views, session, row)
    return tournament, event_year(row, config_of(row)), facts


async def rating_rows(
    views: ViewCache, session: AsyncSession, row: TournamentRow, *, personal: bool
) -> dict[int, PlayerChange]:
    """Every rated player's figures by start number (computed off the event loop)."""
    tournament, year, facts = await rated_view(views, session, row, personal=personal)
    return await run_cpu(rating_changes, tournament, facts, year=year)


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def change_fields(row: PlayerChange | None) -> dict[str, Any] | None:
    """A rated player's figures under the field names of the rating rows (`GET
    /ratings`); None for an unrated player (no change: an initial rating, B.02 8.2)."""
    if row is None:
        return None
    return {
        "k": row.k,
        "k_rule": row.k_rule,
        "games": row.games,
        "score": float(row.score),
        "expected": _number(row.expected),
        "change": _number(row.change),
        "performance": row.performance,
        "missing": list(row.missing),
    }


def live_change(row: PlayerChange | None) -> dict[str, Any] | None:
    """The live feed's short form: K, the expected score and the change (null K and
    change while K is undecided); None for an unrated player."""
    if row is None:
        return None
    return {"k": row.k, "expected": _number(row.expected), "change": _number(row.change)}


def with_rating_changes(
    document: dict[str, Any], rows: dict[int, PlayerChange], *, short: bool = False
) -> dict[str, Any]:
    """The standings document with `rating_change` on each player's row, null for an
    unrated player (the rows of the document are copied, not changed in place: it may
    be a cached one)."""
    shape = live_change if short else change_fields
    lines = [
        {**line, "rating_change": shape(rows.get(line["start_number"]))}
        for line in document["rows"]
    ]
    return {**document, "rows": lines}


def _game(line: GameChange) -> dict[str, Any]:
    return {
        "rated": line.rated,
        "reason": line.reason,
        "score": _number(line.score),
        "expected": _number(line.expected),
        "change": _number(line.change),
    }


async def games_document(
    views: ViewCache,
    session: AsyncSession,
    row: TournamentRow,
    start_number: int,
    *,
    personal: bool,
) -> dict[str, Any]:
    """A player's rating at the start, the event's figures (`rating_change`) and each
    game's share by round (`games`: round -> the game's rating fields)."""
    tournament, year, facts = await rated_view(views, session, row, personal=personal)
    figures = await run_cpu(_figures_of, tournament, year, facts, [start_number])
    totals, games = figures[start_number]
    return {
        "start_number": start_number,
        "rating": tournament.player(start_number).rating or None,
        "rating_change": totals,
        "games": games,
    }


def _figures_of(
    tournament: Tournament, year: int, facts: dict[int, PlayerFacts], numbers: list[int]
) -> dict[int, tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]]:
    """Each numbered player's event figures and games by round (one CPU job)."""
    rows = rating_changes(tournament, facts, year=year)
    known = {p.start_number for p in tournament.players}
    figures = {}
    for number in numbers:
        if number not in known:
            continue
        own = rows.get(number)
        lines = game_changes(tournament, number, None if own is None else own.k)
        figures[number] = (change_fields(own), {line.round: _game(line) for line in lines})
    return figures


async def card_figures(
    views: ViewCache,
    session: AsyncSession,
    row: TournamentRow,
    numbers: list[int],
    *,
    personal: bool,
) -> dict[int, tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]]:
    """For the cards of the players numbered `numbers`: each one's event figures
    (`change_fields`, None when unrated) and each game's share by round."""
    tournament, year, facts = await rated_view(views, session, row, personal=personal)
    return await run_cpu(_figures_of, tournament, year, facts, numbers)


def is_rated(document: dict[str, Any]) -> bool:
    """A tournament is rated when a player of its standings has a rating."""
    return any(line.get("rating") for line in document["rows"])


async def live_standings(
    views: ViewCache, session: AsyncSession, row: TournamentRow, document: dict[str, Any]
) -> dict[str, Any]:
    """The live feed's standings: in a rated tournament each row carries the short
    `rating_change` (K, expected score, change), computed with personal data only once
    it is published (one frame for every reader)."""
    if not is_rated(document):
        return document
    personal = config_of(row).publish_personal_data
    rows = await rating_rows(views, session, row, personal=personal)
    return with_rating_changes(document, rows, short=True)


def without_rating_changes(document: dict[str, Any]) -> dict[str, Any]:
    """The standings document as `GET /standings` answers it: no `rating_change`."""
    if not any("rating_change" in line for line in document["rows"]):
        return document
    lines = [{k: v for k, v in line.items() if k != "rating_change"} for line in document["rows"]]
    return {**document, "rows": lines}
