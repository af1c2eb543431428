"""Rows -> engine values: the tournament as the engine sees it."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from service.db.rating_facts import title_of
from service.db.tables import PlayerRow, TournamentRow
from service.db.tournament_config import config_of
from service.engine.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Player,
    PointSystem,
    Round,
    Tournament,
)
from service.engine.result_reporting import GameStatus
from service.engine.systems import spec_of

__all__ = [
    "ByeColumns",
    "GameColumns",
    "Schedule",
    "engine_player",
    "engine_tournament",
    "initial_colour",
    "point_system",
    "stored_schedule",
]


GameColumns = tuple[int, int, int, int, str | None, str]
"""The columns of a game the engine needs, in this order: round, table_no, white, black,
result, status (a stored game is read as a plain row of them)."""

ByeColumns = tuple[int, int, str]
"""The columns of a bye the engine needs, in this order: round, player, kind."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """Paired rounds as they are stored, in round and table order: what a start hands
    the live reader, so that its first table need not read 79,800 games back."""

    games: list[GameColumns]
    byes: list[ByeColumns]


def stored_schedule(rounds: Sequence[Round]) -> Schedule:
    """The columns stored for paired engine rounds: a game's table is its own or its
    place in the round; a game that already carries a result (an imported file) is
    stored as confirmed, any other as pending."""
    pending, confirmed = GameStatus.PENDING.value, GameStatus.CONFIRMED.value
    games: list[GameColumns] = [
        (
            rnd.number,
            game.table or table,
            game.white,
            game.black,
            None if game.result is None else game.result.value,
            pending if game.result is None else confirmed,
        )
        for rnd in rounds
        for table, game in enumerate(rnd.games, start=1)
    ]
    games.sort(key=itemgetter(0, 1))  # as the database returns them (in order already: cheap)
    byes: list[ByeColumns] = [
        (rnd.number, bye.player, bye.kind.value) for rnd in rounds for bye in rnd.byes
    ]
    return Schedule(games, byes)


def point_system(row: TournamentRow) -> PointSystem:
    """The tournament's points per outcome (settings.points: win, draw, loss, bye)."""
    return config_of(row).points


def engine_player(row: PlayerRow) -> Player:
    """A player row with a start number as an engine Player."""
    assert row.start_number is not None
    return Player(
        start_number=row.start_number,
        name=row.name,
        rating=row.rating,
        fide_id=row.fide_id,
        federation=row.federation,
        sex=row.sex,
        birth_year=row.birth_year,
        title=title_of(row.extra),
    )


def engine_tournament(
    row: TournamentRow,
    players: Sequence[PlayerRow],
    games: Iterable[GameColumns],
    byes: Iterable[ByeColumns],
    *,
    confirmed_only: bool = True,
) -> Tournament:
    """The engine's view; with `confirmed_only`, unconfirmed results count as unknown.

    `games` are `GameColumns` in round and table order, `byes` are `ByeColumns`, as the
    database returns them: a round-robin of 400 players has 79,800
    games, and this runs whenever a reader's view of a tournament is cold (a record
    object and a sort per game cost more than the query)."""
    results = _RESULT_OF
    confirmed = GameStatus.CONFIRMED
    games_by_round: dict[int, list[Game]] = defaultdict(list)
    for number, table, white, black, result, status in games:
        known = result if result and (status == confirmed or not confirmed_only) else None
        games_by_round[number].append(
            Game(number, white, black, results[known] if known else None, table)
        )
    byes_by_round: dict[int, list[Bye]] = defaultdict(list)
    for number, player, kind in byes:
        byes_by_round[number].append(Bye(number, player, ByeKind(kind)))
    numbers = sorted(set(games_by_round) | set(byes_by_round))
    rounds = tuple(
        Round(n, tuple(games_by_round.get(n, ())), tuple(byes_by_round.get(n, ()))) for n in numbers
    )
    ranked = sorted(
        (engine_player(p) for p in players if p.start_number is not None),
        key=lambda p: p.start_number,
    )
    return Tournament(
        players=tuple(ranked),
        rounds=rounds,
        total_rounds=row.total_rounds,
        points=point_system(row),
        name=row.name,
        initial_colour=initial_colour(row),
    )


_RESULT_OF = {result.value: result for result in GameResult}
"""Stored result text -> result (a dict lookup; the enum's own call is ten times as
slow, once per stored game)."""


def initial_colour(row: TournamentRow) -> Colour | None:
    """Round 1 colour of the top player: set by the organizer, or drawn by a lot seeded
    with `swiss.seed` (else the tournament id), so it never changes once drawn."""
    swiss = config_of(row).swiss
    if swiss is not None and swiss.initial_colour is not None:
        return swiss.initial_colour
    spec = spec_of(row.system)
    if spec is None or not spec.initial_colour_lot:
        return None
    seed = swiss.seed if swiss is not None else None
    lot = random.Random(seed if seed is not None else row.id)
    return lot.choice((Colour.WHITE, Colour.BLACK))
