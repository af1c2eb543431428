"""Dependencies as `Annotated` aliases: a handler's signature says what it needs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.idempotency import SESSION_SCOPE_KEY
from service.api.state import AppState
from service.db.repository import Actor, get_tournament
from service.db.tables import PlayerRow, TournamentRow
from service.db.tokens import hash_token, token_matches
from service.errors import Forbidden, NotFound, Unauthenticated

__all__ = [
    "ActorDep",
    "OrganizerDep",
    "SessionDep",
    "StateDep",
    "TournamentDep",
    "TournamentId",
]

_bearer = HTTPBearer(auto_error=False, description="Organizer or player token")


def get_state(request: Request) -> AppState:
    """The running app's resources."""
    state: AppState = request.app.state.arbiter
    return state


StateDep = Annotated[AppState, Depends(get_state)]


async def get_session(request: Request, state: StateDep) -> AsyncIterator[AsyncSession]:
    """A session per request. A write sent with `Idempotency-Key` runs in the session the
    idempotency middleware opened, which commits the write together with its stored
    response; otherwise handlers commit what they change (`publish.commit_and_publish`)."""
    owned = request.scope.get(SESSION_SCOPE_KEY)
    if owned is not None:
        yield owned
        return
    async with state.sessions() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]
TournamentId = Annotated[str, Path(min_length=1, max_length=64, description="Tournament id")]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def get_tournament_row(session: SessionDep, tournament_id: TournamentId) -> TournamentRow:
    """The chess tournament named in the path, or 404 (bridge events live under
    /v1/bridge/events and share only the live feed)."""
    row = await get_tournament(session, tournament_id)
    if row.system.startswith("bridge-"):
        raise NotFound(
            f"{tournament_id!r} is a bridge event: see /v1/bridge/events/{tournament_id}",
            field="tournament_id",
        )
    return row


TournamentDep = Annotated[TournamentRow, Depends(get_tournament_row)]


async def get_actor(
    session: SessionDep, tournament: TournamentDep, credentials: Credentials
) -> Actor:
    """The organizer or a player of this tournament, from the bearer token."""
    if credentials is None:
        raise Unauthenticated("send 'Authorization: Bearer <token>'", field="Authorization")
    token = credentials.credentials
    if token_matches(token, tournament.organizer_token_hash):
        return Actor("organizer")
    statement = select(PlayerRow).where(
        PlayerRow.tournament_id == tournament.id, PlayerRow.token_hash == hash_token(token)
    )
    player = (await session.exec(statement)).first()
    if player is None:
        raise Unauthenticated("this token does not belong to the tournament", field="Authorization")
    return Actor("player", player.start_number)


ActorDep = Annotated[Actor, Depends(get_actor)]


async def require_organizer(actor: ActorDep) -> Actor:
    """Only the organizer (arbiter) may do this."""
    if actor.kind != "organizer":
        raise Forbidden("only the organizer may do this", field="Authorization")
    return actor


OrganizerDep = Annotated[Actor, Depends(require_organizer)]
