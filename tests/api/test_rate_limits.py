"""Rate limits: creations per address, writes per token, failed authentications per
address; each refusal a 429 problem with Retry-After, and nothing stored."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ValidationError

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


@pytest.fixture
async def strict_app(database_url: str) -> AsyncIterator[FastAPI]:
    application = create_app(
        Settings(
            database_url=database_url,
            rate_limit_creations="2/minute",
            rate_limit_writes="7/minute",
            rate_limit_failed_authentications="3/minute",
        )
    )
    async with application.router.lifespan_context(application):
        yield application


def _client(app: FastAPI, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://arbiter.test")


def _assert_limited(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["type"] == "urn:arbiter:problem:rate-limited"
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert body["retry_after"] == int(response.headers["retry-after"])
    assert body["instance"] == response.request.url.path  # RFC 9457, as a route's problems


async def test_creations_are_limited_per_address(strict_app: FastAPI) -> None:
    body = {"name": "Club", "system": "round-robin"}
    async with _client(strict_app, "10.0.0.1") as venue, _client(strict_app, "10.0.0.2") as home:
        for _ in range(2):
            assert (await venue.post("/v1/tournaments", json=body)).status_code == 201
        refused = await venue.post("/v1/tournaments", json={**body, "name": "Third"})
        _assert_limited(refused)
        assert (await home.post("/v1/tournaments", json=body)).status_code == 201
        listed = (await venue.get("/v1/tournaments", params={"limit": 200})).json()["items"]
    assert "Third" not in {item["name"] for item in listed}


async def test_writes_are_limited_per_token(strict_app: FastAPI) -> None:
    async with _client(strict_app, "10.0.0.3") as client:
        event = await create_round_robin(client, PLAYERS)  # 1 creation + 5 writes
        games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
        path = f"/v1/tournaments/{event.id}/rounds/1/games/{games[0]['table']}/result"
        for _ in range(2):
            ok = await client.put(path, json={"result": "1-0"}, headers=event.auth())
            assert ok.status_code == 200
        refused = await client.put(path, json={"result": "0-1"}, headers=event.auth())
        _assert_limited(refused)
        white = games[1]["white"]
        other = f"/v1/tournaments/{event.id}/rounds/1/games/{games[1]['table']}/result"
        player = await client.put(other, json={"result": "1-0"}, headers=event.auth(white))
        assert player.status_code == 200
        game = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"][0]
    assert game["result"] == "1-0"


async def test_failed_authentications_block_the_address(strict_app: FastAPI) -> None:
    async with _client(strict_app, "10.0.0.4") as guesser, _client(strict_app, "10.0.0.5") as club:
        event = await create_round_robin(club, PLAYERS)
        path = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
        for guess in range(3):
            wrong = {"Authorization": f"Bearer org_guess{guess}"}
            assert (
                await guesser.put(path, json={"result": "1-0"}, headers=wrong)
            ).status_code == 401
        _assert_limited(await guesser.put(path, json={"result": "1-0"}, headers=event.auth()))
        assert (await guesser.get(f"/v1/tournaments/{event.id}")).status_code == 200
        right = await club.put(path, json={"result": "1-0"}, headers=event.auth())
        assert right.status_code == 200


async def test_limits_can_be_turned_off(database_url: str) -> None:
    application = create_app(
        Settings(
            database_url=database_url, rate_limits_enabled=False, rate_limit_creations="1/hour"
        )
    )
    async with (
        application.router.lifespan_context(application),
        _client(application, "10.0.0.6") as client,
    ):
        for _ in range(3):
            created = await client.post(
                "/v1/tournaments", json={"name": "C", "system": "round-robin"}
            )
            assert created.status_code == 201


def test_unreadable_limits_are_refused_at_start() -> None:
    with pytest.raises(ValidationError, match="rate_limit_writes"):
        Settings(rate_limit_writes="lots")


async def test_guessed_page_tokens_count_as_failures(strict_app: FastAPI) -> None:
    async with _client(strict_app, "10.0.0.7") as guesser, _client(strict_app, "10.0.0.8") as club:
        created = await club.post(
            "/v1/tournaments",
            json={"name": "Closed", "system": "round-robin", "visibility": "private"},
        )
        body = created.json()
        page = f"/v1/tournaments/{body['id']}/scoreboard"
        for guess in range(3):
            wrong = await guesser.get(page, params={"token": f"vwr_guess{guess}"})
            assert wrong.status_code == 401
        _assert_limited(await guesser.get(page, params={"token": body["viewer_token"]}))
        assert (await club.get(page, params={"token": body["viewer_token"]})).status_code == 200
