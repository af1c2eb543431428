"""A response that carries a token is never kept by a cache (`Cache-Control: no-store`,
RFC 9111 section 5.2.2.5): every operation whose response model holds a token (found
in the OpenAPI document, so a new one must be added below), the replay of a keyed
write, and a page requested with `?token=` (its links and redirects pass it on)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx

from service.api.app import create_app
from tests.api.conftest import create_round_robin
from tests.data import ORACLE_DUTCH

DOCUMENT = create_app().openapi()
SCHEMAS = DOCUMENT["components"]["schemas"]
PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
_TOKEN = re.compile(r"(?:.+_)?tokens?")


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _holds_token(schema: dict[str, Any], depth: int = 0) -> bool:
    schema = _resolve(schema)
    if depth > 10:
        return False
    members = [m for key in ("anyOf", "oneOf", "allOf") for m in schema.get(key, [])]
    members += [schema["items"]] if "items" in schema else []
    return any(
        _TOKEN.fullmatch(name) or _holds_token(member, depth + 1)
        for name, member in schema.get("properties", {}).items()
    ) or any(_holds_token(member, depth + 1) for member in members)


def _token_operations() -> set[tuple[str, str]]:
    found = set()
    for path, operations in DOCUMENT["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                for content in response.get("content", {}).values():
                    if status.startswith("2") and _holds_token(content.get("schema", {})):
                        found.add((method.upper(), path))
    return found


def _no_store(response: httpx.Response) -> None:
    assert response.status_code < 300, response.text
    assert response.headers.get("cache-control") == "no-store", (
        response.request.url,
        response.headers,
    )


async def test_every_response_with_a_token_is_no_store(client: httpx.AsyncClient) -> None:
    checked: set[tuple[str, str]] = set()

    async def call(method: str, template: str, url: str, **kwargs: Any) -> httpx.Response:
        response = await client.request(method, url, **kwargs)
        _no_store(response)
        checked.add((method, template))
        return response

    created = await call(
        "POST",
        "/v1/tournaments",
        "/v1/tournaments",
        json={"name": "T", "system": "swiss-dutch", "rounds": 3},
    )
    tid, auth = (
        created.json()["id"],
        {"Authorization": f"Bearer {created.json()['organizer_token']}"},
    )
    for name, rating in PLAYERS:
        await call(
            "POST",
            "/v1/tournaments/{tournament_id}/players",
            f"/v1/tournaments/{tid}/players",
            json={"name": name, "rating": rating},
            headers=auth,
        )
    await call(
        "POST",
        "/v1/tournaments/{tournament_id}/start",
        f"/v1/tournaments/{tid}/start",
        headers=auth,
    )
    await call(
        "PATCH",
        "/v1/tournaments/{tournament_id}",
        f"/v1/tournaments/{tid}",
        json={"visibility": "private"},
        headers=auth,
    )
    await call(
        "POST",
        "/v1/tournaments/{tournament_id}/tokens/rotate",
        f"/v1/tournaments/{tid}/tokens/rotate",
        json={"role": "viewer"},
        headers=auth,
    )
    await call(
        "POST",
        "/v1/tournaments/import",
        "/v1/tournaments/import",
        content=(ORACLE_DUTCH / "v0004.trf").read_bytes(),
        headers={"content-type": "text/plain"},
    )
    team_event = (
        await client.post(
            "/v1/tournaments", json={"name": "Teams", "system": "team-swiss", "rounds": 3}
        )
    ).json()
    team_auth = {"Authorization": f"Bearer {team_event['organizer_token']}"}
    await call(
        "POST",
        "/v1/tournaments/{tournament_id}/teams",
        f"/v1/tournaments/{team_event['id']}/teams",
        json={"name": "A", "players": [{"name": f"A{k}"} for k in range(4)]},
        headers=team_auth,
    )
    await call(  # a team edit answers the tokens of reserves added after the start
        "PATCH",
        "/v1/tournaments/{tournament_id}/teams/{team}",
        f"/v1/tournaments/{team_event['id']}/teams/1",
        json={"name": "A2"},
        headers=team_auth,
    )
    event = await call("POST", "/v1/bridge/events", "/v1/bridge/events", json=_bridge_event())
    await call(
        "POST",
        "/v1/bridge/events/{event_id}/tokens/rotate",
        f"/v1/bridge/events/{event.json()['id']}/tokens/rotate",
        json={"role": "table", "table": 1},
        headers={"Authorization": f"Bearer {event.json()['organizer_token']}"},
    )
    assert checked == _token_operations()


async def test_a_replayed_write_is_no_store(client: httpx.AsyncClient) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"name": "Keyed", "system": "round-robin"}
    first = await client.post("/v1/tournaments", json=body, headers=key)
    again = await client.post("/v1/tournaments", json=body, headers=key)
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json()["organizer_token"] == first.json()["organizer_token"]
    _no_store(first)
    _no_store(again)


async def test_pages_asked_for_with_a_token_are_no_store(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/tournaments", json={"name": "P", "system": "round-robin", "visibility": "private"}
    )
    body = created.json()
    viewer, tid = body["viewer_token"], body["id"]
    auth = {"Authorization": f"Bearer {body['organizer_token']}"}
    for name, rating in PLAYERS:
        await client.post(
            f"/v1/tournaments/{tid}/players", json={"name": name, "rating": rating}, headers=auth
        )
    assert (await client.post(f"/v1/tournaments/{tid}/start", headers=auth)).status_code == 200
    cards = await client.get(f"/v1/tournaments/{tid}/cards?count=1&tok%65n={viewer}")
    assert viewer in cards.headers["link"]  # the next page's link passes the token on
    _no_store(cards)
    _no_store(await client.get(f"/v1/tournaments/{tid}/scoreboard", params={"token": viewer}))


async def test_responses_without_tokens_are_left_alone(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    for url in (f"/v1/tournaments/{event.id}", f"/v1/tournaments/{event.id}/standings"):
        response = await client.get(url)
        assert response.status_code == 200
        assert "no-store" not in response.headers.get("cache-control", "")


def _bridge_event() -> dict[str, Any]:
    return {
        "kind": "pairs",
        "name": "Tokens",
        "pairs": [{"number": n, "name": f"Pair {n}"} for n in (1, 2)],
        "boards": [1],
        "movement": [{"round": 1, "tables": [{"table": 1, "ns": 1, "ew": 2, "boards": [1]}]}],
    }
