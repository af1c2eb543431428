"""Creating a tournament or a bridge event (service/app/create.py): the row, its
creation event and its tokens, stored as digests."""

from __future__ import annotations

import uuid

import pytest
from sqlmodel import func, select

from service.app.create import create_bridge_event, create_tournament
from service.db.bridge_tables import BridgeTableTokenRow
from service.db.event_types import BridgeEventCreated, TournamentCreated
from service.db.session import SessionFactory
from service.db.tables import TournamentRow
from service.db.tokens import token_matches
from service.engine.scoring.tiebreaks.errors import UnknownTieBreakError
from tests.api.test_bridge_events import _one_board_session
from tests.app.conftest import events_after, load


async def test_a_tournament_is_stored_with_its_event_and_organizer_token(
    sessions: SessionFactory,
) -> None:
    async with sessions() as session:
        created = await create_tournament(
            session,
            name="Open",
            system="swiss-dutch",
            settings={"tiebreaks": ["BH", "SB"]},
            total_rounds=5,
            private=False,
        )
        await session.commit()
    tid = created.tournament.id
    async with sessions() as session:
        row = await load(session, tid)
        assert (row.name, row.system, row.total_rounds, row.status) == (
            "Open",
            "swiss-dutch",
            5,
            "registration",
        )
        assert row.settings == {"tiebreaks": ["BH", "SB"]}
        assert token_matches(created.organizer_token, row.organizer_token_hash)
        assert (row.visibility, row.viewer_token_hash, created.viewer_token) == (
            "public",
            None,
            None,
        )
    assert await events_after(sessions, tid, 0) == [TournamentCreated("Open", "swiss-dutch")]


async def test_a_private_tournament_gets_its_viewer_token(sessions: SessionFactory) -> None:
    async with sessions() as session:
        created = await create_tournament(
            session, name="P", system="round-robin", settings={}, total_rounds=None, private=True
        )
        await session.commit()
    assert created.viewer_token is not None
    async with sessions() as session:
        row = await load(session, created.tournament.id)
        assert row.visibility == "private"
        assert token_matches(created.viewer_token, row.viewer_token_hash)


async def test_an_unknown_tie_break_stores_nothing(sessions: SessionFactory) -> None:
    name = uuid.uuid4().hex
    async with sessions() as session:
        with pytest.raises(UnknownTieBreakError) as refused:
            await create_tournament(
                session,
                name=name,
                system="round-robin",
                settings={"tiebreaks": ["BH", "NOPE"]},
                total_rounds=None,
                private=False,
            )
        assert refused.value.field == "tiebreaks.1"
        await session.commit()
        count = select(func.count()).where(TournamentRow.name == name)
        assert (await session.exec(count)).one() == 0


async def test_a_bridge_event_is_running_with_a_token_per_table(sessions: SessionFactory) -> None:
    async with sessions() as session:
        created = await create_bridge_event(session, _one_board_session(), private=False)
        await session.commit()
    event = created.event
    assert [table for table, _ in created.table_tokens] == list(range(1, 9))
    async with sessions() as session:
        row = await load(session, event.id)
        assert (row.kind, row.system, row.status, row.current_round) == (
            "bridge",
            "bridge-pairs",
            "running",
            1,
        )
        assert token_matches(created.organizer_token, row.organizer_token_hash)
        stored = {
            t.table_no: t.token_hash
            for t in (
                await session.exec(
                    select(BridgeTableTokenRow).where(BridgeTableTokenRow.tournament_id == event.id)
                )
            ).all()
        }
        assert all(token_matches(token, stored[table]) for table, token in created.table_tokens)
    assert await events_after(sessions, event.id, 0) == [
        BridgeEventCreated("Worked board", "bridge-pairs", 8, 1)
    ]
