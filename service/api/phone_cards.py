"""Which players' cards may carry a QR code of their result page (docs/phone.md).

Tokens are stored as digests only, so the service cannot print a token it issued: the
organizer sends back the player tokens the start (or a rotation) gave them, and each is
checked against the stored digest before it is printed. Printing changes nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from service.api.schemas.cards import PhoneToken
from service.db.tables import PlayerRow
from service.db.tokens import token_matches
from service.errors import InvalidInput

__all__ = ["checked_tokens"]


async def checked_tokens(
    session: AsyncSession, tournament_id: str, tokens: list[PhoneToken]
) -> dict[int, str]:
    """Each player's token by start number, once every one is that player's current,
    unexpired token: otherwise 422 naming the entry (`player_tokens[2].token`)."""
    numbers = {entry.start_number for entry in tokens}
    rows = (
        await session.exec(
            select(PlayerRow).where(
                PlayerRow.tournament_id == tournament_id, col(PlayerRow.start_number).in_(numbers)
            )
        )
    ).all()
    players = {row.start_number: row for row in rows}
    now = datetime.now(UTC)
    checked: dict[int, str] = {}
    for index, entry in enumerate(tokens):
        where = f"player_tokens[{index}]"
        if entry.start_number in checked:
            raise InvalidInput(
                f"player {entry.start_number} is listed twice", field=f"{where}.start_number"
            )
        player = players.get(entry.start_number)
        if player is None:
            raise InvalidInput(
                f"no player has start number {entry.start_number}", field=f"{where}.start_number"
            )
        if not token_matches(entry.token, player.token_hash) or _expired(player, now):
            raise InvalidInput(
                f"this is not player {entry.start_number}'s current token (rotated, revoked "
                "or expired?)",
                field=f"{where}.token",
            )
        checked[entry.start_number] = entry.token
    return dict(sorted(checked.items()))


def _expired(player: PlayerRow, now: datetime) -> bool:
    expires_at = player.token_expires_at
    if expires_at is None:
        return False
    if expires_at.tzinfo is None:  # stored as UTC; a backend may hand it back naive
        expires_at = expires_at.replace(tzinfo=UTC)
    return expires_at <= now
