"""FLAMPARK through the API: creation options, closing the list pairs every round,
player cards, the printable page and the what-if schedule (docs/rules/flampark.md)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from service.engine.pairing.flampark import flampark_schedule
from tests.api.conftest import create_round_robin

FK6_KINDS = ["basic"] * 5 + ["x2"] * 3 + ["x4", "x8"]


def field(count: int) -> list[tuple[str, int]]:
    return [(f"Player {n:03d}", 2400 - 10 * n) for n in range(1, count + 1)]


async def test_closing_the_list_pairs_every_round(client: httpx.AsyncClient) -> None:
    schedule = ["2026-05-01T10:00:00Z", "2026-05-01T10:40:00Z", "2026-05-01T11:20:00Z"]
    event = await create_round_robin(
        client, field(12), system="flampark", rounds=3, schedule=schedule
    )
    expected = flampark_schedule(12, 3)
    for rnd in expected.rounds:
        body = (await client.get(f"/v1/tournaments/{event.id}/rounds/{rnd.number}")).json()
        assert [(g["table"], g["white"], g["black"]) for g in body["games"]] == [
            (g.table, g.white, g.black) for g in rnd.games
        ]
    card = (await client.get(f"/v1/tournaments/{event.id}/players/8/card")).json()
    assert [line["round"] for line in card["rounds"]] == [1, 2, 3]
    first = card["rounds"][0]
    assert first["opponent"]["start_number"] == 7  # R_8(1) = 7 (Formuła FLAMPARK)
    assert first["table"] == 4  # an even player sits at table N/2 ("Stoliki")
    assert first["start_time"].startswith("2026-05-01T10:00:00")
    assert first["opponent"]["name"] == "Player 007"
    colours = [line["colour"] for line in card["rounds"]]
    assert colours in (["white", "black", "white"], ["black", "white", "black"])


async def test_fk6_kinds_and_order(client: httpx.AsyncClient) -> None:
    order = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    event = await create_round_robin(
        client,
        field(56),
        system="flampark",
        rounds=10,
        flampark={"kinds": FK6_KINDS, "round_order": order},
    )
    first_round = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
    assert len(first_round["byes"]) == 8  # the x8 round, played first
    assert all(b["player"] > 48 for b in first_round["byes"])
    card = (await client.get(f"/v1/tournaments/{event.id}/players/1/card")).json()
    met = sorted(line["opponent"]["start_number"] for line in card["rounds"])
    assert met == list(range(2, 12))


async def test_too_few_players_names_the_numbers(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, field(9), system="flampark", rounds=5, start=False)
    response = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert response.status_code == 422
    problem = response.json()
    assert problem["field"] == "players"
    assert "10" in problem["detail"] and "9" in problem["detail"]
    state = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert state["status"] == "registration"


async def test_fewer_than_three_times_rounds_warns(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/tournaments", json={"name": "Small", "system": "flampark", "rounds": 5}
    )
    body = created.json()
    headers = {"Authorization": f"Bearer {body['organizer_token']}"}
    for name, rating in field(12):
        await client.post(
            f"/v1/tournaments/{body['id']}/players",
            json={"name": name, "rating": rating},
            headers=headers,
        )
    started = await client.post(f"/v1/tournaments/{body['id']}/start", headers=headers)
    assert started.status_code == 200
    assert started.json()["warnings"]


@pytest.mark.parametrize(
    ("settings", "field_name"),
    [
        ({"rounds": None}, "rounds"),
        ({"rounds": 3, "flampark": {"kinds": ["basic", "x2"]}}, "flampark.kinds"),
        ({"rounds": 3, "flampark": {"kinds": ["basic", "x3", "x2"]}}, "flampark.kinds.1"),
        ({"rounds": 3, "flampark": {"round_order": [1, 1, 2]}}, "flampark.round_order"),
        ({"rounds": 3, "flampark": {"variant": "pairs"}}, "flampark.variant"),
    ],
)
async def test_bad_flampark_options(
    client: httpx.AsyncClient, settings: dict[str, Any], field_name: str
) -> None:
    body = {"name": "Bad", "system": "flampark", **settings}
    response = await client.post("/v1/tournaments", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field_name


async def test_cards_page_is_printable_html(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, field(8), system="flampark", rounds=3)
    page = await client.get(f"/v1/tournaments/{event.id}/cards")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert page.text.count("<section class=card>") == 8
    assert "105mm" in page.text and "148mm" in page.text  # A6 blocks
    missing = await client.get(f"/v1/tournaments/{event.id}/players/99/card")
    assert missing.status_code == 404


async def test_cards_work_for_any_system(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, field(3))
    card = (await client.get(f"/v1/tournaments/{event.id}/players/1/card")).json()
    assert len(card["rounds"]) == 3
    byes = [line for line in card["rounds"] if line["opponent"] is None]
    assert len(byes) == 1 and byes[0]["bye"] == "zero-point"


async def test_what_if_schedule(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/compute/flampark/schedule",
        json={"player_count": 56, "rounds": 10, "kinds": FK6_KINDS},
    )
    assert response.status_code == 200
    body = response.json()
    assert [r["kind"] for r in body["rounds"]] == FK6_KINDS
    assert len(body["rounds"][9]["byes"]) == 8
    by_list = await client.post(
        "/v1/compute/flampark/schedule",
        json={"players": [{"rating": 2000 - n} for n in range(20)], "rounds": 5},
    )
    assert by_list.status_code == 200
    assert by_list.json()["player_count"] == 20


@pytest.mark.parametrize(
    ("body", "field_name"),
    [
        ({"rounds": 5}, "players"),
        ({"player_count": 20, "players": [{"rating": 1}] * 20, "rounds": 5}, "players"),
        ({"player_count": 9, "rounds": 5}, "players"),
        ({"player_count": 40, "rounds": 5, "kinds": ["x8"] * 5}, "flampark"),
    ],
)
async def test_what_if_errors(
    client: httpx.AsyncClient, body: dict[str, Any], field_name: str
) -> None:
    response = await client.post("/v1/compute/flampark/schedule", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field_name


async def test_pairing_quality_figures(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, field(20), system="flampark", rounds=5)
    stats = (await client.get(f"/v1/tournaments/{event.id}/stats")).json()
    assert stats["games"] == 50
    assert stats["largest_start_gap"] is not None and stats["largest_start_gap"] >= 1
    # ratings fall by 10 a place, so every gap is under 200
    assert stats["share_gap_under_200"] == 1.0
    assert stats["share_gap_over_400"] == 0.0
    what_if = await client.post(
        "/v1/compute/flampark/schedule",
        json={"players": [{"rating": 2400 - 10 * n} for n in range(1, 21)], "rounds": 5},
    )
    assert what_if.json()["stats"] == stats
