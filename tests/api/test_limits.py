"""Limits before work (docs/api.md#limits): bodies capped before parsing, a
token required before a protected body is read, bounded numbers, no control
characters in text on either database."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


class CountedBody:
    """A streamed body of `count` chunks that counts how many the server pulled."""

    def __init__(self, count: int, size: int) -> None:
        self.count, self.size, self.read = count, size, 0

    async def chunks(self) -> AsyncIterator[bytes]:
        for _ in range(self.count):
            self.read += 1
            yield b"x" * self.size


async def _report_streamed(
    client: httpx.AsyncClient, tournament_id: str, body: CountedBody, **headers: str
) -> httpx.Response:
    """A result PUT whose body is streamed without a length."""
    return await client.put(
        f"/v1/tournaments/{tournament_id}/rounds/1/games/1/result",
        content=body.chunks(),
        headers={"content-type": "application/json", **headers},
    )


async def test_a_body_over_the_limit_is_413(client: httpx.AsyncClient) -> None:
    huge = '{"name": "' + "x" * 1_200_000 + '", "system": "round-robin"}'
    response = await client.post(
        "/v1/tournaments", content=huge, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["field"] == "body"


async def test_a_body_without_length_is_cut_at_the_limit(client: httpx.AsyncClient) -> None:
    body = CountedBody(30, 100_000)
    response = await client.post(
        "/v1/tournaments", content=body.chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert body.read < 30  # cut at the limit, not read to the end


async def test_no_token_no_body_read(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    body = CountedBody(5, 1000)
    response = await _report_streamed(client, event.id, body)
    assert response.status_code == 401
    assert response.json()["field"] == "Authorization"
    assert body.read <= 1  # the body was not read


@pytest.mark.parametrize("token", ["org_not-a-token", "other tournament's", "Basic b3JnOng="])
async def test_a_wrong_token_no_body_read(client: httpx.AsyncClient, token: str) -> None:
    event = await create_round_robin(client, PLAYERS)
    other = await create_round_robin(client, PLAYERS, start=False)
    header = {
        "org_not-a-token": "Bearer org_not-a-token",
        "other tournament's": f"Bearer {other.organizer}",
    }.get(token, token)
    body = CountedBody(5, 1000)
    response = await _report_streamed(client, event.id, body, authorization=header)
    assert response.status_code == 401, response.text
    assert response.json()["field"] == "Authorization"
    assert body.read <= 1  # the body was not read
    ok = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
        json={"result": "1-0"},
        headers=event.auth(),
    )
    assert ok.status_code == 200, ok.text  # the right token still writes


@pytest.mark.parametrize("name", ["Ann\x00", "A\x07nn", "Bo\x1bb", "Cid\x7f"])
async def test_control_characters_in_names_are_422(client: httpx.AsyncClient, name: str) -> None:
    created = await client.post("/v1/tournaments", json={"name": name, "system": "round-robin"})
    assert created.status_code == 422
    assert created.json()["field"] == "name"
    event = await create_round_robin(client, PLAYERS, start=False)
    player = await client.post(
        f"/v1/tournaments/{event.id}/players",
        json={"name": name, "rating": 1500},
        headers=event.auth(),
    )
    assert player.status_code == 422
    assert player.json()["field"] == "name"


@pytest.mark.parametrize("weight", ["1e5000000", "1/" + "9" * 5000, 1e300])
async def test_a_huge_butler_weight_is_a_quick_422(
    client: httpx.AsyncClient, weight: object
) -> None:
    scores = [{"weighted": [{"weight": weight, "score": 420}]}, 420, -50, 100]
    ok = await client.post("/v1/compute/bridge/butler", json={"scores": scores[1:]})
    assert ok.status_code == 200, ok.text
    body = {"scores": scores}
    response = await client.post("/v1/compute/bridge/butler", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"].startswith("scores.0")


async def test_a_what_if_beyond_its_budget_is_422(client: httpx.AsyncClient) -> None:
    """A 20,000 x 50 FLAMPARK what-if, past its work bound (it held the service for 14 s)."""
    response = await client.post(
        "/v1/compute/flampark/schedule", json={"player_count": 20_000, "rounds": 50}
    )
    assert response.status_code == 422
    assert response.json()["field"] == "rounds"


async def test_problems_from_middleware_carry_instance(client: httpx.AsyncClient) -> None:
    """RFC 9457: a refusal made before the route runs (body limits, the token before
    the body, the idempotency key) names the request's path in `instance`, as a
    route's own problems do; a 401 says which scheme to use."""
    event = await create_round_robin(client, PLAYERS)
    result = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    key = "9c1f0b6e-5d1e-4a55-9d3b-0e8e3f1a2b7c"
    json_body = {"content-type": "application/json"}
    first = await client.post(
        "/v1/tournaments",
        json={"name": "Keyed", "system": "round-robin"},
        headers={"Idempotency-Key": key},
    )
    assert first.status_code == 201, first.text
    refusals = [
        ("POST", "/v1/tournaments", b"x" * 1_200_000, json_body, 413),
        ("PUT", result, b'{"result": "1-0"}', json_body, 401),
        ("POST", "/v1/tournaments/import", b"012 A\x00", {"content-type": "text/plain"}, 422),
        ("POST", "/v1/tournaments", b"{}", {**json_body, "Idempotency-Key": "short"}, 422),
        (
            "POST",
            "/v1/tournaments",
            b'{"name": "Other"}',
            {**json_body, "Idempotency-Key": key},
            422,
        ),
    ]
    for method, path, content, headers, status in refusals:
        response = await client.request(method, path, content=content, headers=headers)
        assert response.status_code == status, (path, response.text)
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["instance"] == path, response.json()
        if status == 401:
            assert response.headers["www-authenticate"] == "Bearer"
