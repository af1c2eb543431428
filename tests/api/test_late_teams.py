"""Late teams (docs/teams.md#late-entries): a running team Swiss takes a team while a
round is left to pair (FIDE C.04.A, as an individual Swiss): the next team number, the
next start numbers and tokens at once, no match (zero points) in the rounds already
paired, paired from the next round. A team round-robin refuses it (409 naming
`status`), as an individual round-robin does."""

from __future__ import annotations

import httpx

from tests.api.team_events import TeamEvent, create_team_event, roster


async def _confirm_home_wins(client: httpx.AsyncClient, event: TeamEvent, rnd: int) -> None:
    """Every board of round `rnd` won by the first-named team's player."""
    body = (await client.get(f"/v1/tournaments/{event.id}/rounds/{rnd}")).json()
    for match in body["matches"]:
        for board in match["boards"]:
            result = "1-0" if board["home"] == "w" else "0-1"
            url = (
                f"/v1/tournaments/{event.id}/rounds/{rnd}/matches/{match['match']}"
                f"/boards/{board['board']}/result"
            )
            answer = await client.put(url, json={"result": result}, headers=event.auth())
            assert answer.status_code == 200, answer.text


async def test_a_late_team_is_paired_from_the_next_round(client: httpx.AsyncClient) -> None:
    """Four teams of two boards (players 1-12, three each), round 1: 1-3, 4-2 (top half
    against bottom half), the first-named teams win 2-0. Team 5 enters: players 13, 14,
    15 with start numbers 13, 14, 15 and tokens, and its captain names 14, 15 for round
    2. Round 2 pairs five teams: 4-1 (the two 2-point teams), and in the 0-point group
    2 and 3 both had Black on board 1 and want White (C.04.6 art. 1.7); team 5 has no
    colour history, so 2-5 with the PAB to 3 meets every preference."""
    event = await create_team_event(client, 4, system="team-swiss", rounds=3)
    first = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert first.status_code == 201, first.text
    assert [(m["home"], m["away"]) for m in first.json()["matches"]] == [(1, 3), (4, 2)]
    late = await client.post(
        f"/v1/tournaments/{event.id}/teams",
        json={"name": "Late", "players": roster(5, 3)},
        headers=event.auth(),
    )
    assert late.status_code == 201, late.text
    body = late.json()
    assert (body["id"], body["players"]) == (5, [13, 14, 15])
    assert [p["start_number"] for p in body["roster"]] == [13, 14, 15]
    assert all(p["token"].startswith("ply_") for p in body["roster"])
    captain = {"Authorization": f"Bearer {body['captain_token']}"}
    lineup = await client.put(
        f"/v1/tournaments/{event.id}/rounds/2/lineups/5",
        json={"players": [14, 15]},
        headers=captain,
    )
    assert lineup.status_code == 200, lineup.text
    await _confirm_home_wins(client, event, 1)
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    points = {t["team"]: (t["match_points"], t["game_points"]) for t in standings["teams"]}
    assert points == {
        1: (2.0, 2.0),
        4: (2.0, 2.0),
        2: (0.0, 0.0),
        3: (0.0, 0.0),
        5: (0.0, 0.0),
    }
    second = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert second.status_code == 201, second.text
    body2 = second.json()
    assert [(m["home"], m["away"]) for m in body2["matches"]] == [(4, 1), (2, 5)]
    assert body2["byes"] == [{"team": 3, "type": "pairing-allocated"}]
    boards = [(b["white"], b["black"]) for b in body2["matches"][1]["boards"]]
    assert boards == [(4, 14), (15, 5)]
    # the export writes the late team unpaired in round 1 and reads back alike
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    copy = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert copy.status_code == 201, copy.text
    now = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    again = (await client.get(f"/v1/tournaments/{copy.json()['id']}/standings")).json()
    assert [(t["team"], t["match_points"], t["game_points"]) for t in again["teams"]] == [
        (t["team"], t["match_points"], t["game_points"]) for t in now["teams"]
    ]
    copied = (await client.get(f"/v1/tournaments/{copy.json()['id']}/rounds/1")).json()
    assert {m["home"] for m in copied["matches"]} | {m["away"] for m in copied["matches"]} == {
        1,
        2,
        3,
        4,
    }


async def test_late_teams_are_refused_where_the_rules_say(client: httpx.AsyncClient) -> None:
    """A running team round-robin: 409 naming `status`, nothing stored. A team Swiss with
    every round paired: 409 naming `status`. A late team short of boards: 422 naming
    `players`."""
    robin = await create_team_event(client, 3)
    refused = await client.post(
        f"/v1/tournaments/{robin.id}/teams",
        json={"name": "Late", "players": roster(4, 3)},
        headers=robin.auth(),
    )
    assert refused.status_code == 409 and refused.json()["field"] == "status"
    assert "C.05" in refused.json()["detail"]
    assert len((await client.get(f"/v1/tournaments/{robin.id}/teams")).json()) == 3
    assert len((await client.get(f"/v1/tournaments/{robin.id}/players")).json()) == 9
    swiss = await create_team_event(client, 2, system="team-swiss", rounds=1)
    short = await client.post(
        f"/v1/tournaments/{swiss.id}/teams",
        json={"name": "Small", "players": roster(3, 1)},
        headers=swiss.auth(),
    )
    assert short.status_code == 422 and short.json()["field"] == "players"
    paired = await client.post(f"/v1/tournaments/{swiss.id}/rounds", headers=swiss.auth())
    assert paired.status_code == 201, paired.text
    closed = await client.post(
        f"/v1/tournaments/{swiss.id}/teams",
        json={"name": "Late", "players": roster(3, 3)},
        headers=swiss.auth(),
    )
    assert closed.status_code == 409 and closed.json()["field"] == "status"
    assert len((await client.get(f"/v1/tournaments/{swiss.id}/players")).json()) == 6
