"""A Berger round-robin from creation to standings, through the HTTP API
(docs/rules/round-robin.md)."""

from __future__ import annotations

import httpx

from service.engine.pairing.roundrobin import round_robin_rounds
from tests.api.conftest import create_round_robin

FIVE = [("Eve", 1700), ("Ann", 2100), ("Cid", 1900), ("Bob", 2000), ("Dan", 1900)]


async def test_start_numbers_by_rating_then_name(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIVE)
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    assert [(p["start_number"], p["name"]) for p in players] == [
        (1, "Ann"),
        (2, "Bob"),
        (3, "Cid"),
        (4, "Dan"),
        (5, "Eve"),
    ]
    tournament = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert tournament["status"] == "running"
    assert tournament["rounds"] == 5  # five players: a dummy makes six, five rounds
    assert tournament["tiebreaks"][:3] == ["SB", "DE", "WIN"]
    assert "organizer_token" not in tournament


async def test_rounds_follow_the_berger_table(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIVE)
    expected = round_robin_rounds(5)
    for rnd in expected:
        body = (await client.get(f"/v1/tournaments/{event.id}/rounds/{rnd.number}")).json()
        assert body["round"] == rnd.number
        assert [(g["table"], g["white"], g["black"]) for g in body["games"]] == [
            (g.table, g.white, g.black) for g in rnd.games
        ]
        assert [b["player"] for b in body["byes"]] == [b.player for b in rnd.byes]
        assert all(g["status"] == "pending" and g["result"] is None for g in body["games"])


async def test_double_round_robin_has_two_cycles(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIVE[:4], system="double-round-robin")
    tournament = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert tournament["rounds"] == 6
    seen: dict[frozenset[int], list[int]] = {}
    for n in range(1, 7):
        for game in (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]:
            seen.setdefault(frozenset((game["white"], game["black"])), []).append(game["white"])
    assert len(seen) == 6
    assert all(len(whites) == 2 and whites[0] != whites[1] for whites in seen.values())


async def test_play_through_and_standings(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIVE[:4])
    # every game: the lower start number wins, except a draw at table 2 of round 3
    for n in range(1, 4):
        games = (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
        for game in games:
            result = "1-0" if game["white"] < game["black"] else "0-1"
            if (n, game["table"]) == (3, 2):
                result = "1/2-1/2"
            response = await client.put(
                f"/v1/tournaments/{event.id}/rounds/{n}/games/{game['table']}/result",
                json={"result": result},
                headers=event.auth(),
            )
            assert response.status_code == 200, response.text
            assert response.json()["result"] == result
            assert response.json()["status"] == "confirmed"
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    assert standings["round"] == 3
    points = {row["start_number"]: row["points"] for row in standings["rows"]}
    assert sum(points.values()) == 6  # six games, one point each
    assert [row["rank"] for row in standings["rows"]] == sorted(
        row["rank"] for row in standings["rows"]
    )
    assert set(standings["rows"][0]["tiebreaks"]) >= {"SB", "DE", "WIN"}
    tournament = (await client.get(f"/v1/tournaments/{event.id}")).json()
    assert tournament["status"] == "finished"


async def test_football_points(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIVE[:2], points={"win": 3, "draw": 1, "loss": 0})
    response = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
        json={"result": "1-0"},
        headers=event.auth(),
    )
    assert response.status_code == 200
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    assert [(r["start_number"], r["points"]) for r in rows] == [(1, 3.0), (2, 0.0)]


async def test_shared_rank_when_everything_ties(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIVE[:2])
    await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
        json={"result": "1/2-1/2"},
        headers=event.auth(),
    )
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    assert [r["rank"] for r in rows] == [1, 1]


async def test_players_can_be_changed_and_removed_while_open(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIVE[:3], start=False)
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    first = players[0]["id"]
    patched = await client.patch(
        f"/v1/tournaments/{event.id}/players/{first}",
        json={"rating": 2500, "federation": "POL"},
        headers=event.auth(),
    )
    assert patched.status_code == 200
    assert (patched.json()["rating"], patched.json()["federation"]) == (2500, "POL")
    removed = await client.delete(
        f"/v1/tournaments/{event.id}/players/{players[1]['id']}", headers=event.auth()
    )
    assert removed.status_code == 204
    remaining = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    assert [p["id"] for p in remaining] == [first, players[2]["id"]]
