"""Importing a TRF file (service/app/import_trf.py): the tournament in the file's round
state, its players with their tokens, its rounds, one `imported` event; a bad file
stores nothing."""

from __future__ import annotations

import pytest
from sqlmodel import func, select

from service.app.import_trf import import_trf
from service.db.event_types import Imported, TournamentCreated
from service.db.game_reads import round_rows
from service.db.player_reads import list_players
from service.db.session import SessionFactory
from service.db.tables import TournamentRow
from service.db.tokens import token_matches
from service.engine.trf import parse_trf, rounds_prefix, write_trf
from service.errors import InvalidInput
from tests.app.conftest import events_after, load
from tests.data import ORACLE_DUTCH

ORACLE = (ORACLE_DUTCH / "v0004.trf").read_text()
"""13 players, 6 rounds, every result in."""


async def test_a_complete_file_is_a_finished_tournament(sessions: SessionFactory) -> None:
    async with sessions() as session:
        imported = await import_trf(session, ORACLE.encode(), "results")
        await session.commit()
    tid = imported.tournament.id
    async with sessions() as session:
        row = await load(session, tid)
        assert (row.system, row.status, row.total_rounds, row.current_round) == (
            "swiss-dutch",
            "finished",
            6,
            6,
        )
        assert token_matches(imported.organizer_token, row.organizer_token_hash)
        players = {p.start_number: p for p in await list_players(session, tid)}
        assert len(players) == len(imported.player_tokens) == 13
        for issued in imported.player_tokens:
            assert token_matches(issued["token"], players[issued["start_number"]].token_hash)
        games, _byes = await round_rows(session, tid)
        assert {g.round for g in games} == set(range(1, 7))
        assert all(g.status == "confirmed" for g in games)
    assert await events_after(sessions, tid, 0) == [
        TournamentCreated(row.name, "swiss-dutch"),
        Imported(13, 6),
    ]


async def test_a_file_of_three_rounds_goes_on_running(sessions: SessionFactory) -> None:
    text = write_trf(rounds_prefix(parse_trf(ORACLE), 3))
    async with sessions() as session:
        imported = await import_trf(session, text.encode(), "results")
        await session.commit()
    async with sessions() as session:
        row = await load(session, imported.tournament.id)
        assert (row.status, row.current_round) == ("running", 3)


async def test_a_bad_file_stores_nothing(sessions: SessionFactory) -> None:
    broken = ORACLE.replace("001    1", "001    x", 1)
    async with sessions() as session:
        before = (await session.exec(select(func.count()).select_from(TournamentRow))).one()
        with pytest.raises(InvalidInput) as refused:
            await import_trf(session, broken.encode(), "results")
        assert refused.value.field == "body"
        after = (await session.exec(select(func.count()).select_from(TournamentRow))).one()
        assert after == before
