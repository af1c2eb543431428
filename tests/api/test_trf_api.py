"""TRF-16 through the API: import a reference tournament, read it back, continue it."""

from __future__ import annotations

from typing import Any

import httpx

from service.engine.scoring.standings import compute_standings
from service.engine.trf import parse_trf, rounds_prefix, write_trf
from tests.data import ORACLE_DUTCH

ORACLE = ORACLE_DUTCH / "v0004.trf"


async def _import(client: httpx.AsyncClient, text: str) -> dict[str, Any]:
    response = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_import_then_export_round_trips(client: httpx.AsyncClient) -> None:
    text = ORACLE.read_text()
    created = await _import(client, text)
    assert created["status"] == "finished"
    assert (created["system"], created["rounds"], created["players"]) == ("swiss-dutch", 6, 13)
    assert len(created["player_tokens"]) == 13
    exported = parse_trf((await client.get(f"/v1/tournaments/{created['id']}/trf")).text)
    original = parse_trf(text).tournament
    assert exported.tournament.players == original.players
    for mine, theirs in zip(exported.tournament.rounds, original.rounds, strict=True):
        assert {(g.white, g.black, g.result) for g in mine.games} == {
            (g.white, g.black, g.result) for g in theirs.games
        }
        assert set(mine.byes) == set(theirs.byes)
    engine = compute_standings(original, ["BH-C1", "BH", "SB", "DE", "WIN"])
    api = (await client.get(f"/v1/tournaments/{created['id']}/standings")).json()
    assert [(r["start_number"], r["rank"]) for r in api["rows"]] == [
        (r.start_number, r.rank) for r in engine.rows
    ]


async def test_imported_swiss_continues_with_the_next_round(client: httpx.AsyncClient) -> None:
    doc = parse_trf(ORACLE.read_text())
    before = rounds_prefix(doc, 3)
    created = await _import(client, write_trf(before))
    assert created["status"] == "running" and created["swiss"]["initial_colour"] == "black"
    auth = {"Authorization": f"Bearer {created['organizer_token']}"}
    announced = [{"player": b.player, "type": b.kind.value} for b in before.next_round_byes]
    response = await client.post(
        f"/v1/tournaments/{created['id']}/rounds", json={"byes": announced}, headers=auth
    )
    assert response.status_code == 201, response.text
    played = doc.tournament.rounds[3]
    assert {(g["white"], g["black"]) for g in response.json()["games"]} == {
        (g.white, g.black) for g in played.games
    }
