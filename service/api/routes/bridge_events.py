"""Bridge events: a pairs session or a teams event, results per table, live ranking.

A bridge event is stored as a tournament (system "bridge-pairs" or "bridge-teams"), so
writes go through the same event log and live bus as every other tournament. Creating
an event returns the organizer token and one token per table (shown once); a table's
token enters that table's results only, the organizer's anything. The live feed at
`/v1/bridge/events/{id}/live` speaks the tournaments' protocol (snapshot, then one
message per event, `?since=<seq>` replay) with the bridge `ranking` in place of the
chess `standings`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import (
    APIRouter,
    Depends,
    Path,
    Query,
    Request,
    WebSocket,
    status,
)
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.access import TokenHolder, authorize_read, require_writer
from service.api.deps import SessionDep, StateDep, WriteContextDep, write_context
from service.api.ids import EventId
from service.api.publish import commit_and_publish
from service.api.routes.live import is_bridge, serve_live
from service.api.schemas.bridge import (
    BridgeEventCreate,
    BridgeEventCreated,
    BridgeEventPublic,
    BridgeImportSummary,
    BridgeRanking,
    BridgeResultPublic,
    BridgeResultSubmit,
    BridgeResultWithHistory,
)
from service.api.state import AppState
from service.api.write_access import checked_by, writes_to
from service.app.bridge_entry import (
    BridgeActor,
    ResultInput,
    stored_result,
)
from service.app.bridge_entry import (
    enter_result as enter_result_workflow,
)
from service.app.bridge_entry import (
    import_pbn as import_pbn_workflow,
)
from service.app.bridge_entry import (
    remove_result as remove_result_workflow,
)
from service.app.create import create_bridge_event
from service.app.unit_of_work import WriteContext
from service.db.bridge_reads import (
    count_results,
    get_bridge_event,
    list_results,
    result_document,
    result_history,
)
from service.db.tables import TournamentRow
from service.engine.bridge.movement import Layout
from service.errors import Forbidden, InvalidInput
from service.views.bridge_ranking import bridge_ranking_document

__all__ = ["router"]

router = APIRouter(prefix="/v1/bridge/events", tags=["bridge-events"])

MAX_PBN_BYTES = 5_000_000
PBN_BODY = {
    "requestBody": {
        "required": True,
        "content": {"text/plain": {"schema": {"type": "string"}}},
        "description": "PBN games with [Board], [Table], optional [Round], [Contract], "
        "[Declarer] and [Result] (tricks taken by declarer's side).",
    }
}

TableNo = Annotated[int, Path(ge=1, le=10_000, description="Table number")]
BoardNo = Annotated[int, Path(ge=1, le=10_000, description="Board number")]
_bearer = HTTPBearer(auto_error=False, description="Organizer or table token")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def _readable_event(
    session: AsyncSession, event_id: str, credentials: HTTPAuthorizationCredentials | None
) -> tuple[TournamentRow, TokenHolder | None]:
    """The event and who reads it, once the caller may (service.api.access: private
    events need a token of theirs, archived ones are 410)."""
    row = await get_bridge_event(session, event_id)
    token = None if credentials is None else credentials.credentials
    return row, await authorize_read(session, row, token)


async def _event(session: SessionDep, event_id: EventId, credentials: Credentials) -> TournamentRow:
    """The event, once the caller may read it (`_readable_event`)."""
    row, _reader = await _readable_event(session, event_id, credentials)
    return row


EventDep = Annotated[TournamentRow, Depends(_event)]


@dataclass(frozen=True, slots=True)
class BridgeWrite:
    """What a write to a bridge event needs: its unit of work, the app, the event and who
    writes (the bridge's `deps.Write`: one dependency, one token lookup)."""

    context: WriteContext
    state: AppState
    event: TournamentRow
    actor: BridgeActor

    @property
    def session(self) -> AsyncSession:
        """The unit of work's session."""
        return self.context.session

    @property
    def layout(self) -> Layout:
        """The event's movement or schedule, players and boards (cached per event)."""
        return self.state.views.layout(self.event)


def _bridge_actor(event: TournamentRow, reader: TokenHolder | None) -> BridgeActor:
    """The organizer or a table; the viewer token is 403 (service.api.access)."""
    writer = require_writer(event, reader)
    if writer.role == "organizer":
        return BridgeActor("organizer")
    return BridgeActor("table", writer.table)


@asynccontextmanager
async def _bridge_writing(
    request: Request, event_id: str, credentials: HTTPAuthorizationCredentials | None
) -> AsyncIterator[tuple[WriteContext, AppState, TournamentRow, BridgeActor]]:
    """401 and 410 from the event and the token first (`authorize_read`), then 403 for
    the viewer token (`require_writer`)."""
    async with write_context(request) as (context, state):
        event, reader = await _readable_event(context.session, event_id, credentials)
        yield context, state, event, _bridge_actor(event, reader)


async def _may_write(session: AsyncSession, params: Mapping[str, Any], token: str | None) -> None:
    """`get_bridge_write`'s check of its caller, for a replay (`api.write_access`)."""
    event = await get_bridge_event(session, params["event_id"])
    _bridge_actor(event, await authorize_read(session, event, token))


async def _may_organize(
    session: AsyncSession, params: Mapping[str, Any], token: str | None
) -> None:
    """`get_bridge_organizer_write`'s check of its caller, for a replay."""
    event = await get_bridge_event(session, params["event_id"])
    _only_the_organizer(_bridge_actor(event, await authorize_read(session, event, token)))


def _only_the_organizer(actor: BridgeActor) -> None:
    if actor.kind != "organizer":
        raise Forbidden("only the organizer may do this", field="Authorization")


@writes_to("bridge/events/{event_id}")
@checked_by(_may_write)
async def get_bridge_write(
    request: Request, event_id: EventId, credentials: Credentials
) -> AsyncIterator[BridgeWrite]:
    """The event's unit of work and the event, once its organizer or one of its tables
    writes."""
    async with _bridge_writing(request, event_id, credentials) as (context, state, event, actor):
        yield BridgeWrite(context, state, event, actor)


BridgeWriteDep = Annotated[BridgeWrite, Depends(get_bridge_write)]


@writes_to("bridge/events/{event_id}")
@checked_by(_may_organize)
async def get_bridge_organizer_write(
    request: Request, event_id: EventId, credentials: Credentials
) -> AsyncIterator[BridgeWrite]:
    """`get_bridge_write` for what only the organizer may do: a table's token is 403
    before anything else is read (a PBN file's body included)."""
    async with _bridge_writing(request, event_id, credentials) as (context, state, event, actor):
        _only_the_organizer(actor)
        yield BridgeWrite(context, state, event, actor)


BridgeOrganizerWriteDep = Annotated[BridgeWrite, Depends(get_bridge_organizer_write)]


async def _event_public(
    session: AsyncSession, state: AppState, row: TournamentRow
) -> dict[str, Any]:
    layout = state.views.layout(row)
    settings = row.settings
    document: dict[str, Any] = {
        "id": row.id,
        "name": row.name,
        "kind": layout.kind,
        "scoring": layout.scoring,
        "status": row.status,
        "rounds": layout.rounds,
        "current_round": row.current_round,
        "boards": list(layout.boards),
        "entrants": [{"number": n, "name": name} for n, name in layout.entrants.items()],
        "results": await count_results(session, row.id),
        "expected_results": len(layout.plays),
        "visibility": row.visibility,
    }
    if layout.kind == "pairs":
        document["movement"] = settings["movement"]
        method = layout.scoring  # Butler and Cavendish sessions show their options
        shown = method in ("butler", "cavendish")
        document["options"] = {method: settings.get(method) or {}} if shown else {}
    else:
        document["matches"] = settings["rounds"]
        document["options"] = {"scale": settings.get("scale", "wbf-2013")}
    return document


@router.post("", status_code=status.HTTP_201_CREATED, response_model=BridgeEventCreated)
async def create(
    body: BridgeEventCreate, context: WriteContextDep, state: StateDep
) -> dict[str, Any]:
    """Create a pairs session (`"kind": "pairs"`: pairs, boards, movement, scoring
    `matchpoints`, `butler` or `cavendish`) or a teams event (`"kind": "teams"`: teams,
    boards, rounds of matches, VP scale). The organizer token and the table tokens in
    the response are shown only this once."""
    unused = {"scoring", "butler", "cavendish"} if body.kind == "teams" else {"scale"}
    settings = body.model_dump(
        mode="json", by_alias=True, exclude_none=True, exclude=unused | {"visibility"}
    )
    session = context.session
    created = await create_bridge_event(session, settings, private=body.visibility == "private")
    row = created.event
    state.views.layouts[row.id] = created.layout
    await commit_and_publish(context, state, row)
    return {
        **await _event_public(session, state, row),
        "organizer_token": created.organizer_token,
        "table_tokens": [
            {"table": table, "token": secret} for table, secret in created.table_tokens
        ],
        "viewer_token": created.viewer_token,
    }


@router.get("/{event_id}", response_model=BridgeEventPublic)
async def read(event: EventDep, session: SessionDep, state: StateDep) -> dict[str, Any]:
    """An event's settings and state."""
    return await _event_public(session, state, event)


@router.get("/{event_id}/results", response_model=list[BridgeResultPublic])
async def results(
    event: EventDep,
    session: SessionDep,
    board: Annotated[int | None, Query(ge=1, le=10_000, description="Only this board")] = None,
) -> list[dict[str, Any]]:
    """Every result entered, by board, round and table."""
    return [result_document(r) for r in await list_results(session, event.id, board)]


def _input(body: BridgeResultSubmit) -> ResultInput:
    adjusted = None
    if body.adjusted is not None:
        engine = body.adjusted.to_engine()
        adjusted = (engine.ns_percent, engine.ew_percent)
    return ResultInput(body.contract, body.declarer, body.tricks, adjusted)


@router.put("/{event_id}/tables/{table}/boards/{board}", response_model=BridgeResultPublic)
async def enter_result(
    body: BridgeResultSubmit,
    write: BridgeWriteDep,
    table: TableNo,
    board: BoardNo,
) -> dict[str, Any]:
    """Enter (or correct) one board's result at one table: `{"contract": "4SX",
    "declarer": "N", "tricks": 8}`, `{"contract": "pass"}`, or, organizer only, an
    artificial score `{"adjusted": {"ns_percent": 60, "ew_percent": 40}}`. The NS score
    follows from the board's vulnerability (Law 77). A correction keeps the previous
    value in the event log; repeating the stored result changes nothing."""
    session, event = write.session, write.event
    outcome = await enter_result_workflow(
        session, event, write.layout, table, board, _input(body), write.actor
    )
    if outcome.seq is not None:
        await commit_and_publish(write.context, write.state, event)
    return result_document(outcome.result)


@router.delete("/{event_id}/tables/{table}/boards/{board}", status_code=status.HTTP_204_NO_CONTENT)
async def remove_result(
    write: BridgeOrganizerWriteDep,
    table: TableNo,
    board: BoardNo,
) -> None:
    """Remove a result entered by mistake (organizer only, e.g. a table that keyed in a
    board it did not play). The event log keeps the removed value."""
    session, event = write.session, write.event
    await remove_result_workflow(session, event, write.layout, table, board, write.actor)
    await commit_and_publish(write.context, write.state, event)


@router.get("/{event_id}/tables/{table}/boards/{board}", response_model=BridgeResultWithHistory)
async def read_result(
    event: EventDep, session: SessionDep, state: StateDep, table: TableNo, board: BoardNo
) -> dict[str, Any]:
    """One result with every change it went through (oldest first)."""
    stored = await stored_result(session, event, state.views.layout(event), table, board)
    history = await result_history(session, event.id, table, board)
    return {**result_document(stored), "history": history}


@router.get("/{event_id}/ranking", response_model=BridgeRanking)
async def read_ranking(event: EventDep, session: SessionDep, state: StateDep) -> dict[str, Any]:
    """The live ranking: matchpoint percentage, Butler or Cavendish IMPs (pairs), VP
    then IMP difference (teams), from the results entered so far."""
    return await bridge_ranking_document(state.views, session, event)


@router.post("/{event_id}/import", response_model=BridgeImportSummary, openapi_extra=PBN_BODY)
async def import_pbn(request: Request, write: BridgeOrganizerWriteDep) -> dict[str, int]:
    """Enter results from a PBN file (organizer only). Every game with a [Contract]
    needs [Board] and [Table] (PBN 2.1 supplemental tag); [Round] and [Vulnerable],
    when given, must agree with the movement and the board. [Result] is the number of
    tricks declarer took. All or nothing: one bad game stores none, and the error
    names it (`games.3.Table`, 0-based among the games with a contract)."""
    raw = await request.body()
    if len(raw) > MAX_PBN_BYTES:
        raise InvalidInput(f"the file exceeds {MAX_PBN_BYTES} bytes", field="body")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    session, event = write.session, write.event
    outcome = await import_pbn_workflow(session, event, write.layout, text, write.actor)
    if outcome.changed:
        await commit_and_publish(write.context, write.state, event)
    return {
        "games": outcome.games,
        "changed": outcome.changed,
        "unchanged": outcome.games - outcome.changed,
    }


# --- live --------------------------------------------------------------------------


@router.websocket("/{event_id}/live")
async def live(
    websocket: WebSocket, event_id: str, since: str | None = None, delta: str | None = None
) -> None:
    """Stream an event's results and ranking: a `snapshot` (`seq`, `status`, `round`,
    `ranking`), then one message per event; the newest result event carries the
    `ranking` and the `changed` rows. `?since=<seq>` replays exactly the events after
    `seq` first; `?delta=compact` gives the ranks as one list. The same handler as the
    tournaments' feed."""
    await serve_live(websocket, event_id, since, is_bridge, delta)
