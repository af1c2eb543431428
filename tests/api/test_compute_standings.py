"""`POST /v1/compute/standings`: the caller's system decides the C.07 reading, the
response says which reading applied, undefined values are null."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from service.engine.scoring.reading import DEFAULT_ROUND_ROBIN, DEFAULT_SWISS
from service.engine.scoring.standings import compute_standings
from service.engine.trf import TrfDocument, write_trf
from tests.engine.scoring.builders import every_pair_meets

DATA = Path(__file__).resolve().parents[1] / "data" / "tiebreaks"
CODES = "BH,BH-C1,FB,SB"


def _trf(declared: str | None) -> str:
    headers = (("012", "Every pair meets"),) + ((("092", declared),) if declared else ())
    return write_trf(TrfDocument(tournament=every_pair_meets(), headers=headers, system=declared))


def _json_body(system: str | None) -> dict[str, object]:
    event = every_pair_meets()
    results = {"1-0": "1-0", "0-1": "0-1", "+-": "+-", "-+": "-+"}
    body: dict[str, object] = {
        "players": [{"id": p.start_number, "rating": p.rating} for p in event.players],
        "games": [
            {"round": g.round, "white": g.white, "black": g.black, "result": results[g.result]}
            for rnd in event.rounds
            for g in rnd.games
            if g.result is not None
        ],
        "rounds": 7,
        "tiebreaks": CODES.split(","),
    }
    if system is not None:
        body["system"] = system
    return body


def _expected(round_robin: bool) -> dict[int, dict[str, float | None]]:
    table = compute_standings(every_pair_meets(), CODES.split(","), round_robin=round_robin)
    return {
        r.start_number: {c: None if v is None else float(v) for c, v in r.tiebreaks.items()}
        for r in table.rows
    }


def _values(response: httpx.Response) -> dict[int, dict[str, float | None]]:
    assert response.status_code == 200, response.text
    return {int(row["id"]): row["tiebreaks"] for row in response.json()["rows"]}


async def test_the_system_field_decides_the_reading(client: httpx.AsyncClient) -> None:
    swiss = await client.post("/v1/compute/standings", json=_json_body("swiss-dutch"))
    assert swiss.json()["reading"] == {
        "reading": "swiss",
        "system": "swiss-dutch",
        "source": "request",
    }
    assert _values(swiss) == _expected(round_robin=False)
    silent = await client.post("/v1/compute/standings", json=_json_body(None))
    assert silent.json()["reading"] == {
        "reading": "round-robin",
        "system": None,
        "source": "inferred",
    }
    assert _values(silent) == _expected(round_robin=True)
    assert _values(silent) != _values(swiss)
    bad = await client.post("/v1/compute/standings", json=_json_body("swiss"))
    assert bad.status_code == 422 and bad.json()["field"] == "system"


async def test_a_trf_092_record_decides_and_a_query_overrides(client: httpx.AsyncClient) -> None:
    url = f"/v1/compute/standings?tiebreaks={CODES}"
    declared = await client.post(url, content=_trf("FIDE_DUTCH_2025"))
    assert declared.json()["reading"]["source"] == "trf-092"
    assert _values(declared) == _expected(round_robin=False)
    told = await client.post(url + "&system=round-robin", content=_trf("FIDE_DUTCH_2025"))
    assert told.json()["reading"] == {
        "reading": "round-robin",
        "system": "round-robin",
        "source": "request",
    }
    assert _values(told) == _expected(round_robin=True)


async def test_defaults_follow_the_reading(client: httpx.AsyncClient) -> None:
    robin = await client.post("/v1/compute/standings", content=_trf("FIDE_ROUNDROBIN"))
    assert robin.json()["tiebreaks"] == list(DEFAULT_ROUND_ROBIN)
    swiss = await client.post("/v1/compute/standings", content=_trf("FIDE_DUTCH_2025"))
    assert swiss.json()["tiebreaks"] == list(DEFAULT_SWISS)


async def test_aro_without_a_game_is_null(client: httpx.AsyncClient) -> None:
    expected = json.loads((DATA / "expected.json").read_text())["t-f01.trf"]["2026"]
    response = await client.post(
        "/v1/compute/standings?tiebreaks=ARO,BH&system=swiss-dutch",
        content=(DATA / "t-f01.trf").read_bytes(),
    )
    got = _values(response)
    assert {n: v["ARO"] for n, v in got.items()} == {int(n): v["ARO"] for n, v in expected.items()}
    assert None in {v["ARO"] for v in got.values()}
    assert all(isinstance(v["BH"], float) for v in got.values())


async def test_a_body_that_is_not_trf_gets_the_message_the_cli_prints(
    client: httpx.AsyncClient,
) -> None:
    from service.api.compute_input import NO_PLAYERS

    for path in ("/v1/compute/standings", "/v1/compute/pairings"):
        for body in (b"\x00\x01\xff\xfe garbage\n", b"", b"012 Only a name\n"):
            response = await client.post(path, content=body)
            assert response.status_code == 422, response.text
            assert response.json()["detail"] == NO_PLAYERS
