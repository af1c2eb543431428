"""One way to name a player (docs/api.md#players): every /players/{number}
path takes the player's number in the tournament, given at registration and the same
before and after the start; rounds and standings use start numbers, shown alongside."""

from __future__ import annotations

import httpx

from tests.api.conftest import create_round_robin

# registered weakest first: start numbers (by rating) run the other way
ENTRIES = [("Dan", 1700), ("Cid", 1800), ("Bob", 1900), ("Ann", 2000)]


async def test_the_number_given_at_registration_names_the_player_on_every_path(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, ENTRIES, start=False)
    players = f"/v1/tournaments/{event.id}/players"
    before = {p["name"]: p for p in (await client.get(players)).json()}
    assert [before[name]["id"] for name, _ in ENTRIES] == [1, 2, 3, 4]
    assert all(p["start_number"] is None for p in before.values())
    card = await client.get(f"{players}/1/card")
    assert card.status_code == 409 and card.json()["field"] == "number"

    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    after = {p["name"]: p for p in (await client.get(players)).json()}
    assert {name: p["id"] for name, p in after.items()} == {
        name: p["id"] for name, p in before.items()
    }
    assert after["Dan"]["start_number"] == 4 and after["Ann"]["start_number"] == 1

    dan = after["Dan"]["id"]
    games = (await client.get(f"{players}/{dan}/games")).json()
    assert (games["number"], games["start_number"], games["name"]) == (dan, 4, "Dan")
    card = (await client.get(f"{players}/{dan}/card")).json()
    assert card["name"] == "Dan"

    withdrawn = await client.patch(
        f"{players}/{dan}", json={"withdrawn": True}, headers=event.auth()
    )
    assert withdrawn.status_code == 200, withdrawn.text
    assert (withdrawn.json()["name"], withdrawn.json()["withdrawn"]) == ("Dan", True)
    assert (await client.get(f"{players}/9/games")).status_code == 404


async def test_a_removed_players_number_is_not_given_again(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, ENTRIES[:3], start=False)
    players = f"/v1/tournaments/{event.id}/players"
    removed = await client.delete(f"{players}/3", headers=event.auth())
    assert removed.status_code == 204
    again = await client.post(players, json={"name": "Eve", "rating": 1500}, headers=event.auth())
    assert again.status_code == 201, again.text
    assert again.json()["id"] == 4
    assert sorted(p["id"] for p in (await client.get(players)).json()) == [1, 2, 4]


async def test_numbers_are_per_tournament(client: httpx.AsyncClient) -> None:
    first = await create_round_robin(client, ENTRIES[:2], start=False)
    second = await create_round_robin(client, ENTRIES[2:], start=False)
    for event in (first, second):
        listed = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
        assert [p["id"] for p in listed] == [1, 2]
    # the organizer of one tournament cannot reach the other's player 1
    foreign = await client.patch(
        f"/v1/tournaments/{second.id}/players/1", json={"rating": 1}, headers=first.auth()
    )
    assert foreign.status_code in (401, 403)
