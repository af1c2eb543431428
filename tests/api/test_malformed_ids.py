"""Ids a client made up: a list cursor this service never wrote, or a path id with
characters no id has (NUL, controls, spaces, non-ASCII), is a 422 naming `cursor` or
the path parameter on SQLite and PostgreSQL alike (PostgreSQL cannot even compare a
text with NUL in it); a well-formed id nobody issued stays 404; nothing is stored.

The routes come from the app's own OpenAPI document, so a new route with an id in
its path is covered without touching this file."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import httpx
import pytest

from service.api.app import create_app
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000)]
LISTS = ["/v1/tournaments", "/v1/bridge/events"]


def _cursor(value: Any) -> str:
    """A cursor as the service writes them: unpadded base64url of JSON."""
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


CURSORS = {
    "naive date": _cursor(["2026-01-01T00:00:00", "a"]),
    "NUL in the id": _cursor(["2026-01-01T00:00:00+00:00", "a\x00b"]),
    "id not a string": _cursor(["2026-01-01T00:00:00+00:00", 7]),
    "id an object": _cursor(["2026-01-01T00:00:00+00:00", {"id": "a"}]),
    "date not a string": _cursor([20260101, "a"]),
    "date not a date": _cursor(["2026-13-45T00:00:00+00:00", "a"]),
    "date out of range": _cursor(["0001-01-01T00:00:00+14:00", "a"]),
    "one item": _cursor(["2026-01-01T00:00:00+00:00"]),
    "three items": _cursor(["2026-01-01T00:00:00+00:00", "a", "b"]),
    "an object": _cursor({"2026-01-01T00:00:00+00:00": 1, "abc": 2}),
    "a two-letter string": _cursor("ab"),
    "null": _cursor(None),
    "not base64": "%%%%",
    "base64 of bytes": base64.urlsafe_b64encode(b"\xff\xfe\x00").decode(),
    "huge": _cursor(["2026-01-01T00:00:00+00:00", "a" * 400]),
}


@pytest.mark.parametrize("shape", list(CURSORS))
async def test_a_cursor_the_service_never_wrote_is_422(
    client: httpx.AsyncClient, shape: str
) -> None:
    for path in LISTS:
        response = await client.get(path, params={"cursor": CURSORS[shape]})
        assert response.status_code == 422, (path, response.text)
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["field"] == "cursor"


async def test_a_cursor_the_service_wrote_still_pages(client: httpx.AsyncClient) -> None:
    for _ in range(3):
        await create_round_robin(client, PLAYERS, start=False)
    first = (await client.get("/v1/tournaments", params={"limit": 2})).json()
    assert first["next_cursor"] is not None
    second = await client.get(
        "/v1/tournaments", params={"limit": 2, "cursor": first["next_cursor"]}
    )
    assert second.status_code == 200, second.text
    assert not {i["id"] for i in first["items"]} & {i["id"] for i in second.json()["items"]}


def _id_routes(kind: str) -> list[tuple[str, str, list[str]]]:
    """Every operation with a path parameter of JSON type `kind`: (method, path,
    parameter names)."""
    found = []
    for path, operations in create_app().openapi()["paths"].items():
        for method, operation in operations.items():
            names = [
                p["name"]
                for p in operation.get("parameters", [])
                if p["in"] == "path" and p["schema"].get("type") == kind
            ]
            if names:
                found.append((method.upper(), path, names))
    return found


ID_ROUTES = _id_routes("string")
NUMBER_ROUTES = _id_routes("integer")
BAD_IDS = {
    "NUL": "%00",
    "NUL inside": "ab%00cd",
    "line feed": "ab%0A",
    "space": "a%20b",
    "non-ASCII": "caf%C3%A9",
    "bidi override": "ab%E2%80%AEcd",
    "semicolon": "a%3Bb",
    "too long": "a" * 65,
}


def test_the_routes_with_ids_are_found() -> None:
    paths = {path for _, path, _ in ID_ROUTES}
    assert "/v1/tournaments/{tournament_id}" in paths
    assert "/v1/bridge/events/{event_id}/tables/{table}/boards/{board}" in paths
    assert len(ID_ROUTES) >= 25


def _url(path: str, value: str) -> str:
    """`path` with every string parameter set to `value` and every number to 1."""
    numbered = re.sub(r"\{(number|round_number|table|board)\}", "1", path)
    return re.sub(r"\{[a-z_]+\}", value, numbered)


@pytest.mark.parametrize(
    ("method", "path", "names"), ID_ROUTES, ids=[f"{m} {p}" for m, p, _ in ID_ROUTES]
)
async def test_a_path_id_no_id_can_have_is_422_naming_it(
    client: httpx.AsyncClient, method: str, path: str, names: list[str]
) -> None:
    before = (await client.get("/v1/tournaments")).json()
    for label, value in BAD_IDS.items():
        for headers in ({"Authorization": "Bearer org_made-up"}, {}):
            response = await client.request(
                method,
                _url(path, value),
                json={} if method in {"POST", "PUT", "PATCH"} else None,
                headers=headers,
            )
            assert response.status_code == 422, (label, headers, response.text)
            assert response.headers["content-type"] == "application/problem+json"
            assert response.json()["field"] in names, (label, response.json())
    unknown = await client.request(
        method,
        _url(path, "no-such-id"),
        json={} if method in {"POST", "PUT", "PATCH"} else None,
        headers={"Authorization": "Bearer org_made-up"},
    )
    assert unknown.status_code in {404, 422}, unknown.text
    if unknown.status_code == 422:  # the body was checked first; the id was fine
        assert unknown.json()["field"] not in names, unknown.text
    assert (await client.get("/v1/tournaments")).json() == before


async def test_an_unknown_well_formed_id_is_404(client: httpx.AsyncClient) -> None:
    for url in (
        "/v1/tournaments/no-such-id",
        "/v1/tournaments/0123456789abcdef0123456789abcdef/players",
        "/v1/bridge/events/No_Such_Event",
    ):
        response = await client.get(url)
        assert response.status_code == 404, (url, response.text)


@pytest.mark.parametrize(
    ("method", "path", "names"), NUMBER_ROUTES, ids=[f"{m} {p}" for m, p, _ in NUMBER_ROUTES]
)
async def test_a_path_number_that_is_not_one_is_422_naming_it(
    client: httpx.AsyncClient, method: str, path: str, names: list[str]
) -> None:
    """Players, rounds, games, tables and boards are numbers in the path (of a
    tournament or event that exists, so the number is what is wrong)."""
    event = await create_round_robin(client, PLAYERS)
    bridge = await client.post("/v1/bridge/events", json=_bridge_event())
    assert bridge.status_code == 201, bridge.text
    if "{event_id}" in path:
        path = path.replace("{event_id}", bridge.json()["id"])
        auth = {"Authorization": f"Bearer {bridge.json()['organizer_token']}"}
    else:
        path, auth = path.replace("{tournament_id}", event.id), event.auth()
    for value in ("%00", "1%00", "true", "one", "%E2%80%AE1"):
        response = await client.request(
            method,
            re.sub(r"\{[a-z_]+\}", value, path),
            json={} if method in {"POST", "PUT", "PATCH"} else None,
            headers=auth,
        )
        assert response.status_code == 422, (value, response.text)
        assert response.json()["field"] in names, (value, response.json())


def _bridge_event() -> dict[str, Any]:
    return {
        "kind": "pairs",
        "name": "Ids",
        "pairs": [{"number": n, "name": f"Pair {n}"} for n in (1, 2)],
        "boards": [1],
        "movement": [{"round": 1, "tables": [{"table": 1, "ns": 1, "ew": 2, "boards": [1]}]}],
    }
