"""Lists for integrators: tournament and bridge-event pages, a tournament's rounds, one
player's games. (Other tests share the PostgreSQL database, so page checks look at the
tournaments this test made, wherever they fall.)"""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.conftest import create_round_robin
from tests.api.test_bridge_events import _create as create_bridge_event
from tests.api.test_bridge_events import _one_board_session

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


async def _all_pages(client: httpx.AsyncClient, path: str, **query: Any) -> list[dict[str, Any]]:
    """Every item, following `next_cursor`; checks each page's size and order."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params = {**query, "limit": 2, **({"cursor": cursor} if cursor else {})}
        response = await client.get(path, params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        assert len(page["items"]) <= 2
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            return items
        assert len(page["items"]) == 2


async def test_tournament_pages_list_each_once_newest_first(client: httpx.AsyncClient) -> None:
    made = [(await create_round_robin(client, PLAYERS, start=index == 1)).id for index in range(3)]
    bridge = await create_bridge_event(client, _one_board_session())

    items = await _all_pages(client, "/v1/tournaments")
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if i in made] == list(reversed(made))
    assert bridge.id not in ids
    keys = [(item["created_at"], item["id"]) for item in items]
    assert keys == sorted(keys, reverse=True)
    mine = {item["id"]: item for item in items if item["id"] in made}
    assert mine[made[1]]["status"] == "running" and mine[made[1]]["rounds"] == 3
    assert mine[made[0]]["players"] == 4 and mine[made[0]]["system"] == "round-robin"

    running = await _all_pages(client, "/v1/tournaments", status="running")
    assert made[1] in {i["id"] for i in running}
    assert {i["status"] for i in running} == {"running"}
    assert made[0] not in {i["id"] for i in running}

    swiss = await _all_pages(client, "/v1/tournaments", system="swiss-dutch")
    assert not set(made) & {i["id"] for i in swiss}

    events = await _all_pages(client, "/v1/bridge/events")
    listed = {e["id"]: e for e in events}
    assert listed[bridge.id]["kind"] == "pairs"
    assert not set(made) & set(listed)


async def test_bad_list_queries_name_the_field(client: httpx.AsyncClient) -> None:
    queries: list[tuple[dict[str, str | int], str]] = [
        ({"cursor": "not-a-cursor"}, "cursor"),
        ({"status": "paused"}, "status"),
        ({"system": "swiss-monrad"}, "system.0"),
        ({"limit": 0}, "limit"),
        ({"limit": 201}, "limit"),
    ]
    for query, field in queries:
        response = await client.get("/v1/tournaments", params=query)
        assert response.status_code == 422, query
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["field"] == field, response.json()


async def test_rounds_list_counts_results(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    before = (await client.get(f"/v1/tournaments/{event.id}/rounds")).json()["rounds"]
    assert [r["round"] for r in before] == [1, 2, 3]
    assert all(r["games"] == 2 and r["pending"] == 2 and not r["complete"] for r in before)

    first = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    for game in first:
        reported = await client.put(
            f"/v1/tournaments/{event.id}/rounds/1/games/{game['table']}/result",
            json={"result": "1-0"},
            headers=event.auth(),
        )
        assert reported.status_code == 200
    white = first[0]["white"]
    provisional = await client.put(
        f"/v1/tournaments/{event.id}/rounds/2/games/1/result",
        json={"result": "1/2-1/2"},
        headers=event.auth(
            (await client.get(f"/v1/tournaments/{event.id}/rounds/2")).json()["games"][0]["white"]
        ),
    )
    assert provisional.status_code == 200

    after = (await client.get(f"/v1/tournaments/{event.id}/rounds")).json()["rounds"]
    assert after[0] == {
        "round": 1,
        "games": 2,
        "confirmed": 2,
        "provisional": 0,
        "disputed": 0,
        "pending": 0,
        "byes": 0,
        "complete": True,
    }
    assert after[1]["provisional"] == 1 and after[1]["pending"] == 1
    assert not after[1]["complete"]

    games = (await client.get(f"/v1/tournaments/{event.id}/players/{white}/games")).json()
    assert games["start_number"] == white
    assert [g["round"] for g in games["games"]] == [1, 2, 3]
    opening = games["games"][0]
    assert opening["colour"] == "white" and opening["result"] == "1-0"
    assert opening["opponent"] == first[0]["black"]
    assert len({g["opponent"] for g in games["games"]}) == 3
    assert white not in {g["opponent"] for g in games["games"]}


async def test_unknown_player_and_bridge_event_are_404(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    missing = await client.get(f"/v1/tournaments/{event.id}/players/9/games")
    assert missing.status_code == 404 and missing.json()["field"] == "number"
    bridge = await create_bridge_event(client, _one_board_session())
    assert (await client.get(f"/v1/tournaments/{bridge.id}/rounds")).status_code == 404


async def test_odd_round_robin_rounds_count_byes(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS[:3])
    rounds = (await client.get(f"/v1/tournaments/{event.id}/rounds")).json()["rounds"]
    assert [(r["games"], r["byes"]) for r in rounds] == [(1, 1)] * 3
    player = (await client.get(f"/v1/tournaments/{event.id}/players/1/games")).json()
    assert len(player["games"]) == 2 and len(player["byes"]) == 1
