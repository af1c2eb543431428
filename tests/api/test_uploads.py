"""Uploaded files (TRF imports, PBN imports) on both databases, whatever their content
type: a control character the JSON API refuses in a name is refused in a file too,
naming its line and column, and nothing is stored; a file's header records are bounded;
the upload limit is the same for `text/plain`, `application/octet-stream` and no
content type.

A TRF import sent as `application/octet-stream` skipped the NUL check (a 500 on
PostgreSQL, stored on SQLite), and ESC, BEL or a C1 character went into the names."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.api.conftest import stored_tournaments
from tests.data import DATA_DIR

TRF = (DATA_DIR / "trf" / "announced_byes.trf").read_text()
CONTENT_TYPES: list[dict[str, str]] = [
    {"content-type": "text/plain"},
    {"content-type": "application/octet-stream"},
    {},
]
CONTROLS = ["\x00", "\x07", "\x1b", "\x7f", "\x85"]
BRIDGE = {
    "kind": "pairs",
    "name": "Monday pairs",
    "pairs": [{"number": n, "name": f"Pair {n}"} for n in range(1, 5)],
    "boards": 2,
    "movement": [
        {
            "round": 1,
            "tables": [
                {"table": 1, "ns": 1, "ew": 3, "boards": [1, 2]},
                {"table": 2, "ns": 2, "ew": 4, "boards": [1, 2]},
            ],
        }
    ],
}
PBN = '[Board "1"]\n[Table "1"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n'


def _named(character: str, headers: dict[str, str], where: str) -> str:
    """What the refusal says: a text body with NUL is refused before it is read (the
    body limits); anything else by the file's reader, with line and column."""
    if character == "\x00" and headers.get("content-type", "").startswith("text/"):
        return "NUL characters"
    return f"{where}: control character U+{ord(character):04X}"


def _problem(response: httpx.Response, detail: str) -> None:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["type"] == "urn:arbiter:problem:invalid-input"
    assert body["field"] == "body"
    assert detail in body["detail"], body["detail"]


@pytest.mark.parametrize("character", CONTROLS)
async def test_a_control_character_in_a_trf_file_is_refused_and_nothing_stored(
    app: FastAPI, client: httpx.AsyncClient, character: str
) -> None:
    before = await stored_tournaments(app)
    name = TRF.replace("Alpha, Ann", f"Alpha, A{character}n").encode()
    header = TRF.replace("Minimal Open", f"Minimal{character}Open").encode()
    for headers in CONTENT_TYPES:
        response = await client.post("/v1/tournaments/import", content=name, headers=headers)
        _problem(response, _named(character, headers, "line 5, column 23"))
        response = await client.post("/v1/tournaments/import", content=header, headers=headers)
        _problem(response, _named(character, headers, "line 1, column 12"))
    assert await stored_tournaments(app) == before
    created = await client.post("/v1/tournaments/import", content=TRF.encode())
    assert created.status_code == 201, created.text
    assert await stored_tournaments(app) == before + 1


@pytest.mark.parametrize("character", CONTROLS)
async def test_a_control_character_in_a_pbn_file_is_refused_and_nothing_stored(
    client: httpx.AsyncClient, character: str
) -> None:
    created = await client.post("/v1/bridge/events", json=BRIDGE)
    event = created.json()
    auth = {"Authorization": f"Bearer {event['organizer_token']}"}
    path = f"/v1/bridge/events/{event['id']}/import"
    text = PBN.replace('[Table "1"]', f'[Table "{character}1"]').encode()
    for headers in CONTENT_TYPES:
        response = await client.post(path, content=text, headers={**auth, **headers})
        _problem(response, _named(character, headers, "line 2, column 9"))
    assert (await client.get(f"/v1/bridge/events/{event['id']}/results")).json() == []
    entered = await client.post(path, content=PBN.encode(), headers=auth)
    assert entered.status_code == 200, entered.text


async def test_a_pbn_file_holds_no_more_games_than_the_session_plays(
    client: httpx.AsyncClient,
) -> None:
    """Two tables, two boards: four results. Every game with a contract is one result to
    enter, so a longer file is refused before any is entered."""
    created = await client.post("/v1/bridge/events", json=BRIDGE)
    event = created.json()
    auth = {"Authorization": f"Bearer {event['organizer_token']}"}
    path = f"/v1/bridge/events/{event['id']}/import"
    games = [
        PBN.replace('"1"]\n[Table', f'"{b}"]\n[Table').replace('Table "1"', f'Table "{t}"')
        for b in (1, 2)
        for t in (1, 2)
    ]
    text = "\n".join(games) + "\n" + PBN
    _problem(await client.post(path, content=text, headers=auth), "game 5: more than 4 games")
    assert (await client.get(f"/v1/bridge/events/{event['id']}/results")).json() == []
    entered = await client.post(path, content="\n".join(games), headers=auth)
    assert entered.json() == {"games": 4, "changed": 4, "unchanged": 0}


async def test_header_records_are_bounded_and_nothing_stored(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Every header record is stored with the tournament and read back with it: a file
    with 28,000 of them slowed every read of its tournament eightfold."""
    before = await stored_tournaments(app)
    head, players = TRF.split("001", 1)
    kept = len(head.splitlines())
    dates = "".join(f"132 round {n}\n" for n in range(1, 1_001 - kept))
    text = head + dates + "001" + players
    created = await client.post("/v1/tournaments/import", content=text.encode())
    assert created.status_code == 201, created.text
    body = created.json()
    auth = {"Authorization": f"Bearer {body['organizer_token']}"}
    exported = await client.get(f"/v1/tournaments/{body['id']}/trf", headers=auth)
    assert exported.text.count("\n132 round ") == 1_000 - kept
    over = head + dates + "132 one more\n" + "001" + players
    _problem(
        await client.post("/v1/tournaments/import", content=over.encode()),
        "line 1001: more than 1,000 header records",
    )
    assert await stored_tournaments(app) == before + 1


@pytest.mark.parametrize("headers", CONTENT_TYPES, ids=["text", "octet-stream", "none"])
async def test_the_upload_limit_whatever_the_content_type(
    client: httpx.AsyncClient, headers: dict[str, str]
) -> None:
    """TRF and PBN bodies may come as `text/plain` or `application/octet-stream` (the
    same bytes): both get the upload limit (5 MB), not the 1 MB of a JSON body."""
    comments = "### a comment line of the file\n" * 65_000  # about 2 MB
    created = await client.post(
        "/v1/tournaments/import", content=(TRF + comments).encode(), headers=headers
    )
    assert created.status_code == 201, created.text
    huge = await client.post(
        "/v1/tournaments/import", content=(TRF + comments * 3).encode(), headers=headers
    )
    assert huge.status_code == 413, huge.text
    assert huge.json()["type"] == "urn:arbiter:problem:too-large"


async def test_json_the_framework_parses_gets_the_body_limit(client: httpx.AsyncClient) -> None:
    """The framework parses a JSON body on the event loop (a 4.7 MB Butler request held
    it 0.3-0.5 s): every `/v1/compute/...` endpoint but the two that read whole
    tournaments in the CPU pool takes 1 MB, as the rest of the API does."""
    scores = {"scores": [420] * 250_000}  # about 1.25 MB
    response = await client.post("/v1/compute/bridge/butler", json=scores)
    assert response.status_code == 413, response.text
    comments = "### a comment line of the file\n" * 65_000  # about 2 MB
    standings = await client.post("/v1/compute/standings", content=(TRF + comments).encode())
    assert standings.status_code == 200, standings.text
