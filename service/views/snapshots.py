"""Per-event views of what every table is built from (docs/architecture.md#reads).

A tournament changes only through events, so whatever is read for sequence number `seq`
stays valid until the next event: the engine view and the start list are loaded once per
event per replica and shared by the standings, the FLAMPARK scores and the live feed.

The engine view is also brought forward incrementally: when the events since the cached
view are all result events, only the games they name are replaced (O(games of a round)
per event) instead of reading the whole tournament again, and the start list read for
the cached view's seq stands for the new seq too (results do not change players).
"""

from __future__ import annotations

from dataclasses import replace

from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.event_types import GAME_RESULT_EVENTS, GameResultEvent, decode
from service.db.events import events_since
from service.db.loading import Schedule, engine_tournament
from service.db.player_reads import list_players
from service.db.tables import EventRow, PlayerRow, TournamentRow
from service.db.tournament_reads import load_engine_tournament
from service.engine.model import Game, GameResult, Tournament
from service.engine.result_reporting import GameStatus
from service.views.cache import ViewCache

__all__ = [
    "RESULT_EVENTS",
    "bring_engine_view_forward",
    "confirmed_result",
    "engine_view",
    "players_view",
    "result_event_of",
    "result_events",
    "seed_engine_view",
]

_LIMIT = 64


RESULT_EVENTS = GAME_RESULT_EVENTS
"""Events that change one game's result and nothing else (db/event_types.py)."""


async def result_events(
    session: AsyncSession, row: TournamentRow, since: int
) -> list[EventRow] | None:
    """The events after `since` up to the row's `last_seq`, or None when one of them is
    not a result event (then a view must be rebuilt, not brought forward)."""
    return _results_only(row, since, await events_since(session, row.id, since))


def _results_only(row: TournamentRow, since: int, events: list[EventRow]) -> list[EventRow] | None:
    """`events` (read after `since`, oldest first) up to the row's `last_seq`, or None
    unless they are every event of that span and all of them result events."""
    span = [e for e in events if since < e.seq <= row.last_seq]
    if len(span) != row.last_seq - since or any(e.type not in RESULT_EVENTS for e in span):
        return None
    return span


def confirmed_result(event: GameResultEvent) -> GameResult | None:
    """The result an event leaves counted: only a confirmed one."""
    if event.result is None or event.status != GameStatus.CONFIRMED:
        return None
    return GameResult(event.result)


def result_event_of(row: EventRow) -> GameResultEvent:
    """A stored result event, typed (`result_events` only returns those)."""
    event = decode(row.type, row.payload)
    assert isinstance(event, GameResultEvent)
    return event


def _with_results(tournament: Tournament, events: list[EventRow]) -> Tournament | None:
    """`tournament` with the results of `events` applied in order; None when one names a
    game the view does not hold (then the view is read back). Each round the events touch
    is copied once and its games are found by their pair, so a batch of results costs
    its events and the rounds they touch, not a round's copy and scan per event."""
    rounds = list(tournament.rounds)
    index = {rnd.number: i for i, rnd in enumerate(rounds)}
    touched: dict[int, tuple[list[Game], dict[tuple[int, int], int]]] = {}
    for stored in events:
        event = result_event_of(stored)
        position = index.get(event.round)
        if position is None:
            return None
        edit = touched.get(position)
        if edit is None:
            games = list(rounds[position].games)
            # a pair meets once in a round, so the pair names its game
            places = {(g.white, g.black): i for i, g in enumerate(games)}
            edit = touched[position] = (games, places)
        games, places = edit
        found = places.get((event.white, event.black))
        if found is None:
            return None
        games[found] = replace(games[found], result=confirmed_result(event))
    for position, (games, _) in touched.items():
        rounds[position] = replace(rounds[position], games=tuple(games))
    return replace(tournament, rounds=tuple(rounds))


async def engine_view(views: ViewCache, session: AsyncSession, row: TournamentRow) -> Tournament:
    """The engine's view of a tournament's confirmed results after its latest event."""
    cache = views.tournaments
    cached = cache.get(row.id)
    if cached is not None and cached[0] == row.last_seq:
        return cached[1]
    if cached is not None and cached[0] < row.last_seq:
        events = await result_events(session, row, cached[0])
        if events is not None:
            view = _brought_forward(views, row, cached, events)
            if view is not None:
                return view
    view = await load_engine_tournament(session, row)
    _keep(views, row.id, row.last_seq, view)
    return view


def bring_engine_view_forward(
    views: ViewCache, row: TournamentRow, since: int, events: list[EventRow]
) -> None:
    """Bring the kept engine view of `since` to the row's `last_seq` over `events`, the
    events after `since` that the caller has read already (the live reader reads them
    for its frames), so that `engine_view` then finds it without reading them again.
    Nothing changes unless the kept view is at `since` and the events are all result
    events; `engine_view` then reads them itself, or the whole tournament."""
    cached = views.tournaments.get(row.id)
    if cached is None or cached[0] != since or since >= row.last_seq:
        return
    span = _results_only(row, since, events)
    if span is not None:
        _brought_forward(views, row, cached, span)


def _brought_forward(
    views: ViewCache, row: TournamentRow, cached: tuple[int, Tournament], events: list[EventRow]
) -> Tournament | None:
    """The kept view `cached` with the results of `events` (its seq to the row's
    `last_seq`), kept; None when one names a game the view does not hold."""
    view = _with_results(cached[1], events)
    if view is None:
        return None
    # results alone leave the start list as it was: its view moves on too
    players = views.players.pop((row.id, cached[0]), None)
    if players is not None:
        views.players[(row.id, row.last_seq)] = players
    _keep(views, row.id, row.last_seq, view)
    return view


def _keep(views: ViewCache, tournament_id: str, seq: int, view: Tournament) -> None:
    cache = views.tournaments
    if len(cache) > 256:
        cache.clear()
    cache[tournament_id] = (seq, view)


async def seed_engine_view(
    views: ViewCache, session: AsyncSession, row: TournamentRow, seq: int, schedule: Schedule
) -> None:
    """Keep the engine view as of `seq` built from `schedule`, every round as a start
    stored it at `seq`, instead of reading them back (a 400-player round-robin: 79,800
    games). `row` is read at `seq` or later; a later view already kept is left alone,
    and `engine_view` brings this one forward over any results since."""
    cached = views.tournaments.get(row.id)
    if row.last_seq < seq or (cached is not None and cached[0] >= seq):
        return
    players = await list_players(session, row.id)
    _keep(views, row.id, seq, engine_tournament(row, players, schedule.games, schedule.byes))


async def players_view(
    views: ViewCache, session: AsyncSession, row: TournamentRow
) -> dict[int, PlayerRow]:
    """Numbered players by start number after the tournament's latest event."""
    cache = views.players
    if len(cache) > _LIMIT:
        cache.clear()
    key = (row.id, row.last_seq)
    if key not in cache:
        players = await list_players(session, row.id)
        cache[key] = {p.start_number: p for p in players if p.start_number is not None}
    found: dict[int, PlayerRow] = cache[key]
    return found
