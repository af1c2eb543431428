"""The FIDE rating report as TRF-26: `GET /v1/tournaments/{id}/ratings.trf`
(docs/rules/trf.md#rating-report) and the settings it reads (city, federation,
officials)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from service.engine.trf import parse_trf
from tests.api.conftest import Event

PLAYERS: list[dict[str, Any]] = [
    {"name": "Ann", "rating": 2450, "fide_id": "1001", "federation": "GER"},
    {"name": "Bob", "rating": 2300},
    {"name": "Cid", "rating": 2200},
    {"name": "Dan"},
]
REPORT_SETTINGS: dict[str, Any] = {
    "city": "Berlin",
    "federation": "GER",
    "officials": {"chief_arbiter": "Weber, Anna", "deputy_arbiters": ["Kim, Jo", "Roy, Li"]},
    "time_control": {"base_minutes": 90, "increment_seconds": 30},
    "schedule": [
        "2026-05-01T10:00:00+02:00",
        "2026-05-02T10:00:00+02:00",
        "2026-05-03T23:30:00-05:00",
    ],
}


async def _event(
    client: httpx.AsyncClient,
    settings: dict[str, Any],
    rounds: int = 3,
    players: list[dict[str, Any]] = PLAYERS,
) -> Event:
    """A four-player round robin with `rounds` rounds' results recorded (White wins)."""
    body = {"name": "Rated", "system": "round-robin", **settings}
    created = await client.post("/v1/tournaments", json=body)
    assert created.status_code == 201, created.text
    event = Event(created.json()["id"], created.json()["organizer_token"], {})
    for player in players:
        response = await client.post(
            f"/v1/tournaments/{event.id}/players", json=player, headers=event.auth()
        )
        assert response.status_code == 201, response.text
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    for n in range(1, rounds + 1):
        games = (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
        for game in games:
            response = await client.put(
                f"/v1/tournaments/{event.id}/rounds/{n}/games/{game['table']}/result",
                json={"result": "1-0"},
                headers=event.auth(),
            )
            assert response.status_code == 200, response.text
    return event


async def test_the_report_carries_the_rating_officers_records(client: httpx.AsyncClient) -> None:
    event = await _event(client, REPORT_SETTINGS)
    response = await client.get(f"/v1/tournaments/{event.id}/ratings.trf", headers=event.auth())
    assert response.status_code == 200, response.text
    lines = response.text.splitlines()
    records = {line[:3]: line[4:] for line in lines}
    assert records["012"] == "Rated"
    assert records["022"] == "Berlin"
    assert records["032"] == "GER"
    # the dates as the schedule writes them (the third round's local date, not UTC's)
    assert records["042"] == "2026/05/01"
    assert records["052"] == "2026/05/03"
    assert records["062"] == "4"
    assert records["072"] == "3"  # Dan is unrated
    assert records["092"] == "FIDE_ROUNDROBIN"
    assert records["102"] == "Weber, Anna"
    assert [line[4:] for line in lines if line.startswith("112")] == ["Kim, Jo", "Roy, Li"]
    assert records["122"] == "90'+30\""
    assert records["222"] == "5400+30"
    dates = next(line for line in lines if line.startswith("132"))
    # TRF-26: round 1's date at positions 92-99, round 2's at 102-109, ...
    assert dates[91:99] == "26/05/01"
    assert dates[101:109] == "26/05/02"
    assert dates[111:119] == "26/05/03"
    assert dates[3:91].strip() == ""
    # the file reads back: six games, every player with three results, points kept
    doc = parse_trf(response.text)
    assert sum(len(r.games) for r in doc.tournament.rounds) == 6
    assert doc.tournament.total_rounds == 3


async def test_games_between_unrated_players_are_marked(client: httpx.AsyncClient) -> None:
    # Cid and Dan unrated: their game is rated for neither, listed in a comment record
    players = [*PLAYERS[:2], {"name": "Cid"}, {"name": "Dan"}]
    event = await _event(client, REPORT_SETTINGS, players=players)
    response = await client.get(f"/v1/tournaments/{event.id}/ratings.trf", headers=event.auth())
    assert response.status_code == 200, response.text
    comments = [line for line in response.text.splitlines() if line.startswith("###")]
    games = [
        (n, g["white"], g["black"])
        for n in (1, 2, 3)
        for g in (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
        if {g["white"], g["black"]} == {3, 4}
    ]
    assert comments == [f"### not rated (both unrated): round {r}, {w} - {b}" for r, w, b in games]
    assert "072 2" in response.text.splitlines()
    # a reader who may not see personal data gets the 001 records without FIDE ids
    public = await client.get(f"/v1/tournaments/{event.id}/ratings.trf")
    assert public.status_code == 200, public.text
    assert "1001" in response.text and "1001" not in public.text


async def test_missing_facts_are_listed_not_guessed(client: httpx.AsyncClient) -> None:
    event = await _event(client, {}, rounds=2)
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/3")).json()["games"]
    assert len(games) == 2  # round 3 paired, no result yet
    response = await client.get(f"/v1/tournaments/{event.id}/ratings.trf", headers=event.auth())
    assert response.status_code == 409, response.text
    problem = response.json()
    assert problem["missing"] == [
        {"field": "city", "record": "022", "rounds": []},
        {"field": "federation", "record": "032", "rounds": []},
        {"field": "officials.chief_arbiter", "record": "102", "rounds": []},
        # a round-robin pairs every round at its start: round 3 has no result to date it
        {"field": "schedule", "record": "132", "rounds": [3]},
        {"field": "results", "record": "001", "rounds": [3]},
    ]
    assert problem["field"] == "city"
    assert "city (022)" in problem["detail"]


async def test_patched_settings_complete_the_report(client: httpx.AsyncClient) -> None:
    event = await _event(client, {})
    patch = {key: REPORT_SETTINGS[key] for key in ("city", "federation", "officials")}
    changed = await client.patch(f"/v1/tournaments/{event.id}", json=patch, headers=event.auth())
    assert changed.status_code == 200, changed.text
    shown = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert shown["officials"]["chief_arbiter"] == "Weber, Anna"
    assert (shown["city"], shown["federation"]) == ("Berlin", "GER")
    response = await client.get(f"/v1/tournaments/{event.id}/ratings.trf", headers=event.auth())
    assert response.status_code == 200, response.text
    records = {line[:3]: line[4:] for line in response.text.splitlines()}
    # no schedule: each round dated the day it was paired (UTC), here today
    today = datetime.now(UTC).date()
    assert records["042"] in {d.strftime("%Y/%m/%d") for d in (today, today - timedelta(1))}
    assert records["052"] >= records["042"]
    assert "122" not in records and "222" not in records  # no time control set


async def test_bad_settings_are_refused_naming_the_field(client: httpx.AsyncClient) -> None:
    for body, field in (
        ({"federation": "ger"}, "federation"),
        ({"officials": {"chief_arbiter": ""}}, "chief_arbiter"),
        ({"officials": {"deputy_arbiters": ["x"] * 21}}, "deputy_arbiters"),
    ):
        response = await client.post(
            "/v1/tournaments", json={"name": "T", "system": "swiss-dutch", **body}
        )
        assert response.status_code == 422, response.text
        assert field in response.text


def _player(number: int, name: str, rating: str, points: str, cells: str) -> str:
    """A 001 record in TRF-26's columns."""
    head = f"001 {number:4d}      {name:<33} {rating:>4} GER {'':>11} {'':<10}"
    return f"{head} {points:>4} {number:>4}{cells}"


IMPORTED = "\n".join(
    [
        "012 Open",
        "022 Leipzig",
        "032 GER",
        "102 Stern, Eva",
        "112 Olm, Kai",
        "132" + " " * 88 + "24/03/09  24/03/10",
        "XXR 2",
        _player(1, "Aaa", "2100", "1.0", "     2 w 1     3 b 0"),
        _player(2, "Bbb", "2000", "1.0", "     1 b 0  0000 - U"),
        _player(3, "Ccc", "", "1.0", "  0000 - U     1 w 1"),
    ]
)


async def test_an_imported_files_records_fill_the_report(client: httpx.AsyncClient) -> None:
    imported = await client.post("/v1/tournaments/import", content=IMPORTED)
    assert imported.status_code == 201, imported.text
    body = imported.json()
    auth = {"Authorization": f"Bearer {body['organizer_token']}"}
    response = await client.get(f"/v1/tournaments/{body['id']}/ratings.trf", headers=auth)
    assert response.status_code == 200, response.text
    records = {line[:3]: line[4:] for line in response.text.splitlines()}
    assert (records["022"], records["032"], records["102"], records["112"]) == (
        "Leipzig",
        "GER",
        "Stern, Eva",
        "Olm, Kai",
    )
    assert (records["042"], records["052"]) == ("2024/03/09", "2024/03/10")
    assert (records["062"], records["072"]) == ("3", "2")
    assert re.search(r"^132 {88}24/03/09  24/03/10$", response.text, re.MULTILINE)
    # Ccc (unrated) beat Aaa (rated): rated for Ccc's initial rating, so not listed
    assert "###" not in response.text
