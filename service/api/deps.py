"""Dependencies as `Annotated` aliases: a handler's signature says what it needs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import event
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.access import TokenHolder, authorize_read, require_writer
from service.api.idempotency import WRITE_CONTEXT_KEY, write_context_of
from service.api.ids import TournamentId
from service.api.state import AppState
from service.api.write_access import checked_by, write_routes, writes_to
from service.app.actor import Actor
from service.app.unit_of_work import WriteContext
from service.db.repository import get_locked_tournament
from service.db.tables import TournamentKind, TournamentRow
from service.db.tournament_reads import get_tournament
from service.errors import Forbidden, NotFound

__all__ = [
    "Access",
    "AccessDep",
    "OrganizerWriteDep",
    "PageTournamentDep",
    "ReaderDep",
    "SessionDep",
    "StateDep",
    "TournamentDep",
    "TournamentId",
    "Write",
    "WriteContextDep",
    "WriteDep",
    "write_context",
]

_bearer = HTTPBearer(auto_error=False, description="Organizer, player or viewer token")


@dataclass(frozen=True, slots=True)
class Access:
    """A tournament and who reads it (None: no token)."""

    row: TournamentRow
    reader: TokenHolder | None


async def get_state(request: Request) -> AppState:
    """The running app's resources (a coroutine: FastAPI would run a plain function on
    its thread pool, a thread hop per request for one attribute read)."""
    state: AppState = request.app.state.arbiter
    return state


StateDep = Annotated[AppState, Depends(get_state)]
_READS = frozenset({"GET", "HEAD"})
"""Methods whose requests only read: their sessions come from the readers' pool."""


async def get_session(request: Request, state: StateDep) -> AsyncIterator[AsyncSession]:
    """A session per request. GET and HEAD requests read from the readers' pool
    (`AppState.read_session`), so no queue of writers can hold them up; a write runs in
    its unit of work's session (`write_context`)."""
    if request.method in _READS and write_context_of(request.scope) is None:
        async with state.read_session() as session:
            yield session
        return
    async with write_context(request) as (context, _state):
        yield context.session


@asynccontextmanager
async def write_context(request: Request) -> AsyncIterator[tuple[WriteContext, AppState]]:
    """The unit of work of a write request (`app.unit_of_work.WriteContext`) and the app.
    A write sent with `Idempotency-Key`, and a result report, runs in the one the
    idempotency middleware opened, which commits the write (with its stored response, if
    keyed; in a group: `api.group_commit`); otherwise one is opened here, at the head of
    the write queue of the tournament the route declares (`api.write_access.writes_to`),
    and the route commits it (`publish.commit_and_publish`). It is left in the request's
    scope, so the request's other dependencies share it."""
    state: AppState = request.app.state.arbiter
    held = write_context_of(request.scope)
    if held is not None:
        yield held, state
        return
    found = write_routes(request.app).find(request.scope)
    route, params = found if found is not None else (None, {})
    key = None if route is None else route.queue_key(params)
    async with state.write_queues.hold(key) as hold, state.sessions() as session:
        # Let the next writer in as soon as the write commits: this session lives until the answer
        # has been sent, and a client slow to read it must not hold up the next writer.
        event.listen(session.sync_session, "after_commit", lambda _session: hold.release())
        context = WriteContext(session, key, may_join_group=route is not None and route.joins_group)
        request.scope[WRITE_CONTEXT_KEY] = context
        try:
            yield context, state
        finally:
            request.scope.pop(WRITE_CONTEXT_KEY, None)


async def get_write_context(request: Request) -> AsyncIterator[WriteContext]:
    """The unit of work of a write that names no tournament of its own in a dependency
    (a creation, an import: `write_context`)."""
    async with write_context(request) as (context, _state):
        yield context


SessionDep = Annotated[AsyncSession, Depends(get_session)]
WriteContextDep = Annotated[WriteContext, Depends(get_write_context)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def _access(
    session: AsyncSession, tournament_id: str, token: str | None, *, lock: bool = False
) -> Access:
    load = get_locked_tournament if lock else get_tournament
    row = await load(session, tournament_id)
    if row.kind == TournamentKind.BRIDGE:
        raise NotFound(
            f"{tournament_id!r} is a bridge event: see /v1/bridge/events/{tournament_id}",
            field="tournament_id",
        )
    return Access(row, await authorize_read(session, row, token))


async def get_access(
    session: SessionDep, tournament_id: TournamentId, credentials: Credentials
) -> Access:
    """The chess tournament named in the path and who reads it (bridge events live under
    /v1/bridge/events and share only the live feed): 404 when unknown, 401 for a private
    tournament without one of its tokens or with a bad or expired token, 410 once
    archived (service.api.access)."""
    return await _access(session, tournament_id, _token_of(credentials))


def _token_of(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return None if credentials is None else credentials.credentials


AccessDep = Annotated[Access, Depends(get_access)]


async def get_tournament_row(access: AccessDep) -> TournamentRow:
    """The tournament, once the caller may read it."""
    return access.row


TournamentDep = Annotated[TournamentRow, Depends(get_tournament_row)]


async def get_reader(access: AccessDep) -> TokenHolder | None:
    """Whose token came with the request (None: no token, on a public tournament)."""
    return access.reader


ReaderDep = Annotated[TokenHolder | None, Depends(get_reader)]

PageToken = Annotated[
    str | None,
    Query(
        alias="token",
        max_length=200,
        description="A token of a private tournament, for browsers that cannot send "
        "an Authorization header (pages, links). Prefer the header elsewhere.",
    ),
]


async def get_page_tournament(
    session: SessionDep,
    tournament_id: TournamentId,
    credentials: Credentials,
    token: PageToken = None,
) -> TournamentRow:
    """The tournament for an HTML page: the token may come as `?token=` (a wall screen
    or a printed link cannot send headers); the header wins when both are sent."""
    presented = _token_of(credentials) or token
    return (await _access(session, tournament_id, presented)).row


PageTournamentDep = Annotated[TournamentRow, Depends(get_page_tournament)]


def _writer(access: Access) -> Actor:
    """The organizer, a player or a team's captain of this tournament, from the bearer
    token: the viewer
    token and a withdrawn player's token are 403, writes to an archived tournament 410."""
    reader = require_writer(access.row, access.reader)
    if reader.role == "organizer":
        return Actor("organizer")
    if reader.role == "captain":
        return Actor("captain", team=reader.team)
    return Actor("player", reader.start_number)


def _organizer(access: Access) -> Actor:
    """Only the organizer (arbiter) may do this: any other token of the tournament is
    403 (checked before a withdrawn player's or the viewer's own refusal)."""
    if access.reader is not None and access.reader.role != "organizer":
        raise Forbidden("only the organizer may do this", field="Authorization")
    return _writer(access)


@dataclass(frozen=True, slots=True)
class Write:
    """What a write to a tournament needs: its unit of work, the app, the tournament and
    who writes. One dependency for the four: FastAPI walks every dependency's whole
    subtree on each request, even one it has already solved, so four that share the
    session and the token cost a write about three times the walk of this one (the
    dependency walk was a fifth of a reported result's time;
    docs/decisions/one-dependency-per-write.md)."""

    context: WriteContext
    state: AppState
    tournament: TournamentRow
    actor: Actor

    @property
    def session(self) -> AsyncSession:
        """The unit of work's session."""
        return self.context.session


async def _may_write(session: AsyncSession, params: Mapping[str, Any], token: str | None) -> None:
    """`get_write`'s check of its caller, for a replay (`api.write_access`)."""
    _writer(await _access(session, params["tournament_id"], token))


async def _may_organize(
    session: AsyncSession, params: Mapping[str, Any], token: str | None
) -> None:
    """`get_organizer_write`'s check of its caller, for a replay (`api.write_access`)."""
    _organizer(await _access(session, params["tournament_id"], token))


@writes_to("tournaments/{tournament_id}")
@checked_by(_may_write)
async def get_write(
    request: Request, tournament_id: TournamentId, credentials: Credentials
) -> AsyncIterator[Write]:
    """The tournament's session (`get_session`) and the tournament, once its organizer or
    one of its players writes (`_writer`)."""
    async with _writing(request, tournament_id, credentials) as (context, state, access):
        yield Write(context, state, access.row, _writer(access))


WriteDep = Annotated[Write, Depends(get_write)]


@writes_to("tournaments/{tournament_id}")
@checked_by(_may_organize)
async def get_organizer_write(
    request: Request, tournament_id: TournamentId, credentials: Credentials
) -> AsyncIterator[Write]:
    """`get_write` for what only the organizer may do (`_organizer`)."""
    async with _writing(request, tournament_id, credentials) as (context, state, access):
        yield Write(context, state, access.row, _organizer(access))


OrganizerWriteDep = Annotated[Write, Depends(get_organizer_write)]


@writes_to("tournaments/{tournament_id}")
@checked_by(_may_organize)
async def get_organizer_post(access: AccessDep) -> Actor:
    """The organizer, for a POST that stores nothing but answers with secrets (the
    phone cards carry players' tokens: docs/phone.md): it waits in the tournament's
    write queue like every POST under a tournament (the tokens it checks are then the
    current ones), and a replay of its `Idempotency-Key` answer is checked as an
    organizer's write is."""
    return _organizer(access)


OrganizerPostDep = Annotated[Actor, Depends(get_organizer_post)]


@writes_to("tournaments/{tournament_id}")
@checked_by(_may_write)
async def get_locking_write(
    request: Request, tournament_id: TournamentId, credentials: Credentials
) -> AsyncIterator[Write]:
    """`get_write` for a write that locks the tournament first thing (a result report:
    `db.events.lock_and_reload`): the tournament is locked as it is loaded, one
    statement, so the write makes one round trip fewer while it waits on the loop."""
    async with _writing(request, tournament_id, credentials, lock=True) as (
        context,
        state,
        access,
    ):
        yield Write(context, state, access.row, _writer(access))


LockingWriteDep = Annotated[Write, Depends(get_locking_write)]


@asynccontextmanager
async def _writing(
    request: Request,
    tournament_id: str,
    credentials: HTTPAuthorizationCredentials | None,
    *,
    lock: bool = False,
) -> AsyncIterator[tuple[WriteContext, AppState, Access]]:
    async with write_context(request) as (context, state):
        yield (
            context,
            state,
            await _access(context.session, tournament_id, _token_of(credentials), lock=lock),
        )
