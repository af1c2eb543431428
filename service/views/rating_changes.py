"""Each rated player's rating change from a stored tournament's confirmed games, as the
standings, the player cards, a player's games and the live feed show it (FIDE B.02,
2024, art. 8.3; docs/rules/ratings.md#where-the-change-is-shown).

The start list records no K, rated games before the event or 2400 history, so K is
decided only where the rules need none of them (a rating of 2400 or more: K = 10);
every other rated player's change is null with the missing facts named, never
guessed. A reader who may not see personal data gets the figures computed without
birth years (the junior rule then names the birth year as missing)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.offload import run_cpu
from service.db.tables import TournamentRow
from service.db.tournament_config import config_of
from service.engine.model import Tournament
from service.engine.ratings.changes import PlayerChange, rating_changes
from service.engine.ratings.per_game import GameChange, game_changes
from service.views.cache import ViewCache
from service.views.prizes import event_year
from service.views.snapshots import engine_view

__all__ = [
    "card_figures",
    "change_fields",
    "games_document",
    "is_rated",
    "live_change",
    "live_standings",
    "rated_view",
    "rating_rows",
    "with_rating_changes",
    "without_rating_changes",
]


async def rated_view(
    views: ViewCache, session: AsyncSession, row: TournamentRow, *, personal: bool
) -> tuple[Tournament, int]:
    """The engine's view of the confirmed games (birth years blanked unless the reader
    may see personal data) and the event's year (the one the prizes read)."""
    tournament = await engine_view(views, session, row)
    if not personal:
        players = tuple(
            replace(p, birth_year=None, sex=None, federation=None) for p in tournament.players
        )
        tournament = replace(tournament, players=players)
    return tournament, event_year(row, config_of(row))


async def rating_rows(
    views: ViewCache, session: AsyncSession, row: TournamentRow, *, personal: bool
) -> dict[int, PlayerChange]:
    """Every rated player's figures by start number (computed off the event loop)."""
    tournament, year = await rated_view(views, session, row, personal=personal)
    return await run_cpu(rating_changes, tournament, None, year=year)


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
    tournament, year = await rated_view(views, session, row, personal=personal)
    figures = await run_cpu(_figures_of, tournament, year, [start_number])
    totals, games = figures[start_number]
    return {
        "start_number": start_number,
        "rating": tournament.player(start_number).rating or None,
        "rating_change": totals,
        "games": games,
    }


def _figures_of(
    tournament: Tournament, year: int, numbers: list[int]
) -> dict[int, tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]]:
    """Each numbered player's event figures and games by round (one CPU job)."""
    rows = rating_changes(tournament, None, year=year)
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
    tournament, year = await rated_view(views, session, row, personal=personal)
    return await run_cpu(_figures_of, tournament, year, numbers)


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
