"""Names people read (tournaments, players, bridge events, pairs, teams): a name with
nothing visible in it (only spaces, zero-width or format characters) or with a
bidirectional override or isolate (which reorders the text shown after it) is a 422
naming the field, on SQLite and PostgreSQL; nothing is stored. Every `name` of every
JSON request body in the OpenAPI document is tried, but for the stateless compute
endpoints, whose names only label the caller's own rows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.conftest import create_round_robin
from tests.api.request_bodies import FieldPath as Path
from tests.api.request_bodies import body_at, json_body_operations, resolve

INVISIBLE = {
    "spaces": "   ",
    "tab and no-break space": "\t\u00a0",
    "zero-width space": "\u200b",
    "byte order mark": "\ufeff",
    "right-to-left override": "\u202e",
    "ideographic space and word joiner": "\u3000\u2060",
    "Hangul filler": "\u3164",
    "line separator": "\u2028",
}
SPOOFING = {
    "override inside": "Ann\u202egpj.exe",
    "isolate inside": "Bob \u2067Cid\u2069",
    "embedding inside": "\u202aDan",
}
READABLE = {
    "Latin": "Zoë Ørsted-Łukasiewicz",
    "Arabic": "محمد",
    "Persian with a zero-width non-joiner": "می\u200cخواهم",
    "Devanagari with a zero-width joiner": "क्\u200dष",
    "right-to-left mark": "\u200fعلي",
    "one letter": "X",
    "emoji": "🦉",
}


def _names(schema: dict[str, Any], path: Path = (), depth: int = 0) -> Iterator[Path]:
    schema = resolve(schema)
    if depth > 10:
        return
    for key in ("anyOf", "oneOf", "allOf"):
        for member in schema.get(key, []):
            yield from _names(member, path, depth + 1)
    for name, member in schema.get("properties", {}).items():
        if name == "name":
            yield (*path, name)
        else:
            yield from _names(member, (*path, name), depth + 1)
    if schema.get("type") == "array" and "items" in schema:
        yield from _names(schema["items"], (*path, 0), depth + 1)


OPERATIONS = json_body_operations(_names, skip_prefix="/v1/compute/")


def test_the_name_fields_are_found() -> None:
    found = {(m, p, ".".join(map(str, n))) for m, p, names in OPERATIONS for n in names}
    assert ("POST", "/v1/tournaments", "name") in found
    assert ("PATCH", "/v1/tournaments/{tournament_id}", "name") in found
    assert ("POST", "/v1/tournaments/{tournament_id}/players", "name") in found
    assert ("PATCH", "/v1/tournaments/{tournament_id}/players/{number}", "name") in found
    assert ("POST", "/v1/bridge/events", "pairs.0.name") in found
    assert ("POST", "/v1/bridge/events", "teams.0.name") in found


@pytest.mark.parametrize(
    ("method", "path", "names"), OPERATIONS, ids=[f"{m} {p}" for m, p, _ in OPERATIONS]
)
async def test_names_need_something_visible_and_no_bidi_controls(
    client: httpx.AsyncClient, method: str, path: str, names: list[Path]
) -> None:
    event = await create_round_robin(client, [("Ann", 2100), ("Bob", 2000)], start=False)
    url = path.replace("{tournament_id}", event.id).replace("{number}", "1")
    before = await _stored(client, event.id)
    for name in names:
        dotted = ".".join(map(str, name))
        for label, value in {**INVISIBLE, **SPOOFING}.items():
            response = await client.request(
                method, url, json=body_at(name, value), headers=event.auth()
            )
            assert response.status_code == 422, (dotted, label, response.text)
            fields = [e["field"] for e in response.json()["errors"]]
            assert dotted in fields, (dotted, label, fields)
    assert await _stored(client, event.id) == before
    for name in names:
        dotted = ".".join(map(str, name))
        for label, value in READABLE.items():
            response = await client.request(
                method, url, json=body_at(name, value), headers=event.auth()
            )
            errors = response.json().get("errors", []) if response.status_code == 422 else []
            assert dotted not in [e["field"] for e in errors], (dotted, label, response.text)


async def _stored(client: httpx.AsyncClient, tournament_id: str) -> tuple[Any, ...]:
    tournaments = (await client.get("/v1/tournaments")).json()
    players = (await client.get(f"/v1/tournaments/{tournament_id}/players")).json()
    tournament = (await client.get(f"/v1/tournaments/{tournament_id}")).json()
    return tournaments, players, tournament["name"]


async def test_a_readable_name_is_kept_as_sent(client: httpx.AsyncClient) -> None:
    for value in READABLE.values():
        created = await client.post(
            "/v1/tournaments", json={"name": value, "system": "round-robin"}
        )
        assert created.status_code == 201, created.text
        assert created.json()["name"] == value
