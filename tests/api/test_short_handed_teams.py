"""A team short of players in a live stored event (docs/teams.md#lineups): its
captain's lineup names fewer players than boards, they sit on the first boards and the
last boards are left empty, each won by default by the other team's player there (a
forfeit win is a point: C.07 Art. 11; a full-point bye in the player's round cell,
`0000 - F`, as the export writes it)."""

from __future__ import annotations

import httpx

from tests.api.team_events import create_team_event


async def test_a_short_lineup_loses_its_empty_board_by_default(
    client: httpx.AsyncClient,
) -> None:
    """Four boards; team 1 (start numbers 1-4) fields 1, 2, 3, team 2 (5-8) its first
    four. Team 1 is first-named, White on boards 1 and 3; board 4 (team 2 White) is
    empty on team 1's side: 8 wins it by default, `+-`. Boards 1-3 drawn: 1.5 to 2.5,
    team 2 wins the match."""
    event = await create_team_event(client, 2, team={"boards": 4}, size=4)
    lineup = f"/v1/tournaments/{event.id}/rounds/1/lineups/1"
    short = await client.put(lineup, json={"players": [1, 2, 3]}, headers=event.auth(1))
    assert short.status_code == 200, short.text
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    (match,) = paired.json()["matches"]
    assert (match["home"], match["away"]) == (1, 2)
    assert [(b["board"], b["white"], b["black"], b["result"]) for b in match["boards"]] == [
        (1, 1, 5, None),
        (2, 6, 2, None),
        (3, 3, 7, None),
        (4, 8, 0, "+-"),
    ]
    for board in (1, 2, 3):
        url = f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/{board}/result"
        answer = await client.put(url, json={"result": "1/2-1/2"}, headers=event.auth())
        assert answer.status_code == 200, answer.text
    empty = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/4/result",
        json={"result": "1-0"},
        headers=event.auth(),
    )
    assert empty.status_code == 404 and empty.json()["field"] == "board"
    rnd = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
    assert rnd["matches"][0]["game_points"] == [1.5, 2.5]
    assert rnd["matches"][0]["match_points"] == [0.0, 2.0]
    standings = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    lines = [(t["team"], t["match_points"], t["game_points"]) for t in standings["teams"]]
    assert lines == [(2, 2.0, 2.5), (1, 0.0, 1.5)]
    # 8's round cell is a full-point bye, which the team reader takes beside the match
    # as the board won by default
    text = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    (record,) = (line for line in text.split("\n") if line.startswith("001    8"))
    assert record[91:99] == "0000 - F"
    copy = await client.post(
        "/v1/tournaments/import", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert copy.status_code == 201, copy.text
    again = (await client.get(f"/v1/tournaments/{copy.json()['id']}/standings")).json()
    assert [(t["team"], t["match_points"], t["game_points"]) for t in again["teams"]] == lines
    again_round = (await client.get(f"/v1/tournaments/{copy.json()['id']}/rounds/1")).json()
    assert again_round["matches"][0]["boards"][3]["white"] == 8
    assert (await client.get(f"/v1/tournaments/{copy.json()['id']}/trf")).text == text


async def test_a_team_without_a_lineup_still_needs_a_player_per_board(
    client: httpx.AsyncClient,
) -> None:
    """Only a lineup the captain (or organizer) names may be short: a team whose players
    left fall short, with no lineup, stops the pairing (409 naming `lineups`)."""
    event = await create_team_event(client, 2, team={"boards": 4}, size=4)
    gone = await client.patch(
        f"/v1/tournaments/{event.id}/players/4", json={"withdrawn": True}, headers=event.auth()
    )
    assert gone.status_code == 200, gone.text
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 409 and paired.json()["field"] == "lineups"
    lineup = f"/v1/tournaments/{event.id}/rounds/1/lineups/1"
    short = await client.put(lineup, json={"players": [1, 2, 3]}, headers=event.auth())
    assert short.status_code == 200, short.text
    paired = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
