"""Rows -> engine values: the tournament as the engine sees it."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from service.db.tables import ByeRow, GameRow, PlayerRow, TournamentRow
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
from service.engine.results import GameStatus
from service.engine.systems import spec_of

__all__ = [
    "ByeRecord",
    "GameRecord",
    "engine_player",
    "engine_tournament",
    "initial_colour",
    "point_system",
]


class GameRecord(NamedTuple):
    """The columns of a game the engine needs."""

    round: int
    table_no: int
    white: int
    black: int
    result: str | None
    status: str


class ByeRecord(NamedTuple):
    """The columns of a bye the engine needs."""

    round: int
    player: int
    kind: str


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
    )


def engine_tournament(
    row: TournamentRow,
    players: Sequence[PlayerRow],
    games: Sequence[GameRow | GameRecord],
    byes: Sequence[ByeRow | ByeRecord],
    *,
    confirmed_only: bool = True,
) -> Tournament:
    """The engine's view; with `confirmed_only`, unconfirmed results count as unknown."""
    games_by_round: dict[int, list[Game]] = defaultdict(list)
    for game in sorted(games, key=lambda g: (g.round, g.table_no)):
        known = game.result is not None and (
            game.status == GameStatus.CONFIRMED or not confirmed_only
        )
        games_by_round[game.round].append(
            Game(
                round=game.round,
                white=game.white,
                black=game.black,
                result=GameResult(game.result) if known and game.result else None,
                table=game.table_no,
            )
        )
    byes_by_round: dict[int, list[Bye]] = defaultdict(list)
    for bye in byes:
        byes_by_round[bye.round].append(Bye(bye.round, bye.player, ByeKind(bye.kind)))
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
