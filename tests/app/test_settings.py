"""Changing a tournament's settings (service/app/settings.py): the fields that differ are
stored and recorded in one `settings_changed` event with their values before and
after; a change to nothing records none; a tournament made private gets its viewer
token; the rules refuse with the field named."""

from __future__ import annotations

import pytest

from service.app.actor import Actor
from service.app.report_result import report_result
from service.app.settings import change_settings
from service.app.start import start
from service.db.event_types import SettingsChanged
from service.db.session import SessionFactory
from service.db.tokens import token_matches
from service.errors import InvalidInput
from tests.app.conftest import FOUR, events_after, last_seq, load, new_tournament


async def test_a_change_is_stored_and_recorded(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR, rounds=None)
    seq = await last_seq(sessions, tid)
    requested = {"name": "Renamed", "tiebreaks": ["SB"], "visibility": "private"}
    async with sessions() as session:
        outcome = await change_settings(session, await load(session, tid), requested)
        await session.commit()
    assert outcome.changed and outcome.viewer_token is not None
    async with sessions() as session:
        row = await load(session, tid)
        assert (row.name, row.settings["tiebreaks"], row.visibility) == (
            "Renamed",
            ["SB"],
            "private",
        )
        assert token_matches(outcome.viewer_token, row.viewer_token_hash)
    assert await events_after(sessions, tid, seq) == [
        SettingsChanged(
            {"name": "T", "tiebreaks": None, "visibility": "public"},
            {"name": "Renamed", "tiebreaks": ["SB"], "visibility": "private"},
        )
    ]


async def test_a_change_to_nothing_records_nothing(sessions: SessionFactory) -> None:
    tid = await new_tournament(sessions, FOUR)
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        outcome = await change_settings(
            session, await load(session, tid), {"name": "T", "visibility": "public"}
        )
        await session.commit()
    assert (outcome.changed, outcome.viewer_token) == (False, None)
    assert await events_after(sessions, tid, seq) == []


async def test_the_rules_name_the_field(sessions: SessionFactory) -> None:
    control = {"base_minutes": 15, "increment_seconds": 0}
    tid = await new_tournament(
        sessions, [*FOUR, ("E", 1), ("F", 1)], system="flampark", rounds=2, time_control=control
    )
    async with sessions() as session:
        row = await load(session, tid)
        with pytest.raises(InvalidInput) as schedule:
            await change_settings(session, row, {"schedule": ["2026-01-01T10:00:00Z"] * 3})
    assert schedule.value.field == "schedule"
    async with sessions() as session:
        await start(session, await load(session, tid))
        await session.commit()
    async with sessions() as session:
        row = await load(session, tid)
        await report_result(
            session, row, 1, 1, "1-0", Actor("organizer"), {"time_shortened_minutes": 10}
        )
        await session.commit()
    seq = await last_seq(sessions, tid)
    async with sessions() as session:
        row = await load(session, tid)
        with pytest.raises(InvalidInput) as shorter:
            await change_settings(
                session, row, {"time_control": {"base_minutes": 5, "increment_seconds": 0}}
            )
    assert shorter.value.field == "time_control.base_minutes"
    assert await events_after(sessions, tid, seq) == []
