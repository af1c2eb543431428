"""API fixtures: the app with its lifespan, an httpx client over ASGI, helpers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import func, select

from service.api.app import create_app
from service.config import Settings
from service.db.tables import TournamentRow


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The app with its lifespan running."""
    application = create_app(Settings(database_url=database_url))
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client talking to the app in-process."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://arbiter.test") as c:
        yield c


async def stored_tournaments(app: FastAPI) -> int:
    """How many tournaments and bridge events the database holds."""
    async with app.state.arbiter.sessions() as session:
        return int((await session.exec(select(func.count()).select_from(TournamentRow))).one())


@dataclass
class Event:
    """A created tournament and its tokens."""

    id: str
    organizer: str
    players: dict[int, str]

    def auth(self, start_number: int | None = None) -> dict[str, str]:
        token = self.organizer if start_number is None else self.players[start_number]
        return {"Authorization": f"Bearer {token}"}


async def create_round_robin(
    client: httpx.AsyncClient,
    players: list[tuple[str, int]],
    *,
    system: str = "round-robin",
    start: bool = True,
    **settings: Any,
) -> Event:
    """Create a tournament, register `players` (name, rating) and close the list."""
    created = await client.post(
        "/v1/tournaments", json={"name": "Test event", "system": system, **settings}
    )
    assert created.status_code == 201, created.text
    body = created.json()
    event = Event(body["id"], body["organizer_token"], {})
    for name, rating in players:
        response = await client.post(
            f"/v1/tournaments/{event.id}/players",
            json={"name": name, "rating": rating},
            headers=event.auth(),
        )
        assert response.status_code == 201, response.text
    if start:
        started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
        assert started.status_code == 200, started.text
        event.players = {t["start_number"]: t["token"] for t in started.json()["player_tokens"]}
    return event
