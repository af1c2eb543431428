"""Bad input: problem+json with the right status and the field named; no 500; nothing
stored (docs/api.md#errors)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.conftest import Event, create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900)]


def _problem(response: httpx.Response, status: int, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["type"].startswith("urn:arbiter:problem:")
    if field is not None:
        assert field in (body.get("field"), *(e["field"] for e in body.get("errors", [])))
    return body


async def _snapshot(client: httpx.AsyncClient, event: Event) -> tuple[Any, ...]:
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    rounds = [
        (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json() for n in (1, 2, 3)
    ]
    return players, rounds


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"system": "round-robin"}, "name"),
        ({"name": "", "system": "round-robin"}, "name"),
        ({"name": "X", "system": "knockout"}, "system"),
        ({"name": "X", "system": "round-robin", "points": {"win": -1}}, "points.win"),
        ({"name": "X", "system": "round-robin", "tiebreaks": ["SB", "NOPE"]}, "tiebreaks.1"),
        ({"name": "X", "system": "round-robin", "colour": "red"}, "colour"),
    ],
)
async def test_malformed_tournament(
    client: httpx.AsyncClient, body: dict[str, Any], field: str
) -> None:
    _problem(await client.post("/v1/tournaments", json=body), 422, field)


@pytest.mark.parametrize(
    "body",
    [b"{not json", b'{"name": "\xff", "system": "round-robin"}', b"[" * 100_000],
    ids=["not JSON", "not UTF-8", "nested past the parser's depth"],
)
async def test_body_that_is_not_json(client: httpx.AsyncClient, body: bytes) -> None:
    """Whatever keeps a body from being read as JSON is the one documented problem:
    422 `invalid-input` naming `body` (not FastAPI's 400 `http-error`)."""
    before = (await client.get("/v1/tournaments")).json()
    response = await client.post(
        "/v1/tournaments", content=body, headers={"content-type": "application/json"}
    )
    problem = _problem(response, 422, "body")
    assert problem["type"] == "urn:arbiter:problem:invalid-input"
    assert problem["field"] == "body"
    assert (await client.get("/v1/tournaments")).json() == before


async def test_unknown_ids(client: httpx.AsyncClient) -> None:
    _problem(await client.get("/v1/tournaments/does-not-exist"), 404, "tournament_id")
    _problem(await client.get("/v1/tournaments/does-not-exist/standings"), 404)
    _problem(await client.get("/v1/nothing-here"), 404)


async def test_bad_player_fields(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS, start=False)
    url = f"/v1/tournaments/{event.id}/players"
    for body, field in [
        ({"name": "A", "rating": -5}, "rating"),
        ({"name": "A", "rating": 1500, "federation": "pl"}, "federation"),
        ({"name": "A", "rating": 1500, "sex": "x"}, "sex"),
        ({"name": "A", "rating": "strong"}, "rating"),
    ]:
        _problem(await client.post(url, json=body, headers=event.auth()), 422, field)
    _problem(
        await client.patch(f"{url}/999999", json={"rating": 1}, headers=event.auth()),
        404,
        "number",
    )
    assert len((await client.get(url)).json()) == 3


async def test_auth_errors(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS, start=False)
    url = f"/v1/tournaments/{event.id}/players"
    _problem(await client.post(url, json={"name": "A", "rating": 1}), 401, "Authorization")
    wrong = {"Authorization": "Bearer org_not-the-token"}
    _problem(await client.post(url, json={"name": "A", "rating": 1}, headers=wrong), 401)
    other = await create_round_robin(client, PLAYERS[:2], start=False)
    _problem(await client.post(url, json={"name": "A", "rating": 1}, headers=other.auth()), 401)
    assert len((await client.get(url)).json()) == 3


async def test_start_needs_two_players(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS[:1], start=False)
    _problem(
        await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth()),
        422,
        "players",
    )
    assert (await client.get(f"/v1/tournaments/{event.id}")).json()["status"] == "registration"


async def test_writes_after_the_list_closed(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    before = await _snapshot(client, event)
    url = f"/v1/tournaments/{event.id}/players"
    _problem(await client.post(url, json={"name": "Late", "rating": 1}, headers=event.auth()), 409)
    player_id = before[0][0]["id"]
    _problem(
        await client.patch(f"{url}/{player_id}", json={"rating": 1}, headers=event.auth()), 409
    )
    _problem(await client.delete(f"{url}/{player_id}", headers=event.auth()), 409)
    _problem(await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth()), 409)
    assert await _snapshot(client, event) == before


async def test_result_errors(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)  # three players: one bye a round
    before = await _snapshot(client, event)
    base = f"/v1/tournaments/{event.id}/rounds"
    round1 = before[1][0]
    game = round1["games"][0]
    bye_player = round1["byes"][0]["player"]
    cases = [
        (f"{base}/1/games/1/result", {"result": "2-0"}, event.auth(), 422, "result"),
        (f"{base}/1/games/1/result", {}, event.auth(), 422, "result"),
        (f"{base}/9/games/1/result", {"result": "1-0"}, event.auth(), 404, "round_number"),
        (f"{base}/0/games/1/result", {"result": "1-0"}, event.auth(), 422, "round_number"),
        (f"{base}/1/games/2/result", {"result": "1-0"}, event.auth(), 404, "table"),
        (f"{base}/1/games/1/result", {"result": "1-0"}, event.auth(bye_player), 403, "table"),
        (f"{base}/1/games/1/result", {"result": "1-0"}, {}, 401, "Authorization"),
    ]
    for url, body, headers, status, field in cases:
        _problem(await client.put(url, json=body, headers=headers), status, field)
    _problem(await client.get(f"{base}/9"), 404, "round_number")
    assert game["result"] is None
    assert await _snapshot(client, event) == before


async def test_result_before_start(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS, start=False)
    response = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
        json={"result": "1-0"},
        headers=event.auth(),
    )
    _problem(response, 409, "status")


async def test_bad_trf_import(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/tournaments/import",
        content=b"001    1      Lonely Player                      1500",
        headers={"content-type": "text/plain"},
    )
    _problem(response, 422, "body")
    garbage = await client.post(
        "/v1/tournaments/import",
        content=b"001 abcd      Broken",
        headers={"content-type": "text/plain"},
    )
    _problem(garbage, 422)
