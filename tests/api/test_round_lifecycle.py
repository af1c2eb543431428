"""A tournament's way from round to round through the API: a Swiss round with no game
(every player had a bye) is complete once paired."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.conftest import Event, create_round_robin
from tests.api.test_swiss_api import confirm_all, pair

PREFIX = "urn:arbiter:problem:"
FOUR = [(f"Player {n}", 2400 - 100 * n) for n in range(1, 5)]


async def tournament(client: httpx.AsyncClient, event: Event) -> dict[str, Any]:
    body: dict[str, Any] = (await client.get(f"/v1/tournaments/{event.id}")).json()
    return body


async def points(client: httpx.AsyncClient, event: Event) -> dict[int, float]:
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    return {row["start_number"]: row["points"] for row in rows}


async def withdraw(client: httpx.AsyncClient, event: Event, start_number: int) -> httpx.Response:
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    player = next(p for p in players if p["start_number"] == start_number)
    return await client.patch(
        f"/v1/tournaments/{event.id}/players/{player['id']}",
        json={"withdrawn": True},
        headers=event.auth(),
    )


def everyone(kind: str, numbers: range) -> list[dict[str, Any]]:
    return [{"player": n, "type": kind} for n in numbers]


async def test_a_last_round_of_byes_only_finishes_the_tournament(
    client: httpx.AsyncClient,
) -> None:
    """Every player asked for a bye in the last round: it has no game to wait for, so
    the tournament is finished as soon as it is paired (it used to stay `running`, and
    the next POST paired a round past the declared number)."""
    event = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=2)
    assert (await pair(client, event)).status_code == 201
    await confirm_all(client, event, 1)
    last = await pair(client, event, byes=everyone("half-point", range(1, 5)))
    assert last.status_code == 201, last.text
    assert last.json()["games"] == [] and len(last.json()["byes"]) == 4
    state = await tournament(client, event)
    assert (state["status"], state["current_round"]) == ("finished", 2)
    again = await pair(client, event)
    assert again.status_code == 409
    assert "finished" in again.json()["detail"]
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/3")).status_code == 404
    listed = (await client.get(f"/v1/tournaments/{event.id}/rounds")).json()["rounds"]
    assert [(r["round"], r["games"], r["byes"], r["complete"]) for r in listed] == [
        (1, 2, 0, True),
        (2, 0, 4, True),
    ]
    round_one = {n: 0.0 for n in range(1, 5)}
    for game in (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]:
        white, black = game["white"], game["black"]
        if game["result"] == "1-0":
            round_one[white] += 1
        else:
            round_one[white] += 0.5
            round_one[black] += 0.5
    assert await points(client, event) == {n: p + 0.5 for n, p in round_one.items()}


async def test_a_round_of_byes_only_is_complete_once_paired(client: httpx.AsyncClient) -> None:
    """A middle round with no game: the tournament stays `running` with that round as
    the current one, and the next round pairs at once."""
    event = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=3)
    first = await pair(client, event, byes=everyone("zero-point", range(1, 5)))
    assert first.status_code == 201, first.text
    assert first.json()["games"] == []
    state = await tournament(client, event)
    assert (state["status"], state["current_round"]) == ("running", 1)
    second = await pair(client, event, byes=[{"player": 1, "type": "half-point"}])
    assert second.status_code == 201, second.text
    assert second.json()["round"] == 2 and len(second.json()["games"]) == 1
    assert {"player": 1, "type": "half-point"} in second.json()["byes"]
    await confirm_all(client, event, 2)
    assert (await tournament(client, event))["current_round"] == 2
    assert (await pair(client, event)).json()["round"] == 3
    await confirm_all(client, event, 3)
    assert (await tournament(client, event))["status"] == "finished"
