"""`POST /v1/compute/standings` and `/pairings` with a TRF-26 team file: teams ranked as
FIDE's tie-break checker ranks them, the next team round board by board, and bad team
files refused with the line (docs/api.md, docs/rules/teams.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.api.app import create_app
from service.config import Settings
from service.engine.pairing.team_swiss import TeamSwissSettings, generate_team_tournament
from service.engine.teams.generated import generated_team_document
from service.engine.teams.trf import write_team_trf
from tests.db_backends import prepared_database

DATA = Path(__file__).resolve().parents[1] / "data" / "team_tiebreaks"


def _event(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", ["v0006.json", "v0004.json"])
async def test_team_standings_give_the_checkers_ranking(
    client: httpx.AsyncClient, name: str
) -> None:
    """The list from the file's 212 record (the checker's ranking list); ranks and
    values as the checker gives them, beside the players' own rows."""
    data = _event(name)
    response = await client.post("/v1/compute/standings", content=data["trf"])
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["tiebreaks"] == data["ranking_tiebreaks"]
    assert body["team_system"] == data["system"]
    assert {str(t["team"]): t["rank"] for t in body["teams"]} == data["rank"]
    checker = data["tiebreaks"]
    for team in body["teams"]:
        number = str(team["team"])
        assert team["match_points"] == checker["MPTS"][number]
        assert team["game_points"] == checker["GPTS"][number]
        for code in ("MPVGP", "EMGSB", "BC"):
            assert team["tiebreaks"][code] == checker[code][number]
    # the players' rows: every 001 record, by points, with the reading's own codes
    players = body["rows"]
    assert len(players) == data["trf"].count("\n001 ")
    assert body["player_tiebreaks"] == list(players[0]["tiebreaks"])
    points = [p["points"] for p in players]
    assert points == sorted(points, reverse=True)


async def test_team_standings_with_the_query_list(client: httpx.AsyncClient) -> None:
    """v0006, BH:MP then BC: team 2 (8 MP, 13 GP) first with BH:MP 28 and BC 34.5."""
    data = _event("v0006.json")
    response = await client.post("/v1/compute/standings?tiebreaks=BH:MP,BC", content=data["trf"])
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["tiebreaks"] == ["PTS", "BH:MP", "BC"]
    first = body["teams"][0]
    assert first == {
        "rank": 1,
        "team": 2,
        "name": "Baltic Knights",
        "match_points": 8.0,
        "game_points": 13.0,
        "tiebreaks": {"PTS": 8.0, "BH:MP": 28.0, "BC": 34.5},
    }


async def test_individual_standings_have_no_team_fields(client: httpx.AsyncClient) -> None:
    body = {"players": [{"id": "a"}, {"id": "b"}], "games": [
        {"round": 1, "white": "a", "black": "b", "result": "1-0"}]}  # fmt: skip
    response = await client.post("/v1/compute/standings", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["teams"] is None and answer["player_tiebreaks"] is None


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("tiebreaks=XYZ", "tiebreaks", "XYZ"),
        ("tiebreaks=BH:MP&system=round-robin", "tiebreaks", "round-robin"),
    ],
)
async def test_bad_team_codes_are_problems_naming_the_field(
    client: httpx.AsyncClient, query: str, field: str, words: str
) -> None:
    data = _event("v0006.json")
    response = await client.post(f"/v1/compute/standings?{query}", content=data["trf"])
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["field"] == field and words in problem["detail"]


async def test_a_contradicting_team_file_names_its_line(client: httpx.AsyncClient) -> None:
    text = _event("v0006.json")["trf"].replace("310   1 Unicorn", "310   2 Unicorn")
    line = next(n for n, raw in enumerate(text.split("\n"), 1) if raw.startswith("310   2 Unicorn"))
    for url in ("/v1/compute/standings", "/v1/compute/pairings"):
        response = await client.post(url, content=text)
        assert response.status_code == 422, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        assert "team 2 repeated" in response.json()["detail"]
        assert f"line {line}" in response.json()["detail"]


def _played(rounds: int) -> tuple[str, Any]:
    """The first `rounds` rounds of a generated 5-round team Swiss of 9 teams, 4 boards."""
    tournament = generate_team_tournament(9, TeamSwissSettings(rounds=5), seed=11, boards=4)
    done = replace(tournament, rounds=tournament.rounds[:rounds])
    return write_team_trf(generated_team_document(done)), tournament


async def test_team_swiss_pairing_is_the_engines_next_round(client: httpx.AsyncClient) -> None:
    text, tournament = _played(3)
    response = await client.post("/v1/compute/pairings", content=text)
    assert response.status_code == 200, response.text
    body = response.json()
    expected = tournament.rounds[3].pairing
    assert body["round"] == 4 and body["system"] == "team-swiss"
    assert [(m["match"], m["home"], m["away"]) for m in body["matches"]] == [
        (m.table, m.white, m.black) for m in expected.matches
    ]
    assert body["byes"] == [{"team": expected.bye, "type": "pairing-allocated"}]
    match = body["matches"][0]
    home, away = match["home"], match["away"]
    # team t's lineup is players 4t-3..4t; home has White on boards 1 and 3 (352 WBWB)
    assert match["boards"] == [
        {"board": 1, "white": 4 * home - 3, "black": 4 * away - 3},
        {"board": 2, "white": 4 * away - 2, "black": 4 * home - 2},
        {"board": 3, "white": 4 * home - 1, "black": 4 * away - 1},
        {"board": 4, "white": 4 * away, "black": 4 * home},
    ]
    explicit = await client.post("/v1/compute/pairings?system=team-swiss", content=text)
    assert explicit.json() == body


async def test_team_round_robin_pairing_is_the_berger_round(client: httpx.AsyncClient) -> None:
    """Nine teams after two rounds: Berger round 3 for 10 (10 the dummy): 2 is free."""
    text, _ = _played(2)
    response = await client.post("/v1/compute/pairings?system=team-round-robin", content=text)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["system"] == "team-round-robin" and body["round"] == 3
    assert [(m["home"], m["away"]) for m in body["matches"]] == [(3, 1), (4, 9), (5, 8), (6, 7)]
    assert body["byes"] == [{"team": 2, "type": "free"}]


@pytest.mark.parametrize(
    ("url", "body_kind", "words"),
    [
        ("/v1/compute/pairings?system=dutch", "team", "dutch pairs individuals"),
        ("/v1/compute/pairings?system=team-swiss", "individual", "pairs a TRF-26 team file"),
        ("/v1/compute/pairings?system=team-round-robin", "json", "pairs a TRF-26 team file"),
    ],
)
async def test_a_system_for_the_wrong_kind_of_file_names_system(
    client: httpx.AsyncClient, url: str, body_kind: str, words: str
) -> None:
    text, _ = _played(1)
    individual = "012 Open\n001    1      A                                 1800\n" \
        "001    2      B                                 1700\n"  # fmt: skip
    if body_kind == "json":
        response = await client.post(url, json={"players": [{"id": 1}, {"id": 2}]})
    else:
        response = await client.post(url, content=text if body_kind == "team" else individual)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["field"] == "system" and words in problem["detail"]


async def test_a_finished_team_event_has_no_next_round(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/compute/pairings", content=_event("v0004.json")["trf"])
    assert response.status_code == 422, response.text
    assert response.json()["field"] == "round"
    assert "all 7 rounds are paired" in response.json()["detail"]


async def test_a_team_file_past_the_field_bound_is_compute_too_large(tmp_path: Path) -> None:
    """Nine teams of four: 36 players, past a bound of 30 (`compute_max_players`)."""
    database = next(prepared_database("sqlite", tmp_path))
    application = create_app(Settings(database_url=database, compute_max_players=30))
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://arbiter.test") as c:
            response = await c.post("/v1/compute/pairings", content=_played(2)[0])
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["type"] == "urn:arbiter:problem:compute-too-large"
    assert problem["field"] == "players" and "36 players" in problem["detail"]
