"""Reading a tournament's games and byes: a round's rows, the last round paired, the
game at a table (read ahead for a group of result reports), the FLAMPARK shortenings.

Nothing here adds or changes rows (`service.db.repository` stores rounds and
`service.db.result_rows` stores results, for the application layer's workflows), so
the routes read through it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import bindparam, tuple_
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.session import transaction_of
from service.db.tables import ByeRow, GameRow
from service.engine.result_reporting import GameStatus

__all__ = [
    "confirmed_shortenings",
    "discard_loaded",
    "find_game",
    "last_paired_round",
    "preload_games",
    "round_rows",
]


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
