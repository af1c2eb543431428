"""A number field takes a JSON number: `true` is not 1 (`"rounds": true` made a
one-round tournament), nor is `"3"` 3. Every integer and number of every JSON request
body in the OpenAPI document is tried, so a new field is covered without touching this
file; nothing is stored."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import create_round_robin
from tests.api.request_bodies import FieldPath as Path
from tests.api.request_bodies import body_at, json_body_operations, resolve


def _numbers(
    schema: dict[str, Any], path: Path = (), texts: bool = False, depth: int = 0
) -> Iterator[tuple[Path, bool]]:
    """Where a body holds an integer or a number (list items at index 0), and whether a
    string is also taken there (a player id is a number or a name)."""
    schema = resolve(schema)
    if depth > 10:
        return
    for key in ("anyOf", "oneOf", "allOf"):
        members = schema.get(key, [])
        also_text = texts or any(resolve(m).get("type") == "string" for m in members)
        for member in members:
            yield from _numbers(member, path, also_text, depth + 1)
    if schema.get("type") in {"integer", "number"}:
        yield path, texts
    for name, member in schema.get("properties", {}).items():
        yield from _numbers(member, (*path, name), False, depth + 1)
    if schema.get("type") == "array" and "items" in schema:
        yield from _numbers(schema["items"], (*path, 0), False, depth + 1)


OPERATIONS = json_body_operations(_numbers)


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The app with rate limits off: a tournament's settings hold more number fields
    than an hour's allowance of creation attempts from one client, and every one is
    tried three ways (the limits are tested on their own)."""
    application = create_app(Settings(database_url=database_url, rate_limits_enabled=False))
    async with application.router.lifespan_context(application):
        yield application


def _named(field: str, path: Path) -> bool:
    dotted = ".".join(str(part) for part in path)
    return field == dotted or field.startswith(dotted + ".")


def test_the_number_fields_are_found() -> None:
    by_operation = {(m, p): leaves for m, p, leaves in OPERATIONS}
    assert (("rounds",), False) in by_operation[("POST", "/v1/tournaments")]
    assert (("players", 0, "id"), True) in by_operation[("POST", "/v1/compute/standings")]
    assert sum(len(leaves) for leaves in by_operation.values()) >= 80


@pytest.mark.parametrize(
    ("method", "path", "leaves"), OPERATIONS, ids=[f"{m} {p}" for m, p, _ in OPERATIONS]
)
async def test_true_and_text_are_not_numbers(
    client: httpx.AsyncClient, method: str, path: str, leaves: list[tuple[Path, bool]]
) -> None:
    headers: dict[str, str] = {}
    if "{tournament_id}" in path:
        event = await create_round_robin(client, [("Ann", 2100), ("Bob", 2000)], start=False)
        path, headers = path.replace("{tournament_id}", event.id), event.auth()
    if "{event_id}" in path:
        created = await client.post("/v1/bridge/events", json=_bridge_event())
        assert created.status_code == 201, created.text
        body = created.json()
        path = path.replace("{event_id}", body["id"])
        headers = {"Authorization": f"Bearer {body['organizer_token']}"}
    url = re.sub(r"\{[a-z_]+\}", "1", path)
    before = (await client.get("/v1/tournaments")).json()
    for leaf, texts in leaves:
        for value in (True, False) if texts else (True, False, "3"):
            response = await client.request(method, url, json=body_at(leaf, value), headers=headers)
            assert response.status_code == 422, (leaf, value, response.text)
            fields = [e["field"] for e in response.json().get("errors", [])]
            assert any(_named(f, leaf) for f in fields), (leaf, value, fields)
    assert (await client.get("/v1/tournaments")).json() == before


def _bridge_event() -> dict[str, Any]:
    return {
        "kind": "pairs",
        "name": "Numbers",
        "pairs": [{"number": n, "name": f"Pair {n}"} for n in (1, 2)],
        "boards": [1],
        "movement": [{"round": 1, "tables": [{"table": 1, "ns": 1, "ew": 2, "boards": [1]}]}],
    }


async def test_whole_numbers_still_read(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/tournaments",
        json={"name": "Five rounds", "system": "swiss-dutch", "rounds": 5, "points": {"win": 3}},
    )
    assert created.status_code == 201, created.text
    assert created.json()["rounds"] == 5
    assert created.json()["points"]["win"] == 3.0
