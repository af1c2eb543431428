"""The settings records of the TRF export (docs/rules/trf.md#settings-records), on each
database: the initial colour as TRF-26 152 and XXC, the scoring system as TRF-26 162;
an import reads them back and writes nothing twice; a file that says no initial colour
takes it from round 1 (TRF-26 152), so its next round pairs as `arbiter pair` pairs it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.cli import main as arbiter
from tests.api.conftest import Event, create_round_robin
from tests.api.test_swiss_api import confirm_all, pair

SIX = [(f"Player {n}", 2400 - 50 * n) for n in range(1, 7)]


async def _export(client: httpx.AsyncClient, tournament_id: str) -> str:
    response = await client.get(f"/v1/tournaments/{tournament_id}/trf")
    assert response.status_code == 200, response.text
    return response.text


async def _import(client: httpx.AsyncClient, text: str) -> dict[str, Any]:
    response = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def _records(text: str, *codes: str) -> list[str]:
    return [line for line in text.splitlines() if line[:3] in codes]


def _without(text: str, *codes: str) -> str:
    """The file without the records `codes` and without the audit trail: as another
    program would write it."""
    kept = [line for line in text.splitlines() if line[:3] not in codes and line[:3] != "###"]
    return "\n".join(kept) + "\n"


def _cli_pairs(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[list[int]]:
    path = tmp_path / "file.trf"
    path.write_text(text)
    capsys.readouterr()
    assert arbiter(["pair", str(path), "--format", "json"]) == 0
    return [[g["white"], g["black"]] for g in json.loads(capsys.readouterr().out)["pairings"]]


async def test_a_file_without_an_initial_colour_takes_round_ones(
    client: httpx.AsyncClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Six players, round 1 paired with Black for the top player (1-4, 2-5, 3-6 give
    4-1, 2-5, 6-3). Written without 152 or XXC, the file is imported with Black as the
    initial colour, not a lot; the import's export writes `152 B` and `XXC black1`,
    and its round 2 is the one `arbiter pair` makes of the file."""
    event = await create_round_robin(
        client, SIX, system="swiss-dutch", rounds=3, swiss={"initial_colour": "black"}
    )
    first = await pair(client, event)
    assert first.status_code == 201, first.text
    assert [(g["white"], g["black"]) for g in first.json()["games"]] == [(4, 1), (2, 5), (6, 3)]
    await confirm_all(client, event, 1)
    third_party = _without(await _export(client, event.id), "152", "XXC")
    assert not _records(third_party, "152", "XXC")
    body = await _import(client, third_party)
    assert body["swiss"]["initial_colour"] == "black"
    exported = await _export(client, body["id"])
    assert _records(exported, "152", "XXC") == ["152 B", "XXC black1"]
    assert await _export(client, (await _import(client, exported))["id"]) == exported
    expected = _cli_pairs(third_party, tmp_path, capsys)
    second = await pair(client, Event(body["id"], body["organizer_token"], {}))
    assert second.status_code == 201, second.text
    assert [[g["white"], g["black"]] for g in second.json()["games"]] == expected
    own = await pair(client, event)
    assert [[g["white"], g["black"]] for g in own.json()["games"]] == expected


async def test_a_file_before_round_1_says_its_colour_or_none(client: httpx.AsyncClient) -> None:
    """Before round 1 the export says the initial colour (TRF-26 152: mandatory for
    in-tournament exchange before round 1), drawn by lot or set; a third-party file
    with no round and no colour record leaves the colour to the new tournament's lot."""
    event = await create_round_robin(
        client, SIX, system="swiss-dutch", rounds=3, swiss={"initial_colour": "white"}
    )
    exported = await _export(client, event.id)
    assert _records(exported, "152", "XXC") == ["152 W", "XXC white1"]
    body = await _import(client, exported)
    assert body["swiss"]["initial_colour"] == "white"
    assert await _export(client, body["id"]) == exported
    bare = await _import(client, _without(exported, "152", "XXC"))
    assert bare["swiss"]["initial_colour"] is None
    # the lot it draws is written all the same, and read back as that colour
    drawn = _records(await _export(client, bare["id"]), "152")
    assert drawn in (["152 W"], ["152 B"])


async def test_kept_records_are_not_written_twice(client: httpx.AsyncClient) -> None:
    """A file's own 162 (3/1/0) and an XXC that names no colour: the import takes
    the points from 162 and the colour from round 1; the export keeps the file's 162
    alone and adds 152 beside the kept XXC, no second XXC."""
    players = [
        (1, "Alpha, Ann", 2000, "3.0", 3, "b", "1"),
        (2, "Bravo, Ben", 1900, "1.0", 4, "w", "="),
        (3, "Charlie, Cid", 1800, "0.0", 1, "w", "0"),
        (4, "Delta, Dan", 1700, "1.0", 2, "b", "="),
    ]
    text = "012 Kept records\n142 3\n162  W 3.0    D 1.0    L 0.0\n192 FIDE_DUTCH_2025\n"
    for number, name, rating, points, opponent, colour, result in players:
        text += (
            f"001 {number:4d}      {name:<33} {rating:4d} {'':3} {'':11} {'':10} {points:>4}"
            f"       {opponent:4d} {colour} {result}\n"
        )
    text += "XXC rank\n"
    body = await _import(client, text)
    assert body["points"]["win"] == 3 and body["points"]["draw"] == 1
    assert body["swiss"]["initial_colour"] == "black"
    exported = await _export(client, body["id"])
    assert _records(exported, "152", "162", "XXC") == [
        "162  W 3.0    D 1.0    L 0.0",
        "152 B",
        "XXC rank",
    ]
    assert await _export(client, (await _import(client, exported))["id"]) == exported


async def test_scoring_and_colour_records_only_when_they_say_something(
    client: httpx.AsyncClient,
) -> None:
    """A round robin with 1/½/0 writes neither 152/XXC (its colours come from the
    Berger tables) nor 162; with 3/1/0 it writes 162, read back as its points; a
    pairing-allocated bye worth a draw is P."""
    plain = await create_round_robin(client, SIX[:4])
    assert not _records(await _export(client, plain.id), "152", "162", "XXC")
    football = await create_round_robin(client, SIX[:4], points={"win": 3, "draw": 1, "loss": 0})
    exported = await _export(client, football.id)
    assert _records(exported, "152", "162", "XXC") == ["162  W 3.0    D 1.0    L 0.0"]
    body = await _import(client, exported)
    assert {k: body["points"][k] for k in ("win", "draw", "loss")} == {
        "win": 3,
        "draw": 1,
        "loss": 0,
    }
    assert await _export(client, body["id"]) == exported
    half = await create_round_robin(
        client,
        SIX[:5],
        system="swiss-dutch",
        rounds=3,
        points={"win": 1, "draw": 0.5, "loss": 0, "bye": 0.5},
        swiss={"initial_colour": "black"},
    )
    exported = await _export(client, half.id)
    assert _records(exported, "162") == ["162  W 1.0    D 0.5    L 0.0    P 0.5"]
    body = await _import(client, exported)
    assert body["points"]["bye"] == 0.5
    assert await _export(client, body["id"]) == exported


async def test_tiebreaks_are_202_in_trf26_syntax(client: httpx.AsyncClient) -> None:
    """The tie-breaks chosen at creation are TRF-26 202 (`BH-C1/P` as `BH/C1/P`), read
    back as the tournament's; a PATCH changes the record. A tie-break with no FIDE code
    (the simplified Berger, SB-S) leaves no 202 (the audit trail carries the choice);
    a third-party 202 with a team code is kept as it was."""
    event = await create_round_robin(client, SIX[:4], tiebreaks=["BH-C1/P", "SB", "DE", "ARO"])
    exported = await _export(client, event.id)
    assert _records(exported, "202") == ["202 BH/C1/P,SB,DE,ARO"]
    body = await _import(client, exported)
    assert body["tiebreaks"] == ["BH-C1/P", "SB", "DE", "ARO"]
    assert await _export(client, body["id"]) == exported
    copy = Event(body["id"], body["organizer_token"], {})
    changed = await client.patch(
        f"/v1/tournaments/{copy.id}", json={"tiebreaks": ["TPR"]}, headers=copy.auth()
    )
    assert changed.status_code == 200, changed.text
    assert _records(await _export(client, body["id"]), "202") == ["202 TPR"]
    berger = await create_round_robin(client, SIX[:4], tiebreaks=["SB-S"])
    assert not _records(await _export(client, berger.id), "202")
    third_party = _without(exported, "202").replace("012 ", "202 BH:MP/C1/P,EDET\n012 ", 1)
    body = await _import(client, third_party)
    assert _records(await _export(client, body["id"]), "202") == ["202 BH:MP/C1/P,EDET"]
