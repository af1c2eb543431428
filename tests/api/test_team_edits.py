"""Team edits (docs/teams.md#team-edits): `PATCH /teams/{team}` renames a team, changes
its board order and takes players off its list until it is first paired; after that
only a new name and reserves at the end of the list (C.07 Art. 11 board order)."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from service.db.events import events_since
from tests.api.team_events import TeamEvent, create_team_event


def _url(event: TeamEvent, team: int) -> str:
    return f"/v1/tournaments/{event.id}/teams/{team}"


async def test_before_the_start_the_list_is_free(app: FastAPI, client: httpx.AsyncClient) -> None:
    """Two boards; team 1 holds players 1, 2, 3. New order 3, 1 (2 leaves, its row
    deleted), one reserve added (id 7, after the six registered), renamed. At the start
    team 1's players are numbered in the new order: 3 -> 1, 1 -> 2, 7 -> 3."""
    event = await create_team_event(client, 2, start=False)
    answer = await client.patch(
        _url(event, 1),
        json={"name": "Rooks", "players": [3, 1], "reserves": [{"name": "Res", "rating": 1500}]},
        headers=event.auth(),
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["id"], body["name"], body["players"]) == (1, "Rooks", [3, 1, 7])
    assert [(p["id"], p["name"], p["token"]) for p in body["added"]] == [(7, "Res", None)]
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    assert [p["id"] for p in players] == [1, 3, 4, 5, 6, 7]
    async with app.state.arbiter.sessions() as session:
        kinds = [(e.type, e.payload) for e in await events_since(session, event.id, 0)]
    assert [kind for kind, _ in kinds[-3:]] == ["player_removed", "player_added", "team_updated"]
    assert kinds[-3][1] == {"id": 2}
    assert (kinds[-2][1]["id"], kinds[-2][1]["name"], kinds[-2][1]["start_number"]) == (
        7,
        "Res",
        None,
    )
    assert kinds[-1][1] == {"team": 1, "name": "Rooks", "players": [3, 1, 7]}
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    listed = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    starts = {p["id"]: p["start_number"] for p in listed}
    assert (starts[3], starts[1], starts[7]) == (1, 2, 3)


async def test_once_paired_only_a_name_and_reserves(client: httpx.AsyncClient) -> None:
    """Round 1 of a two-team round-robin paired: team 2 (4, 5, 6) may not reorder (409
    naming `players`), may add a reserve (id 7, next start number 7, a token shown
    once) and a new name; the list as it stands is accepted unchanged."""
    event = await create_team_event(client, 2)
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    moved = await client.patch(_url(event, 2), json={"players": [5, 4, 6]}, headers=event.auth())
    assert moved.status_code == 409 and moved.json()["field"] == "players"
    dropped = await client.patch(_url(event, 2), json={"players": [4, 5]}, headers=event.auth())
    assert dropped.status_code == 409 and dropped.json()["field"] == "players"
    answer = await client.patch(
        _url(event, 2),
        json={"name": "Bishops", "players": [4, 5, 6], "reserves": [{"name": "Late"}]},
        headers=event.auth(),
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["players"] == [4, 5, 6, 7]
    (added,) = answer.json()["added"]
    assert (added["id"], added["start_number"]) == (7, 7)
    assert added["token"].startswith("ply_")
    me = await client.get(
        f"/v1/tournaments/{event.id}", headers={"Authorization": f"Bearer {added['token']}"}
    )
    assert me.status_code == 200
    teams = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert [(t["id"], t["name"], t["players"]) for t in teams] == [
        (1, "Team 1", [1, 2, 3]),
        (2, "Bishops", [4, 5, 6, 7]),
    ]
    # the reserve is written to the file with team 2 and the export reads back
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    assert any(line.startswith("001    7") for line in text.split("\n"))


async def test_after_the_start_an_unpaired_team_reorders_but_does_not_drop(
    client: httpx.AsyncClient,
) -> None:
    """Started, nothing paired: team 1 may put 2 on board 1 (lineups naming the old
    order are dropped), but leaving 3 out is a withdrawal, not a removal (409)."""
    event = await create_team_event(client, 2)
    lineup = f"/v1/tournaments/{event.id}/rounds/1/lineups/1"
    assert (await client.put(lineup, json={"players": [1, 2]}, headers=event.auth())).is_success
    answer = await client.patch(_url(event, 1), json={"players": [2, 1, 3]}, headers=event.auth())
    assert answer.status_code == 200, answer.text
    shown = (await client.get(lineup)).json()
    assert (shown["players"], shown["set"]) == ([2, 1], False)
    gone = await client.patch(_url(event, 1), json={"players": [2, 1]}, headers=event.auth())
    assert gone.status_code == 409 and gone.json()["field"] == "players"
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    boards = paired.json()["matches"][0]["boards"]
    assert {boards[0]["white"], boards[0]["black"]} == {2, 4}


async def test_bad_edits_name_the_field_and_store_nothing(client: httpx.AsyncClient) -> None:
    """Two boards, team 1 = 1, 2, 3; team 2's player 4 has FIDE id 123."""
    event = await create_team_event(client, 1, start=False)
    other = await client.post(
        f"/v1/tournaments/{event.id}/teams",
        json={"name": "B", "players": [{"name": "X", "fide_id": "123"}, {"name": "Y"}]},
        headers=event.auth(),
    )
    assert other.status_code == 201, other.text
    bad: list[tuple[int, dict[str, object], int, str]] = [
        (1, {"players": [1, 9]}, 422, "players.1"),
        (1, {"players": [1, 1, 2]}, 422, "players.1"),
        (1, {"players": [1]}, 422, "players"),
        (1, {"players": ["1", 2]}, 422, "players.0"),
        (1, {"name": ""}, 422, "name"),
        (1, {"reserves": [{"name": "Z", "fide_id": "123"}]}, 409, "reserves.0.fide_id"),
        (1, {"reserves": [{"name": "Z", "rating": "x"}]}, 422, "reserves.0.rating"),
        (3, {"name": "C"}, 404, "team"),
        (1, {"reserves": [{"name": f"R{k}"} for k in range(38)]}, 422, "reserves"),
    ]
    for team, body, code, field in bad:
        answer = await client.patch(_url(event, team), json=body, headers=event.auth())
        assert answer.status_code == code, (body, answer.text)
        fields = [e["field"] for e in answer.json().get("errors", [])] or [answer.json()["field"]]
        assert field in fields, (body, answer.json())
    captain = await client.patch(_url(event, 1), json={"name": "C"}, headers=event.auth(1))
    assert captain.status_code == 403
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    assert [p["id"] for p in players] == [1, 2, 3, 4, 5]
    teams = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert [(t["name"], t["players"]) for t in teams] == [("Team 1", [1, 2, 3]), ("B", [4, 5])]
