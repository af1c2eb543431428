"""Real federation files through the API (tests/data/trf/README.md): imported in the
file's own state, refused with the line when they contradict themselves, written back
with what they carried."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.api.conftest import create_round_robin, stored_tournaments

DATA = Path(__file__).resolve().parents[1] / "data" / "trf"


async def _post(client: httpx.AsyncClient, raw: bytes, query: str = "") -> httpx.Response:
    return await client.post(
        f"/v1/tournaments/import{query}", content=raw, headers={"content-type": "text/plain"}
    )


async def _import(client: httpx.AsyncClient, name: str, query: str = "") -> dict[str, Any]:
    response = await _post(client, (DATA / name).read_bytes(), query)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def _auth(body: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {body['organizer_token']}"}


@pytest.mark.parametrize(
    "name",
    [
        "byes_without_opponent.trf",
        "forfeit_without_colour.trf",
        "rounds_in_142.trf",
        "announced_byes.trf",
        "byte_order_mark.trf",
        "windows_1252.trf",
        "bye_in_points_only.trf",
        "round_robin.trf",
        "lichess_swiss.trf",
        "check_late_entry.trf",
        "last_round_only_byes.trf",
        "trf26_bye_record.trf",
        "two_byes_one_point.trf",
    ],
)
async def test_real_files_import_with_standings_and_export(
    client: httpx.AsyncClient, name: str
) -> None:
    body = await _import(client, name)
    standings = await client.get(f"/v1/tournaments/{body['id']}/standings")
    assert standings.status_code == 200, standings.text
    exported = await client.get(f"/v1/tournaments/{body['id']}/trf", headers=_auth(body))
    assert exported.status_code == 200, exported.text
    again = await _post(client, exported.text.encode())
    assert again.status_code == 201, again.text
    second = await client.get(
        f"/v1/tournaments/{again.json()['id']}/trf", headers=_auth(again.json())
    )
    assert second.text == exported.text


async def test_round_state_headers_and_players_are_kept(client: httpx.AsyncClient) -> None:
    body = await _import(client, "rounds_in_142.trf")
    assert (body["status"], body["current_round"], body["rounds"]) == ("running", 1, 5)
    assert body["swiss"]["initial_colour"] == "white"
    exported = (await client.get(f"/v1/tournaments/{body['id']}/trf", headers=_auth(body))).text
    lines = exported.splitlines()
    original = (DATA / "rounds_in_142.trf").read_text().splitlines()
    assert lines[:15] == original[:15]  # 012-152 and 132, verbatim and in order
    assert lines[15][:80] == original[15][:80]  # title, federation, FIDE id, birth date
    assert lines[16][48:52] == "   0" and lines[18][48:52] == "    "
    assert lines[17][9:13] == "wWIM"
    paired = await client.post(f"/v1/tournaments/{body['id']}/rounds", json={}, headers=_auth(body))
    assert paired.status_code == 201, paired.text


async def test_announced_byes_are_honoured_when_pairing_next(client: httpx.AsyncClient) -> None:
    body = await _import(client, "announced_byes.trf")
    assert body["current_round"] == 1
    paired = await client.post(f"/v1/tournaments/{body['id']}/rounds", json={}, headers=_auth(body))
    assert paired.status_code == 201, paired.text
    byes = {b["player"]: b["type"] for b in paired.json()["byes"]}
    assert byes == {3: "half-point", 4: "zero-point"}
    seated = {n for g in paired.json()["games"] for n in (g["white"], g["black"])}
    assert seated == {1, 2, 5, 6}


async def test_trf26_bye_record_is_honoured(client: httpx.AsyncClient) -> None:
    body = await _import(client, "trf26_bye_record.trf")
    assert body["swiss"]["initial_colour"] == "black"
    paired = await client.post(f"/v1/tournaments/{body['id']}/rounds", json={}, headers=_auth(body))
    assert paired.status_code == 201, paired.text
    assert {b["player"]: b["type"] for b in paired.json()["byes"]} == {
        3: "half-point",
        4: "half-point",
    }


async def test_table_order_follows_the_scores(client: httpx.AsyncClient) -> None:
    body = await _import(client, "check_late_entry.trf")
    first = (await client.get(f"/v1/tournaments/{body['id']}/rounds/1")).json()
    assert [(g["table"], g["white"], g["black"]) for g in first["games"]] == [
        (1, 3, 1),
        (2, 2, 4),
    ]


async def test_points_column_warns_and_the_organizer_chooses(client: httpx.AsyncClient) -> None:
    kept = await _import(client, "bye_in_points_only.trf")
    assert [w.split(":")[0] for w in kept["warnings"]] == [
        "line 5, columns 81-84",
        "line 7, columns 81-84",
    ]
    assert "?points=file" in kept["warnings"][0]
    table = (await client.get(f"/v1/tournaments/{kept['id']}/standings")).json()
    points = {r["start_number"]: r["points"] for r in table["rows"]}
    assert (points[2], points[4]) == (0, 1)
    chosen = await _import(client, "bye_in_points_only.trf", "?points=file")
    table = (await client.get(f"/v1/tournaments/{chosen['id']}/standings")).json()
    points = {r["start_number"]: r["points"] for r in table["rows"]}
    assert (points[2], points[4]) == (1, 1.5)
    round_two = (await client.get(f"/v1/tournaments/{chosen['id']}/rounds/2")).json()
    assert {b["player"]: b["type"] for b in round_two["byes"]} == {
        2: "full-point",
        4: "half-point",
    }


async def test_points_spread_as_half_point_byes_over_the_unscored_rounds(
    client: httpx.AsyncClient,
) -> None:
    """Two blank bye cells and a points column one point above the results (as the
    Irish SwissPerfect files write requested byes): two half-point byes, not a
    full-point bye beside a zero-point one."""
    body = await _import(client, "two_byes_one_point.trf", "?points=file")
    assert body["warnings"] == [
        "player 5, round 1: read as a half-point bye to match the file's points",
        "player 5, round 3: read as a half-point bye to match the file's points",
    ]
    byes = {}
    for number in (1, 2, 3):
        rnd = (await client.get(f"/v1/tournaments/{body['id']}/rounds/{number}")).json()
        byes[number] = {b["player"]: b["type"] for b in rnd["byes"]}
    assert byes == {1: {5: "half-point"}, 2: {4: "zero-point"}, 3: {5: "half-point"}}


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("both_white.trf", "line 4, column 97 (player 1, round 1) and line 5, column 97"),
        ("results_contradict.trf", "results 1 and 1 contradict"),
        ("team_records.trf", "a team tournament needs at least 2 teams"),
        ("tab_in_record.trf", "line 3, column 25: a tab character"),
        ("truncated_record.trf", "line 4, columns 92-99: round 1 cell is cut short"),
        ("rounds_negative.trf", "line 2, record XXR: -3 rounds is outside 1..100"),
        ("rounds_huge.trf", "line 2, record XXR: 1000000 rounds is outside 1..100"),
        ("rating_9999.trf", "line 3, columns 49-52: rating 9999 is outside 0..4000"),
    ],
)
async def test_refused_files_store_nothing(
    app: FastAPI, client: httpx.AsyncClient, name: str, detail: str
) -> None:
    before = await stored_tournaments(app)
    response = await _post(client, (DATA / name).read_bytes())
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert detail in response.json()["detail"]
    assert response.json()["field"] == "body"
    assert await stored_tournaments(app) == before


async def test_round_robin_declared_in_092_is_a_round_robin(client: httpx.AsyncClient) -> None:
    body = await _import(client, "round_robin.trf")
    assert body["system"] == "round-robin"


@pytest.mark.parametrize(
    ("system", "settings", "code"),
    [
        ("round-robin", {}, "092 FIDE_ROUNDROBIN"),
        ("swiss-jca", {"rounds": 3}, "092 JCA_SWISS"),
        ("swiss-dutch", {"rounds": 3, "swiss": {"rules": "dutch-2017"}}, "092 FIDE_DUTCH_2017"),
        ("swiss-dutch", {"rounds": 3}, "092 FIDE_DUTCH_2025"),
    ],
)
async def test_092_says_the_tournaments_own_system(
    client: httpx.AsyncClient, system: str, settings: dict[str, Any], code: str
) -> None:
    event = await create_round_robin(
        client, [("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)], system=system, **settings
    )
    exported = await client.get(f"/v1/tournaments/{event.id}/trf", headers=event.auth())
    assert code in exported.text.splitlines()
    again = await _post(client, exported.text.encode())
    assert again.status_code == 201, again.text
    assert again.json()["system"] == system
    second = await client.get(
        f"/v1/tournaments/{again.json()['id']}/trf", headers=_auth(again.json())
    )
    assert second.text == exported.text


async def test_trf26_scoring_system_162_counts_in_the_standings(
    client: httpx.AsyncClient,
) -> None:
    body = await _import(client, "trf26_scoring_162.trf")
    assert body["warnings"] == []
    standings = (await client.get(f"/v1/tournaments/{body['id']}/standings")).json()
    assert [(r["start_number"], r["points"]) for r in standings["rows"]] == [
        (1, 4),
        (3, 3),
        (2, 2),
        (4, 1),
    ]
    exported = (await client.get(f"/v1/tournaments/{body['id']}/trf", headers=_auth(body))).text
    assert "162  W 3.0    D 1.0    L 0.0" in exported.splitlines()


async def test_trf26_162_points_outside_the_api_limits_are_refused(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    text = (DATA / "trf26_scoring_162.trf").read_text().replace("W 3.0", "W 0.3")
    before = await stored_tournaments(app)
    response = await _post(client, text.encode())
    assert response.status_code == 422
    assert "line 3: record 162 gives 0.3 points for win" in response.json()["detail"]
    assert await stored_tournaments(app) == before


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("XXA    1  1.0  x.5", "line 11, columns 15-18: XXA points for round 2"),
        ("XXA    1  1/0", "line 11, columns 10-13: XXA points for round 1"),
    ],
)
async def test_acceleration_points_that_are_no_number_are_named(
    client: httpx.AsyncClient, app: FastAPI, line: str, words: str
) -> None:
    """An XXA field that is not a number (`1/0` parses as a fraction with no
    denominator) is a 422 naming its line and columns, on import and on the compute
    endpoint, and stores nothing."""
    raw = ((DATA / "announced_byes.trf").read_text() + line + "\n").encode()
    before = await stored_tournaments(app)
    for response in (
        await _post(client, raw),
        await client.post(
            "/v1/compute/pairings", content=raw, headers={"content-type": "text/plain"}
        ),
    ):
        assert response.status_code == 422, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        assert words in response.json()["detail"]
    assert await stored_tournaments(app) == before


async def test_pairing_records_the_tournament_does_not_apply_are_named(
    client: httpx.AsyncClient,
) -> None:
    for name, words in (
        ("trf26_prohibited_260.trf", "prohibited pairings (XXP, record 260)"),
        ("trf26_acceleration_250.trf", "accelerations (XXA, record 250)"),
    ):
        body = await _import(client, name)
        assert any(words in warning for warning in body["warnings"]), body["warnings"]


async def test_compute_pairings_apply_the_prohibited_pairings_260(
    client: httpx.AsyncClient,
) -> None:
    raw = (DATA / "trf26_prohibited_260.trf").read_bytes()
    response = await client.post(
        "/v1/compute/pairings", content=raw, headers={"content-type": "text/plain"}
    )
    assert response.status_code == 200, response.text
    pairs = {frozenset((p["white"], p["black"])) for p in response.json()["pairings"]}
    assert frozenset({1, 2}) not in pairs and len(pairs) == 3
