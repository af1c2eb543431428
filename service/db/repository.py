"""Tournament persistence: the reads and writes behind every endpoint.

Every write runs inside the caller's transaction and appends its events there, so a
failed request leaves nothing behind. Writers lock the tournament first
(`lock_tournament`), which makes read-modify-write sequences safe under concurrency.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import select as sa_select
from sqlmodel import col, func, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.events import append_event, lock_tournament
from service.db.loading import ByeRecord, GameRecord, engine_tournament
from service.db.tables import ByeRow, GameRow, PlayerRow, TournamentRow
from service.db.tokens import hash_token, new_token
from service.engine.model import Round, Tournament
from service.errors import Conflict, Forbidden, InvalidInput, NotFound

__all__ = [
    "Actor",
    "ReportOutcome",
    "add_player",
    "confirmed_shortenings",
    "count_players",
    "create_tournament",
    "delete_player",
    "find_game",
    "get_player",
    "get_tournament",
    "list_players",
    "load_engine_tournament",
    "ratings_of",
    "round_rows",
    "store_round",
    "submit_result",
    "update_player",
]


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is writing: the organizer, or a player (by start number)."""

    kind: Literal["organizer", "player"]
    start_number: int | None = None


@dataclass(frozen=True, slots=True)
class ReportOutcome:
    """What a result submission did."""

    game: GameRow
    seq: int | None
    """The event's sequence number, None when nothing changed (a repeat)."""


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
    await append_event(session, row.id, "tournament_created", {"name": name, "system": system})
    return row, token


async def get_tournament(session: AsyncSession, tournament_id: str) -> TournamentRow:
    """The tournament, or NotFound."""
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


def _require_open(tournament: TournamentRow) -> None:
    if tournament.status != "registration":
        raise Conflict(
            "the start list is closed (the tournament has started): only a withdrawal "
            '(PATCH with {"withdrawn": true}) or, in a Swiss tournament, a late entry '
            "(POST .../players) changes the field now",
            field="status",
        )


SWISS_SYSTEMS = frozenset({"swiss-dutch", "swiss-jca"})
"""Systems paired round by round, which accept late entries and withdrawals."""


async def add_player(
    session: AsyncSession, tournament: TournamentRow, fields: dict[str, Any]
) -> tuple[PlayerRow, str | None]:
    """Register a player while the start list is open, or a late entry in a running Swiss
    tournament (FIDE C.04.A: the late entry takes the next start number, has no game in
    the rounds already paired, and receives a player token at once)."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    late = tournament.status == "running" and tournament.system in SWISS_SYSTEMS
    if not late:
        _require_open(tournament)
    fields = dict(fields)
    identity = fields.pop("identity", None)
    player = PlayerRow(
        tournament_id=tournament.id, extra={"identity": identity} if identity else {}, **fields
    )
    token = None
    if late:
        numbers = [p.start_number or 0 for p in await list_players(session, tournament.id)]
        player.start_number = max(numbers, default=0) + 1
        token = new_token("ply")
        player.token_hash = hash_token(token)
        player.extra = {**player.extra, "late_entry_round": tournament.current_round + 1}
    session.add(player)
    await session.flush()
    payload = {"id": player.id, "start_number": player.start_number, **fields}
    await append_event(session, tournament.id, "player_added", payload)
    return player, token


async def get_player(session: AsyncSession, tournament_id: str, player_id: int) -> PlayerRow:
    """A player of this tournament by row id, or NotFound."""
    player = await session.get(PlayerRow, player_id)
    if player is None or player.tournament_id != tournament_id:
        raise NotFound(f"no player {player_id} in this tournament", field="player_id")
    return player


async def update_player(
    session: AsyncSession, tournament: TournamentRow, player_id: int, fields: dict[str, Any]
) -> PlayerRow:
    """Change a player's details while the start list is open; in a running tournament
    only `withdrawn` may change.

    A withdrawn player of a Swiss tournament is not paired again. In a tournament paired
    in advance (round-robin, FLAMPARK) the withdrawn player's games with no result
    reported become forfeit losses for them, recorded as the organizer's results with
    one event each (seed 000: a walkover is not counted for the opponent and costs its
    giver half a point); a reported or disputed game is left for the organizer, since it
    may have been played. Reinstating a player changes no recorded result.
    """
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    withdrawal = tournament.status == "running" and set(fields) == {"withdrawn"}
    if not withdrawal:
        _require_open(tournament)
    player = await get_player(session, tournament.id, player_id)
    if withdrawal and fields["withdrawn"] and tournament.system not in SWISS_SYSTEMS:
        await _forfeit_open_games(session, tournament, player)
    for name, value in fields.items():
        if name == "withdrawn":
            player.extra = {**player.extra, "withdrawn": bool(value)}
        elif name == "identity":
            player.extra = {**player.extra, "identity": value}
        else:
            setattr(player, name, value)
    session.add(player)
    await append_event(session, tournament.id, "player_updated", {"id": player_id, **fields})
    return player


async def _forfeit_open_games(
    session: AsyncSession, tournament: TournamentRow, player: PlayerRow
) -> None:
    """Record a forfeit loss for `player` in each of their games with no result
    reported (a pre-paired schedule keeps the withdrawn player's games)."""
    number = player.start_number
    statement = (
        select(GameRow)
        .where(
            GameRow.tournament_id == tournament.id,
            GameRow.status == "pending",
            or_(GameRow.white == number, GameRow.black == number),
        )
        .order_by(col(GameRow.round), col(GameRow.table_no))
    )
    organizer = Actor("organizer")
    for game in (await session.exec(statement)).all():
        result = "-+" if game.white == number else "+-"
        await submit_result(
            session,
            tournament,
            game.round,
            game.table_no,
            result,
            organizer,
            extra={"forfeit": "withdrawal"},
        )


async def delete_player(session: AsyncSession, tournament: TournamentRow, player_id: int) -> None:
    """Remove a player while the start list is open."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    _require_open(tournament)
    player = await get_player(session, tournament.id, player_id)
    await session.delete(player)
    await append_event(session, tournament.id, "player_removed", {"id": player_id})


async def close_start_list(
    session: AsyncSession, tournament: TournamentRow
) -> list[tuple[PlayerRow, str]]:
    """Number the players (rating descending, ties by name) and issue their tokens."""
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    _require_open(tournament)
    players = await list_players(session, tournament.id)
    if len(players) < 2:
        raise InvalidInput(
            f"a tournament needs at least 2 players, it has {len(players)}", field="players"
        )
    players.sort(key=lambda p: (-p.rating, p.name.casefold(), p.id or 0))
    issued: list[tuple[PlayerRow, str]] = []
    for number, player in enumerate(players, start=1):
        token = new_token("ply")
        player.start_number = number
        player.token_hash = hash_token(token)
        session.add(player)
        issued.append((player, token))
    tournament.status = "running"
    session.add(tournament)
    await session.flush()
    return issued


async def store_round(session: AsyncSession, tournament: TournamentRow, rnd: Round) -> None:
    """Persist a paired round (games in table order and byes).

    Games that already carry a result (an imported file) are stored as confirmed.
    """
    for table, game in enumerate(rnd.games, start=1):
        session.add(
            GameRow(
                tournament_id=tournament.id,
                round=rnd.number,
                table_no=game.table or table,
                white=game.white,
                black=game.black,
                result=None if game.result is None else game.result.value,
                status="pending" if game.result is None else "confirmed",
            )
        )
    for bye in rnd.byes:
        session.add(
            ByeRow(tournament_id=tournament.id, round=rnd.number, player=bye.player, kind=bye.kind)
        )
    await session.flush()


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


async def load_engine_tournament(
    session: AsyncSession, tournament: TournamentRow, *, confirmed_only: bool = True
) -> Tournament:
    """The whole tournament as an engine value.

    Reads plain column tuples (no ORM objects): this runs after every result, and a
    large event has tens of thousands of games."""
    players = await list_players(session, tournament.id)
    game_columns = (
        sa_select(
            col(GameRow.round),
            col(GameRow.table_no),
            col(GameRow.white),
            col(GameRow.black),
            col(GameRow.result),
            col(GameRow.status),
        )
        .where(col(GameRow.tournament_id) == tournament.id)
        .order_by(col(GameRow.round), col(GameRow.table_no))
    )
    bye_columns = select(ByeRow.round, ByeRow.player, ByeRow.kind).where(
        ByeRow.tournament_id == tournament.id
    )
    rows = (await session.exec(game_columns)).all()  # type: ignore[call-overload]
    games = [GameRecord(*values) for values in rows]
    byes = [ByeRecord(*values) for values in (await session.exec(bye_columns)).all()]
    return engine_tournament(tournament, players, games, byes, confirmed_only=confirmed_only)


async def confirmed_shortenings(
    session: AsyncSession, tournament_id: str
) -> list[tuple[int, int, float]]:
    """(round, white, minutes) of confirmed games with a FLAMPARK time shortening."""
    statement = select(GameRow.round, GameRow.white, GameRow.shortened_minutes).where(
        GameRow.tournament_id == tournament_id,
        GameRow.status == "confirmed",
        col(GameRow.shortened_minutes).is_not(None),
    )
    return [(r, w, m) for r, w, m in (await session.exec(statement)).all() if m]


async def submit_result(
    session: AsyncSession,
    tournament: TournamentRow,
    round_number: int,
    table: int,
    result: str,
    actor: Actor,
    extra: dict[str, Any] | None = None,
) -> ReportOutcome:
    """Record a result (DESIGN: a player's report is provisional; both agreeing or the
    organizer confirms; disagreement marks the game disputed until the organizer decides).

    Every change appends an event that carries the previous state: nothing is silently
    overwritten. Repeating what is already recorded changes nothing and adds no event.
    """
    await lock_tournament(session, tournament.id)
    await session.refresh(tournament)
    if tournament.status == "registration":
        raise Conflict(
            "the tournament has not started: close the start list first "
            f"(POST /v1/tournaments/{tournament.id}/start); results come after the pairing",
            field="status",
        )
    game = await _find_game(session, tournament, round_number, table)
    previous = {"result": game.result, "status": game.status, "reports": dict(game.reports)}
    previous_extra = dict(game.extra)
    reports = dict(game.reports)
    if actor.kind == "organizer":
        unchanged_extra = not extra or all(game.extra.get(k) == v for k, v in extra.items())
        if game.status == "confirmed" and game.result == result and unchanged_extra:
            return ReportOutcome(game, None)
        event = "result_corrected" if game.status == "confirmed" else "result_confirmed"
        reports["arbiter"] = result
        game.result, game.status = result, "confirmed"
    else:
        side = _side_of(game, actor.start_number)
        if game.status == "confirmed":
            if game.result == result:
                return ReportOutcome(game, None)
            raise Conflict(
                f"the result is already confirmed as {game.result}; ask the arbiter",
                field="result",
            )
        if reports.get(side) == result:
            return ReportOutcome(game, None)
        reports[side] = result
        other = reports.get("black" if side == "white" else "white")
        if other is None:
            event, game.status, game.result = "result_reported", "provisional", result
        elif other == result:
            event, game.status, game.result = "result_confirmed", "confirmed", result
        else:
            event, game.status, game.result = "result_disputed", "disputed", None
    game.reports = reports
    if extra:
        game.extra = {**game.extra, **extra}
        minutes = extra.get("time_shortened_minutes")
        if minutes is not None:
            game.shortened_minutes = float(minutes)
    session.add(game)
    payload = {
        "round": game.round,
        "table": game.table_no,
        "white": game.white,
        "black": game.black,
        "result": game.result,
        "status": game.status,
        "by": actor.kind if actor.kind == "organizer" else f"player:{actor.start_number}",
        "previous": {**previous, "extra": previous_extra},
        "time_shortened_minutes": game.shortened_minutes,  # the request's name
        **({"extra": extra} if extra else {}),
    }
    seq = await append_event(session, tournament.id, event, payload)
    await _advance(session, tournament)
    return ReportOutcome(game, seq)


async def find_game(
    session: AsyncSession, tournament_id: str, round_number: int, table: int
) -> GameRow | None:
    """The game at a table of a round, if there is one."""
    statement = select(GameRow).where(
        GameRow.tournament_id == tournament_id,
        GameRow.round == round_number,
        GameRow.table_no == table,
    )
    return (await session.exec(statement)).first()


async def ratings_of(
    session: AsyncSession, tournament_id: str, numbers: Sequence[int]
) -> dict[int, int]:
    """Starting ratings of some players, by start number."""
    statement = select(PlayerRow.start_number, PlayerRow.rating).where(
        PlayerRow.tournament_id == tournament_id, col(PlayerRow.start_number).in_(numbers)
    )
    return {n: r for n, r in (await session.exec(statement)).all() if n is not None}


async def _find_game(
    session: AsyncSession, tournament: TournamentRow, round_number: int, table: int
) -> GameRow:
    game = await find_game(session, tournament.id, round_number, table)
    if game is not None:
        return game
    paired = select(func.count()).where(
        GameRow.tournament_id == tournament.id, GameRow.round == round_number
    )
    byes = select(func.count()).where(
        ByeRow.tournament_id == tournament.id, ByeRow.round == round_number
    )
    if not (await session.exec(paired)).one() and not (await session.exec(byes)).one():
        raise NotFound(f"round {round_number} has not been paired", field="round_number")
    raise NotFound(f"round {round_number} has no game at table {table}", field="table")


def _side_of(game: GameRow, start_number: int | None) -> str:
    if start_number == game.white:
        return "white"
    if start_number == game.black:
        return "black"
    raise Forbidden("a player may report only the results of their own games", field="table")


async def _advance(session: AsyncSession, tournament: TournamentRow) -> None:
    """Move `current_round` past fully confirmed rounds; finish when all are done."""
    await session.flush()
    mine = GameRow.tournament_id == tournament.id
    first_open = (
        await session.exec(
            select(func.min(GameRow.round)).where(mine, GameRow.status != "confirmed")
        )
    ).one()
    paired = (await session.exec(select(func.max(GameRow.round)).where(mine))).one() or 0
    if first_open is not None:
        tournament.current_round = first_open
    else:
        tournament.current_round = paired
        if tournament.total_rounds is not None and paired >= tournament.total_rounds:
            tournament.status = "finished"
    session.add(tournament)
