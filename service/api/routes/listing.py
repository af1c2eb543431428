"""Lists for integrators: tournaments and bridge events (filtered, cursor-paged, newest
first), a tournament's rounds, and one player's games."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse, Response

from service.api.access import shows_personal_data
from service.api.deps import ReaderDep, SessionDep, StateDep, TournamentDep
from service.api.ids import is_id
from service.api.schemas.listing import (
    BridgeEventPage,
    BridgeEventSummary,
    PlayerBye,
    PlayerGame,
    PlayerGames,
    RoundList,
    RoundSummary,
    TournamentPage,
    TournamentSummary,
)
from service.api.schemas.tournaments import System
from service.db.listing import (
    PageKey,
    page_events,
    player_by_number,
    player_rounds,
    round_counts,
)
from service.db.player_reads import start_number_of
from service.db.tables import TournamentStatus
from service.errors import InvalidInput, NotFound
from service.views.rating_changes import games_document

router = APIRouter()

Limit = Annotated[int, Query(ge=1, le=200, description="Items per page")]
Cursor = Annotated[
    str | None,
    Query(max_length=200, description="`next_cursor` of the previous page"),
]


def _encode_cursor(key: PageKey | None) -> str | None:
    if key is None:
        return None
    raw = json.dumps([key.created_at.isoformat(), key.id], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(cursor: str | None) -> PageKey | None:
    """The page key inside a cursor: base64url of `[created_at, id]`, the time with its
    offset (ISO 8601), the id one `ids.is_id` takes. Any other cursor (other types or
    arity, a time without offset or out of range, not base64, not UTF-8) is a 422
    naming `cursor`, before any query runs."""
    if cursor is None:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        key = json.loads(raw)
        if not isinstance(key, list) or len(key) != 2:
            raise ValueError("not [created_at, id]")
        created_at, identifier = key
        if not isinstance(created_at, str) or not isinstance(identifier, str):
            raise ValueError("not two strings")
        moment = datetime.fromisoformat(created_at)
        if moment.tzinfo is None or not is_id(identifier):
            raise ValueError("no offset, or not an id")
        return PageKey(moment.astimezone(UTC), identifier)
    except (binascii.Error, ValueError, OverflowError, RecursionError):
        raise InvalidInput("not a cursor this service returned", field="cursor") from None


@router.get("/v1/tournaments", response_model=TournamentPage, tags=["tournaments"])
async def list_tournaments(
    session: SessionDep,
    status: Annotated[
        TournamentStatus | None, Query(description="Only tournaments in this state")
    ] = None,
    system: Annotated[
        list[System] | None, Query(description="Only these pairing systems (repeatable)")
    ] = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> TournamentPage:
    """Chess tournaments, newest first."""
    rows, next_key = await page_events(
        session,
        bridge=False,
        limit=limit,
        after=_decode_cursor(cursor),
        status=status,
        systems=system,
    )
    items = [
        TournamentSummary(
            id=row.id,
            name=row.name,
            system=row.system,
            status=row.status,
            rounds=row.total_rounds,
            current_round=row.current_round,
            players=players,
            created_at=row.created_at,
        )
        for row, players in rows
    ]
    return TournamentPage(items=items, next_cursor=_encode_cursor(next_key))


@router.get("/v1/bridge/events", response_model=BridgeEventPage, tags=["bridge-events"])
async def list_events(
    session: SessionDep,
    status: Annotated[
        str | None, Query(max_length=20, description="Only events in this state")
    ] = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> BridgeEventPage:
    """Bridge events (pairs sessions and teams events), newest first."""
    rows, next_key = await page_events(
        session, bridge=True, limit=limit, after=_decode_cursor(cursor), status=status
    )
    items = [
        BridgeEventSummary(
            id=row.id,
            name=row.name,
            kind="teams" if row.system == "bridge-teams" else "pairs",
            status=row.status,
            created_at=row.created_at,
        )
        for row, _ in rows
    ]
    return BridgeEventPage(items=items, next_cursor=_encode_cursor(next_key))


@router.get("/v1/tournaments/{tournament_id}/rounds", response_model=RoundList, tags=["rounds"])
async def list_rounds(tournament: TournamentDep, session: SessionDep) -> RoundList:
    """Every round paired so far, with how many results are in."""
    rounds = []
    for counts in await round_counts(session, tournament.id):
        statuses = counts.statuses
        games = sum(statuses.values())
        rounds.append(
            RoundSummary(
                round=counts.round,
                games=games,
                confirmed=statuses["confirmed"],
                provisional=statuses["provisional"],
                disputed=statuses["disputed"],
                pending=statuses["pending"],
                byes=counts.byes,
                complete=statuses["confirmed"] == games,
            )
        )
    return RoundList(rounds=rounds)


@router.get(
    "/v1/tournaments/{tournament_id}/players/{number}/games",
    response_model=PlayerGames,
    tags=["players"],
)
async def player_games(
    tournament: TournamentDep,
    session: SessionDep,
    state: StateDep,
    reader: ReaderDep,
    number: Annotated[
        int, Path(ge=1, le=100_000, description="The player's number in the tournament")
    ],
    ratings: Annotated[
        bool,
        Query(
            description="Add the player's rating and FIDE rating figures (`rating_change`) "
            "and each game's share (`rating`: PD, change, or why the game is not rated)."
        ),
    ] = False,
) -> PlayerGames | Response:
    """One player's games (from their side of the board) and byes, by round. With
    `ratings=true` (FIDE B.02 8.3, docs/rules/ratings.md#per-game) each game carries
    `rating`: for a rated game the score, the expected score PD (table 8.1.2, 400-point
    rule) and the change K x (score - PD), K the event's after the 700 cap (null while K
    is undecided, `rating_change.missing` naming what the start list lacks); a game not
    rated says why (`pending`: no confirmed result; `forfeit`; `unrated-opponent`;
    `unrated-player`). Byes are not rated."""
    start_number = await start_number_of(session, tournament.id, number)
    player = await player_by_number(session, tournament.id, start_number)
    if player is None:
        raise NotFound(f"no player has start number {start_number}", field="number")
    games, byes = await player_rounds(session, tournament.id, start_number)
    document = PlayerGames(
        number=number,
        start_number=start_number,
        name=player.name,
        games=[
            PlayerGame(
                round=g.round,
                table=g.table_no,
                colour="white" if g.white == start_number else "black",
                opponent=g.black if g.white == start_number else g.white,
                result=g.result,
                status=g.status,
            )
            for g in games
        ],
        byes=[PlayerBye(round=b.round, type=b.kind) for b in byes],
    )
    if not ratings:
        return document
    personal = shows_personal_data(tournament, reader)
    rated = await games_document(state.views, session, tournament, start_number, personal=personal)
    body = document.model_dump(mode="json")
    for game in body["games"]:
        game["rating"] = rated["games"].get(game["round"], _NOT_CONFIRMED)
    body["rating"] = rated["rating"]
    body["rating_change"] = rated["rating_change"]
    PlayerGames.model_validate(body)  # the documented shape, null fields kept
    return JSONResponse(body)


_NOT_CONFIRMED = {
    "rated": False,
    "reason": "pending",
    "score": None,
    "expected": None,
    "change": None,
}
"""A game the engine's view does not hold yet (paired, no result confirmed)."""
