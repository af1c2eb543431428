"""Archiving a tournament (service/app/archive.py): `archived_at` set, the status kept
(the lifecycle's `archive` keeps the state), one `tournament_archived` event."""

from __future__ import annotations

from service.app.archive import archive
from service.db.event_types import TournamentArchived
from service.db.session import SessionFactory
from tests.app.conftest import FOUR, events_after, last_seq, load, new_tournament


async def test_an_archived_tournament_keeps_its_status(sessions: SessionFactory) -> None:
    for started, status in ((False, "registration"), (True, "running")):
        tid = await new_tournament(sessions, FOUR, started=started)
        seq = await last_seq(sessions, tid)
        async with sessions() as session:
            await archive(session, await load(session, tid))
            await session.commit()
        async with sessions() as session:
            row = await load(session, tid)
            assert row.archived_at is not None
            assert row.status == status
        assert await events_after(sessions, tid, seq) == [TournamentArchived()]
