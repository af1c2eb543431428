"""A team tournament on the live feed (docs/teams.md#standings): the standings the feed
carries hold the team ranking and the board prizes beside the players' rows, and a
board confirmed by the two captains moves them."""

from __future__ import annotations

import httpx
import websockets

from tests.api.team_events import create_team_event
from tests.live.follower import Follower


async def test_the_feed_carries_the_team_standings(server: str, http: httpx.AsyncClient) -> None:
    event = await create_team_event(http, 2)
    paired = await http.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    board = Follower()
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        snapshot = await board.receive(ws)
        teams = snapshot["standings"]["teams"]
        assert [(t["team"], t["match_points"]) for t in teams] == [(1, 0.0), (2, 0.0)]
        url = f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/1/result"
        for captain in (2, 1):  # reported by one captain, confirmed by the other
            answer = await http.put(url, json={"result": "0-1"}, headers=event.auth(captain))
            assert answer.status_code == 200, answer.text
        await board.until(ws, snapshot["seq"] + 2)
        assert [e["event"] for e in board.events] == ["result_reported", "result_confirmed"]
        assert board.events[-1]["payload"]["by"] == "captain:1"
        # board 1: team 2's player (Black) won; team 2 leads on game points
        assert [(t["team"], t["game_points"]) for t in board.document["teams"]] == [
            (2, 1.0),
            (1, 0.0),
        ]
        (board_one, _board_two) = board.document["boards"]
        assert board_one["players"][0]["player"] == 4
