"""The organizer's tokens (docs/api.md#tokens-and-scopes): rotate or revoke a
tournament's or a bridge event's.

Tokens are managed with `POST .../tokens/rotate` and `POST .../tokens/revoke`, a body
naming whose token: every credential of a tournament (organizer, viewer, a player's, a
bridge table's) is handled in one place with one vocabulary, a rotation is not
idempotent (each call mints a new secret, so it is a POST, not a PUT), and the token is
never part of a URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.access import TokenHolder, authorize_read, require_writer
from service.api.deps import OrganizerWriteDep, StateDep, WriteContextDep
from service.api.ids import EventId
from service.api.publish import commit_and_publish
from service.api.schemas.access import (
    BridgeTokenRevoke,
    BridgeTokenRotate,
    TokenIssued,
    TokenRevoke,
    TokenRotate,
)
from service.api.write_access import checked_by, writes_to
from service.app.tokens import revoke_token, rotate_token
from service.db.bridge_reads import get_bridge_event
from service.db.tables import TournamentRow
from service.errors import Forbidden

__all__ = ["router"]

router = APIRouter()

_bearer = HTTPBearer(auto_error=False, description="Organizer token")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


# --- tokens -------------------------------------------------------------------------


@router.post(
    "/v1/tournaments/{tournament_id}/tokens/rotate", response_model=TokenIssued, tags=["tokens"]
)
async def rotate(
    body: TokenRotate,
    write: OrganizerWriteDep,
) -> TokenIssued:
    """Replace a token (organizer): `{"role": "organizer"}` (its own), `"viewer"`,
    `{"role": "player", "start_number": 7}` (a lost phone) or `{"role": "captain",
    "team": 2}` (a team tournament's captain). The old token stops working
    at once; the new one is in the response, shown only this once, and stops working
    at `expires_at` if given. A `token_rotated` event records who (never the token)."""
    session, state, tournament = write.session, write.state, write.tournament
    number = body.team if body.role == "captain" else body.start_number
    rotated = await rotate_token(session, tournament, body.role, number, body.expires_at)
    await commit_and_publish(write.context, state, tournament)
    return TokenIssued(
        role=body.role,
        start_number=body.start_number,
        team=body.team,
        token=rotated.token,
        expires_at=rotated.expires_at,
    )


@router.post(
    "/v1/tournaments/{tournament_id}/tokens/revoke",
    status_code=status.HTTP_204_NO_CONTENT,
    tags=["tokens"],
)
async def revoke(
    body: TokenRevoke,
    write: OrganizerWriteDep,
) -> Response:
    """Withdraw the viewer token, a player's token or a team captain's (organizer): it
    stops working at once; rotate it to issue a new one. The organizer still enters
    that player's (or team's) results."""
    session, state, tournament = write.session, write.state, write.tournament
    await revoke_token(session, tournament, body.role, body.number())
    await commit_and_publish(write.context, state, tournament)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


async def _bridge_organizer_of(
    session: AsyncSession, event_id: str, token: str | None
) -> TournamentRow:
    row = await get_bridge_event(session, event_id)
    reader: TokenHolder | None = await authorize_read(session, row, token)
    if reader is not None and reader.role != "organizer":
        raise Forbidden("only the organizer may do this", field="Authorization")
    require_writer(row, reader)
    return row


async def _may_organize_bridge(
    session: AsyncSession, params: Mapping[str, Any], token: str | None
) -> None:
    """`_bridge_organizer`'s check of its caller, for a replay (`api.write_access`)."""
    await _bridge_organizer_of(session, params["event_id"], token)


@writes_to("bridge/events/{event_id}")
@checked_by(_may_organize_bridge)
async def _bridge_organizer(
    context: WriteContextDep, event_id: EventId, credentials: Credentials
) -> TournamentRow:
    """A bridge event whose organizer token came with the request (401/403/410
    otherwise)."""
    token = None if credentials is None else credentials.credentials
    return await _bridge_organizer_of(context.session, event_id, token)


BridgeOrganizerDep = Annotated[TournamentRow, Depends(_bridge_organizer)]


@router.post(
    "/v1/bridge/events/{event_id}/tokens/rotate", response_model=TokenIssued, tags=["tokens"]
)
async def rotate_bridge(
    body: BridgeTokenRotate,
    event: BridgeOrganizerDep,
    context: WriteContextDep,
    state: StateDep,
) -> TokenIssued:
    """Replace a bridge event's token (organizer): its own, the viewer token, or a
    table's (`{"role": "table", "table": 3}`). The old one stops working at once."""
    rotated = await rotate_token(context.session, event, body.role, body.table, body.expires_at)
    await commit_and_publish(context, state, event)
    return TokenIssued(
        role=body.role, table=body.table, token=rotated.token, expires_at=rotated.expires_at
    )


@router.post(
    "/v1/bridge/events/{event_id}/tokens/revoke",
    status_code=status.HTTP_204_NO_CONTENT,
    tags=["tokens"],
)
async def revoke_bridge(
    body: BridgeTokenRevoke,
    event: BridgeOrganizerDep,
    context: WriteContextDep,
    state: StateDep,
) -> Response:
    """Withdraw a bridge event's viewer token or a table's token (organizer); the
    organizer still enters that table's results."""
    await revoke_token(context.session, event, body.role, body.table)
    await commit_and_publish(context, state, event)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
