"""Absent teams (docs/teams.md#absent-teams): a team announced as not playing a coming
team Swiss round is not paired that round and scores nothing there; the round shows it
as `free`, a team file writes it with no match in the round."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from service.db.events import events_since
from tests.api.team_events import TeamEvent, create_team_event


def _url(event: TeamEvent, rnd: int, team: int) -> str:
    return f"/v1/tournaments/{event.id}/rounds/{rnd}/absences/{team}"


async def test_an_absent_team_is_left_out_of_the_round(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Five teams of two boards; team 5's captain announces it will miss round 1, and
    team 2's absence from round 2 is announced then taken back. Round 1 pairs four
    teams, 1-3 and 4-2 (top half against bottom half), no PAB; team 5 is `free` with
    0 match and game points. The export reads back with the same round and scores."""
    event = await create_team_event(client, 5, system="team-swiss", rounds=3)
    zero = {"type": "zero-point"}
    announced = await client.put(_url(event, 1, 5), json=zero, headers=event.auth(5))
    assert announced.status_code == 200, announced.text
    assert announced.json() == {
        "round": 1,
        "type": "zero-point",
        "match_points": 0.0,
        "game_points": 0.0,
    }
    assert (await client.put(_url(event, 2, 2), json=zero, headers=event.auth())).is_success
    back = await client.delete(_url(event, 2, 2), headers=event.auth(2))
    assert back.status_code == 200
    assert back.json() == {"round": 2, "type": None, "match_points": 0.0, "game_points": 0.0}
    teams = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert [(t["id"], t["absences"]) for t in teams] == [
        (1, []),
        (2, []),
        (3, []),
        (4, []),
        (5, [{"round": 1, "type": "zero-point", "match_points": 0.0, "game_points": 0.0}]),
    ]
    async with app.state.arbiter.sessions() as session:
        logged = [e.payload for e in await events_since(session, event.id, 0)]
    assert logged[-3:] == [
        {"round": 1, "team": 5, "type": "zero-point", "match_points": 0.0, "game_points": 0.0},
        {"round": 2, "team": 2, "type": "zero-point", "match_points": 0.0, "game_points": 0.0},
        {"round": 2, "team": 2, "type": None, "match_points": 0.0, "game_points": 0.0},
    ]
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    body = paired.json()
    assert [(m["home"], m["away"]) for m in body["matches"]] == [(1, 3), (4, 2)]
    assert body["byes"] == [{"team": 5, "type": "free"}]
    for match in body["matches"]:
        for board in match["boards"]:
            url = (
                f"/v1/tournaments/{event.id}/rounds/1/matches/{match['match']}"
                f"/boards/{board['board']}/result"
            )
            answer = await client.put(url, json={"result": "1/2-1/2"}, headers=event.auth())
            assert answer.status_code == 200, answer.text
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    scores = {t["team"]: (t["match_points"], t["game_points"]) for t in standings["teams"]}
    assert scores == {1: (1.0, 1.0), 2: (1.0, 1.0), 3: (1.0, 1.0), 4: (1.0, 1.0), 5: (0.0, 0.0)}
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    copy = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert copy.status_code == 201, copy.text
    again = (await client.get(f"/v1/tournaments/{copy.json()['id']}/rounds/1")).json()
    assert again["byes"] == [{"team": 5, "type": "free"}]
    assert (await client.get(f"/v1/tournaments/{copy.json()['id']}/trf")).text == text
    second = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert second.status_code == 201, second.text
    teams_in_round = {t for m in second.json()["matches"] for t in (m["home"], m["away"])}
    assert teams_in_round | {b["team"] for b in second.json()["byes"]} == {1, 2, 3, 4, 5}


async def test_bad_announcements_name_the_field(client: httpx.AsyncClient) -> None:
    """A team Swiss of three rounds, round 1 paired: round 1 is 409 `round`, round 4
    422 `round_number`, a half-point absence 422 `type`, team 9 404 `team`, another
    team's captain 403; a team round-robin 409 `system`. Nothing is stored."""
    event = await create_team_event(client, 4, system="team-swiss", rounds=3)
    assert (
        await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    ).is_success
    zero = {"type": "zero-point"}
    bad = [
        (_url(event, 1, 2), zero, event.auth(), 409, "round"),
        (_url(event, 4, 2), zero, event.auth(), 422, "round_number"),
        (_url(event, 2, 2), {"type": "half-point"}, event.auth(), 422, "type"),
        (_url(event, 2, 9), zero, event.auth(), 404, "team"),
        (_url(event, 2, 2), zero, event.auth(1), 403, "Authorization"),
    ]
    for url, body, headers, code, field in bad:
        answer = await client.put(url, json=body, headers=headers)
        assert answer.status_code == code, (url, body, answer.text)
        fields = [e["field"] for e in answer.json().get("errors", [])] or [answer.json()["field"]]
        assert field in fields, (url, answer.json())
    teams = (await client.get(f"/v1/tournaments/{event.id}/teams")).json()
    assert all(t["absences"] == [] for t in teams)
    robin = await create_team_event(client, 3)
    refused = await client.put(_url(robin, 1, 1), json=zero, headers=robin.auth())
    assert refused.status_code == 409 and refused.json()["field"] == "system"
