"""Issuing, rotating and revoking a tournament's tokens (docs/security.md#tokens): the
organizer's, the viewer token, a player's, a bridge table's, a team captain's.

Tokens are random, shown once and stored as digests (service.db.tokens); rotating
replaces the digest, so the old token stops working with the transaction's commit. Each
change appends a `token_rotated` or `token_revoked` event (role and whose, never the
token) as the audit trail. An expiry must lie in the future (422 naming `expires_at`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.db.bridge_tables import BridgeTableTokenRow
from service.db.event_types import TokenRevoked, TokenRotated
from service.db.events import append_event, lock_tournament
from service.db.tables import PlayerRow, TournamentRow
from service.db.team_reads import find_team
from service.db.team_tables import TeamRow
from service.db.tokens import hash_token, new_token
from service.engine.lifecycle import TournamentStatus
from service.errors import Conflict, InvalidInput, NotFound

__all__ = ["Rotated", "TokenRole", "issue_viewer_token", "revoke_token", "rotate_token"]

TokenRole = Literal["organizer", "viewer", "player", "table", "captain"]
_PREFIX = {"organizer": "org", "viewer": "vwr", "player": "ply", "table": "tbl", "captain": "cpt"}


async def _player(session: AsyncSession, row: TournamentRow, start_number: int) -> PlayerRow:
    found = (
        await session.exec(
            select(PlayerRow).where(
                PlayerRow.tournament_id == row.id, PlayerRow.start_number == start_number
            )
        )
    ).first()
    if found is None:
        if row.status == TournamentStatus.REGISTRATION:
            raise Conflict(
                "players get their tokens when the start list closes", field="start_number"
            )
        raise NotFound(f"no player has start number {start_number}", field="start_number")
    return found


async def _table(session: AsyncSession, row: TournamentRow, table: int) -> BridgeTableTokenRow:
    found = (
        await session.exec(
            select(BridgeTableTokenRow).where(
                BridgeTableTokenRow.tournament_id == row.id, BridgeTableTokenRow.table_no == table
            )
        )
    ).first()
    if found is None:
        raise NotFound(f"the event has no table {table}", field="table")
    return found


async def _team(session: AsyncSession, row: TournamentRow, number: int) -> TeamRow:
    found = await find_team(session, row.id, number)
    if found is None:
        raise NotFound(f"the tournament has no team {number}", field="team")
    return found


def _whose(role: TokenRole, number: int | None) -> dict[str, object]:
    if role == "captain":
        return {"role": role, "team": number}
    if role == "player":
        return {"role": role, "start_number": number}
    if role == "table":
        return {"role": role, "table": number}
    return {"role": role}


@dataclass(frozen=True, slots=True)
class Rotated:
    """A new token (shown once) and when it stops working (UTC; None: never)."""

    token: str
    expires_at: datetime | None


def _future(expires_at: datetime | None) -> datetime | None:
    """The expiry in UTC, once it is in the future."""
    if expires_at is not None and expires_at <= datetime.now(UTC):
        raise InvalidInput("expires_at must be in the future", field="expires_at")
    return None if expires_at is None else expires_at.astimezone(UTC)


async def rotate_token(
    session: AsyncSession,
    row: TournamentRow,
    role: TokenRole,
    number: int | None,
    expires_at: datetime | None,
) -> Rotated:
    """Issue a new token for `role` (a player by start number, a table by number),
    replacing the old one at once. `expires_at` None: no expiry."""
    expires_at = _future(expires_at)
    await lock_tournament(session, row.id)
    await session.refresh(row)
    token = new_token(_PREFIX[role])
    digest = hash_token(token)
    if role == "organizer":
        row.organizer_token_hash, row.organizer_token_expires_at = digest, expires_at
        session.add(row)
    elif role == "viewer":
        row.viewer_token_hash, row.viewer_token_expires_at = digest, expires_at
        session.add(row)
    elif role == "player":
        assert number is not None
        player = await _player(session, row, number)
        player.token_hash, player.token_expires_at = digest, expires_at
        session.add(player)
    elif role == "captain":
        assert number is not None
        team = await _team(session, row, number)
        team.captain_token_hash, team.captain_token_expires_at = digest, expires_at
        session.add(team)
    else:
        assert number is not None
        table = await _table(session, row, number)
        table.token_hash, table.expires_at = digest, expires_at
        session.add(table)
    expiry = expires_at.isoformat() if expires_at is not None else None
    await append_event(session, row.id, TokenRotated(_whose(role, number), expiry))
    return Rotated(token, expires_at)


async def revoke_token(
    session: AsyncSession, row: TournamentRow, role: TokenRole, number: int | None
) -> None:
    """Withdraw the viewer token, a player's or a table's: it stops working at once
    (the organizer can rotate it to issue a new one)."""
    await lock_tournament(session, row.id)
    await session.refresh(row)
    if role == "viewer":
        row.viewer_token_hash = row.viewer_token_expires_at = None
        session.add(row)
    elif role == "player":
        assert number is not None
        player = await _player(session, row, number)
        player.token_hash = player.token_expires_at = None
        session.add(player)
    elif role == "table":
        assert number is not None
        table = await _table(session, row, number)
        table.token_hash = table.expires_at = None
        session.add(table)
    elif role == "captain":
        assert number is not None
        team = await _team(session, row, number)
        team.captain_token_hash = team.captain_token_expires_at = None
        session.add(team)
    else:  # pragma: no cover - the request schema refuses it
        raise ValueError(f"cannot revoke the {role} token")
    await append_event(session, row.id, TokenRevoked(_whose(role, number)))


def issue_viewer_token(row: TournamentRow) -> str:
    """Give a tournament that becomes private its viewer token (shown once), unless it
    has one; no event (the creation or settings change that calls it records itself)."""
    token = new_token(_PREFIX["viewer"])
    row.viewer_token_hash, row.viewer_token_expires_at = hash_token(token), None
    return token
