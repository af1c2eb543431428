"""The live channel's AsyncAPI 3 document: committed and current, a valid AsyncAPI 3.0
document, served beside the docs, and true to the messages a real server sends."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import httpx
import jsonschema
import pytest
import websockets

from service.api.asyncapi import asyncapi_document
from tests.api.conftest import create_round_robin
from tests.conftest import REPO_ROOT

COMMITTED = REPO_ROOT / "openapi" / "asyncapi.json"
SPEC_SCHEMA = REPO_ROOT / "tests" / "data" / "asyncapi" / "asyncapi-3.0.0.schema.json"
PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800), ("Eve", 1700)]


def test_committed_document_is_current() -> None:
    committed = json.loads(COMMITTED.read_text())
    assert committed == asyncapi_document(), "run `make openapi` and commit the result"


def test_document_is_valid_asyncapi_3() -> None:
    validator = jsonschema.Draft7Validator(json.loads(SPEC_SCHEMA.read_text()))
    document = json.loads(COMMITTED.read_text())
    assert list(validator.iter_errors(document)) == []
    broken = copy.deepcopy(document)
    broken["operations"]["receiveTournamentLive"]["action"] = "listen"
    assert list(validator.iter_errors(broken)) != []


def _validator_for(message: str) -> jsonschema.Draft202012Validator:
    """A validator of one message type against the published component schemas."""
    document = asyncapi_document()
    schemas = document["components"]["schemas"]
    name = document["components"]["messages"][message]["payload"]["$ref"].rsplit("/", 1)[1]
    schema = {**schemas[name], "components": {"schemas": schemas}}
    return jsonschema.Draft202012Validator(schema)


RECV_GUARD = 30
"""Seconds a message may take, a guard and not a measurement (like the HTTP client's in
conftest.py): once in a CI run on a loaded 2-core machine, a message took over 5 s."""


async def test_real_messages_match_the_document(server: str, http: httpx.AsyncClient) -> None:
    served = await http.get("/asyncapi.json")
    assert served.status_code == 200 and served.json() == asyncapi_document()
    docs = (await http.get("/openapi.json")).json()
    assert "/asyncapi.json" in docs["info"]["description"]

    event = await create_round_robin(http, PLAYERS)
    seen: list[dict[str, Any]] = []
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        seen.append(json.loads(await asyncio.wait_for(ws.recv(), RECV_GUARD)))
        games = (await http.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
        for game in games:
            reported = await http.put(
                f"/v1/tournaments/{event.id}/rounds/1/games/{game['table']}/result",
                json={"result": "1-0"},
                headers=event.auth(),
            )
            assert reported.status_code == 200
        while sum(1 for m in seen if m["type"] in ("event", "batch")) < len(games):
            message = json.loads(await asyncio.wait_for(ws.recv(), RECV_GUARD))
            if message["type"] != "ping":
                seen.append(message)
    assert seen[0]["type"] == "snapshot"
    for message in seen:
        _validator_for(message["type"]).validate(message)


@pytest.mark.parametrize("bad", [{"type": "snapshot", "seq": "one"}, {"type": "ping"}])
def test_schemas_refuse_what_the_server_never_sends(bad: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        _validator_for(bad["type"]).validate(bad)
