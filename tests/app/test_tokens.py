"""Rotating and revoking tokens (service/app/tokens.py): the new digest replaces the old
at once, the expiry is kept, each change is one event naming whose token (never the
token itself)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from service.app.tokens import revoke_token, rotate_token
from service.db.event_types import TokenRevoked, TokenRotated
from service.db.player_reads import list_players
from service.db.session import SessionFactory
from service.db.tokens import token_matches
from service.errors import Conflict, InvalidInput, NotFound
from tests.app.conftest import FOUR, events_after, last_seq, load, new_tournament


async def test_a_rotated_token_replaces_the_old_one(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR, started=True)
    seq = await last_seq(sessions, tid)
    expires = datetime.now(UTC) + timedelta(days=1)
    async with sessions() as session:
        row = await load(session, tid)
        organizer = await rotate_token(session, row, "organizer", None, None)
        player = await rotate_token(session, row, "player", 2, expires)
        await session.commit()
    assert player.expires_at == expires
    async with sessions() as session:
        row = await load(session, tid)
        assert token_matches(organizer.token, row.organizer_token_hash)
        second = next(p for p in await list_players(session, tid) if p.start_number == 2)
        assert token_matches(player.token, second.token_hash)
        assert second.token_expires_at is not None
    written = await events_after(sessions, tid, seq)
    assert written == [
        TokenRotated({"role": "organizer"}, None),
        TokenRotated({"role": "player", "start_number": 2}, expires.isoformat()),
    ]
    assert organizer.token not in repr(written) and player.token not in repr(written)


async def test_a_revoked_token_is_gone(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR, started=True)
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        await revoke_token(session, await load(session, tid), "player", 3)
        await session.commit()
    async with sessions() as session:
        third = next(p for p in await list_players(session, tid) if p.start_number == 3)
        assert third.token_hash is None
    assert await events_after(sessions, tid, seq) == [
        TokenRevoked({"role": "player", "start_number": 3})
    ]


async def test_refusals_write_nothing(sessions: SessionFactory) -> None:
    open_list = await new_tournament(sessions, FOUR)
    started = await new_tournament(sessions, FOUR, started=True)
    seq = await last_seq(sessions, started)
    past = datetime.now(UTC) - timedelta(minutes=1)
    async with sessions() as session:
        with pytest.raises(Conflict):  # players get tokens at the start
            await rotate_token(session, await load(session, open_list), "player", 1, None)
    async with sessions() as session:
        with pytest.raises(NotFound):
            await rotate_token(session, await load(session, started), "player", 9, None)
    async with sessions() as session:
        with pytest.raises(InvalidInput) as expired:
            await rotate_token(session, await load(session, started), "viewer", None, past)
    assert expired.value.field == "expires_at"
    assert await events_after(sessions, started, seq) == []
