"""Tournament persistence: the rows behind every endpoint.

Every write runs inside the caller's transaction and appends its events there, so a
failed request leaves nothing behind. Writers lock the tournament first
(`lock_tournament`), which makes read-modify-write sequences safe under concurrency.
The rules live in the application layer's workflows (`service.app`), the only callers
of the functions here that write.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import bindparam, tuple_
from sqlalchemy import select as sa_select
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.columns import fetch_columns
from service.db.event_types import TournamentCreated
from service.db.events import append_event, load_locked
from service.db.loading import Schedule, engine_tournament, stored_schedule
from service.db.session import transaction_of
from service.db.tables import ByeRow, EventRow, GameRow, PlayerRow, TournamentRow
from service.db.tokens import hash_token, new_token
from service.engine.model import Round, Tournament
from service.engine.results import GameStatus
from service.errors import Conflict, NotFound

__all__ = [
    "Actor",
    "confirmed_shortenings",
    "count_players",
    "create_tournament",
    "discard_loaded",
    "find_game",
    "get_player",
    "get_tournament",
    "last_paired_round",
    "list_players",
    "load_engine_tournament",
    "number_players",
    "preload_games",
    "ratings_of",
    "round_rows",
    "store_players",
    "store_round",
    "store_rounds",
]


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is writing: the organizer, or a player (by start number)."""

    kind: Literal["organizer", "player"]
    start_number: int | None = None


async def create_tournament(
    session: AsyncSession,
    *,
    name: str,
    system: str,
    settings: dict[str, Any],
    total_rounds: int | None,
) -> tuple[TournamentRow, str]:
    """Store a new tournament; returns it with its organizer token (shown once)."""
    token = new_token("org")
    row = TournamentRow(
        id=uuid.uuid4().hex,
        name=name,
        system=system,
        settings=settings,
        total_rounds=total_rounds,
        organizer_token_hash=hash_token(token),
    )
    session.add(row)
    await session.flush()
    await append_event(session, row.id, TournamentCreated(name, system))
    return row, token


async def get_tournament(
    session: AsyncSession, tournament_id: str, *, lock: bool = False
) -> TournamentRow:
    """The tournament, or NotFound; `lock`: locked for the rest of the transaction in the
    same statement (`events.load_locked`)."""
    if lock:
        row = await load_locked(session, tournament_id)
    else:
        row = await session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFound(f"no tournament {tournament_id!r}", field="tournament_id")
    return row


async def list_players(session: AsyncSession, tournament_id: str) -> list[PlayerRow]:
    """Players in start-number order (registration order before the list closes)."""
    statement = (
        select(PlayerRow)
        .where(PlayerRow.tournament_id == tournament_id)
        .order_by(col(PlayerRow.start_number), col(PlayerRow.id))
    )
    return list((await session.exec(statement)).all())


async def count_players(session: AsyncSession, tournament_id: str) -> int:
    """How many players are registered."""
    statement = select(func.count()).where(PlayerRow.tournament_id == tournament_id)
    return int((await session.exec(statement)).one())


async def get_player(session: AsyncSession, tournament_id: str, number: int) -> PlayerRow:
    """A player of this tournament by player number, or NotFound."""
    statement = select(PlayerRow).where(
        PlayerRow.tournament_id == tournament_id, PlayerRow.number == number
    )
    player = (await session.exec(statement)).first()
    if player is None:
        raise NotFound(f"no player {number} in this tournament", field="number")
    return player


async def start_number_of(session: AsyncSession, tournament_id: str, number: int) -> int:
    """The start number of player `number` (404 when no such player, 409 while the
    start list is open and start numbers are not given yet)."""
    player = await get_player(session, tournament_id, number)
    if player.start_number is None:
        raise Conflict(
            f"player {number} has no start number yet: they are given when the start list "
            "closes (POST /start)",
            field="number",
        )
    return player.start_number


async def next_player_number(session: AsyncSession, tournament_id: str) -> int:
    """The number the next registered player gets: one more than any given so far,
    counting registrations that were removed (a number is never given twice) and the
    players a TRF import numbered. Call with the tournament locked."""
    highest = select(func.max(PlayerRow.number)).where(PlayerRow.tournament_id == tournament_id)
    added = select(func.count()).where(
        EventRow.tournament_id == tournament_id, EventRow.type == "player_added"
    )
    given = max(int((await session.exec(highest)).one() or 0), (await session.exec(added)).one())
    return int(given) + 1


async def number_players(
    session: AsyncSession, numbered: Sequence[tuple[PlayerRow, int, str]]
) -> None:
    """Store each player's start number and token digest: (player, start number,
    `tokens.hash_token` of the token issued)."""
    for player, number, digest in numbered:
        player.start_number = number
        player.token_hash = digest
        session.add(player)
    await session.flush()


async def store_players(
    session: AsyncSession, tournament: TournamentRow, players: Sequence[dict[str, Any]]
) -> None:
    """Persist a whole start list (rows of the `players` table's columns, the tournament's
    id aside) with one multi-row insert: an imported file's 10,000 players, added one by
    one to the session, held the event loop half a second in the flush."""
    await session.flush()
    if players:
        rows = [{**player, "tournament_id": tournament.id} for player in players]
        connection = await session.connection()
        await connection.execute(PlayerRow.__table__.insert(), rows)  # type: ignore[attr-defined]


async def store_round(session: AsyncSession, tournament: TournamentRow, rnd: Round) -> None:
    """Persist a paired round (games in table order and byes)."""
    await store_rounds(session, tournament, (rnd,))


async def store_rounds(
    session: AsyncSession, tournament: TournamentRow, rounds: Sequence[Round]
) -> Schedule:
    """Persist paired rounds with one multi-row insert per table (a 400-player
    round-robin is 79,800 games: row-by-row ORM inserts took most of a minute), and
    return what was stored (`loading.stored_schedule`: games that already carry a
    result, from an imported file, are stored as confirmed)."""
    schedule = stored_schedule(rounds)
    games: list[dict[str, Any]] = [
        {
            "tournament_id": tournament.id,
            "round": number,
            "table_no": table,
            "white": white,
            "black": black,
            "result": result,
            "status": status,
            "reports": {},
            "extra": {},
            "shortened_minutes": None,
        }
        for number, table, white, black, result, status in schedule.games
    ]
    byes: list[dict[str, Any]] = [
        {"tournament_id": tournament.id, "round": number, "player": player, "kind": kind}
        for number, player, kind in schedule.byes
    ]
    await session.flush()
    connection = await session.connection()
    if games:
        await connection.execute(GameRow.__table__.insert(), games)  # type: ignore[attr-defined]
    if byes:
        await connection.execute(ByeRow.__table__.insert(), byes)  # type: ignore[attr-defined]
    return schedule


async def round_rows(
    session: AsyncSession, tournament_id: str, round_number: int | None = None
) -> tuple[list[GameRow], list[ByeRow]]:
    """Games (table order) and byes of one round, or of every round."""
    games = select(GameRow).where(GameRow.tournament_id == tournament_id)
    byes = select(ByeRow).where(ByeRow.tournament_id == tournament_id)
    if round_number is not None:
        games = games.where(GameRow.round == round_number)
        byes = byes.where(ByeRow.round == round_number)
    game_rows = (
        await session.exec(games.order_by(col(GameRow.round), col(GameRow.table_no)))
    ).all()
    bye_rows = (await session.exec(byes.order_by(col(ByeRow.round), col(ByeRow.player)))).all()
    return list(game_rows), list(bye_rows)


async def last_paired_round(session: AsyncSession, tournament_id: str) -> int:
    """The last round paired so far (0 before round 1), counting a round that has byes
    only (every player asked for one)."""
    games = select(func.max(GameRow.round)).where(GameRow.tournament_id == tournament_id)
    byes = select(func.max(ByeRow.round)).where(ByeRow.tournament_id == tournament_id)
    with_games = (await session.exec(games)).one() or 0
    with_byes = (await session.exec(byes)).one() or 0
    return max(int(with_games), int(with_byes))


async def load_engine_tournament(
    session: AsyncSession, tournament: TournamentRow, *, confirmed_only: bool = True
) -> Tournament:
    """The whole tournament as an engine value.

    Reads plain columns through the session's connection (no ORM objects; on
    PostgreSQL not even SQLAlchemy's rows, `fetch_columns`): this is what a cold view of
    a tournament costs, and a large event has tens of thousands of games."""
    players = await list_players(session, tournament.id)
    connection = await session.connection()
    key = {"tournament": tournament.id}
    games = await fetch_columns(connection, _ENGINE_GAMES, key)
    byes = await fetch_columns(connection, _ENGINE_BYES, key)
    return engine_tournament(tournament, players, games, byes, confirmed_only=confirmed_only)


_ENGINE_GAMES = (
    sa_select(
        col(GameRow.round),
        col(GameRow.table_no),
        col(GameRow.white),
        col(GameRow.black),
        col(GameRow.result),
        col(GameRow.status),
    )
    .where(col(GameRow.tournament_id) == bindparam("tournament"))
    .order_by(col(GameRow.round), col(GameRow.table_no))
)
"""`loading.GameColumns`, in round and table order."""
_ENGINE_BYES = sa_select(col(ByeRow.round), col(ByeRow.player), col(ByeRow.kind)).where(
    col(ByeRow.tournament_id) == bindparam("tournament")
)
"""`loading.ByeColumns`."""


async def confirmed_shortenings(
    session: AsyncSession, tournament_id: str
) -> list[tuple[int, int, float]]:
    """(round, white, minutes) of confirmed games with a FLAMPARK time shortening."""
    statement = select(GameRow.round, GameRow.white, GameRow.shortened_minutes).where(
        GameRow.tournament_id == tournament_id,
        GameRow.status == GameStatus.CONFIRMED,
        col(GameRow.shortened_minutes).is_not(None),
    )
    return [(r, w, m) for r, w, m in (await session.exec(statement)).all() if m]


async def find_game(
    session: AsyncSession, tournament_id: str, round_number: int, table: int
) -> GameRow | None:
    """The game at a table of a round, if there is one (preloaded, or read now)."""
    preloaded = transaction_of(session).preloaded
    if preloaded:
        game = preloaded.get((tournament_id, round_number, table))
        if game is not None:
            return game
    found = await session.exec(
        _GAME_AT_TABLE, params={"tournament": tournament_id, "round": round_number, "table": table}
    )
    return found.first()


async def preload_games(
    session: AsyncSession, tournament_id: str, places: Iterable[tuple[int, int]]
) -> None:
    """Read the games at these (round, table) places in one statement, for `find_game`
    to find for the rest of the transaction (a group of result reports committed
    together, `api.group_commit`). Call it only under the tournament's lock: a game read
    before the lock is granted may change before it is."""
    wanted = sorted(set(places))
    if not wanted:
        return
    statement = select(GameRow).where(
        GameRow.tournament_id == tournament_id,
        tuple_(GameRow.round, GameRow.table_no).in_(wanted),
    )
    found = transaction_of(session).preloaded
    for game in (await session.exec(statement)).all():
        found[(tournament_id, game.round, game.table_no)] = game


def discard_loaded(session: AsyncSession) -> None:
    """Forget every row the session has loaded, preloaded games too: the next reads load
    them again (after a refused request whose checks loaded or touched rows)."""
    session.expunge_all()
    transaction_of(session).preloaded.clear()


_GAME_AT_TABLE = select(GameRow).where(
    GameRow.tournament_id == bindparam("tournament"),
    GameRow.round == bindparam("round"),
    GameRow.table_no == bindparam("table"),
)
"""Built once: every result report looks its game up, and building the expression cost
more than running it."""


async def ratings_of(
    session: AsyncSession, tournament_id: str, numbers: Sequence[int]
) -> dict[int, int]:
    """Starting ratings of some players, by start number."""
    statement = select(PlayerRow.start_number, PlayerRow.rating).where(
        PlayerRow.tournament_id == tournament_id, col(PlayerRow.start_number).in_(numbers)
    )
    return {n: r for n, r in (await session.exec(statement)).all() if n is not None}
