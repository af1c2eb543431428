"""A team tournament on the live feed (docs/teams.md#standings): the standings the feed
carries hold the team ranking and the board prizes beside the players' rows, and a
board confirmed by the two captains moves them."""

from __future__ import annotations

import httpx
import websockets

from tests.api.team_events import create_team_event
from tests.live.follower import Follower
from tests.live.test_asyncapi import _validator_for


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


async def test_a_team_row_moves_as_a_delta_once_both_captains_confirm(
    server: str, http: httpx.AsyncClient
) -> None:
    """Four teams, round 1 of the Berger table (1-4, 2-3). Team 4's player wins board 1
    of match 1 (Black) and team 1's wins board 2 (Black again: the home team has White on
    the odd boards), a drawn match 1-1: reported by one captain, nothing moves; the
    other's confirmation moves the team rows, sent as
    patches keyed by `team`, in both delta forms, and the followers' tables equal the
    REST standings."""
    event = await create_team_event(http, 4)
    paired = await http.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    (match,) = [m for m in paired.json()["matches"] if m["match"] == 1]
    assert (match["home"], match["away"]) == (1, 4)
    base = f"ws://{server}/v1/tournaments/{event.id}/live"
    full, compact = Follower(), Follower()
    async with (
        websockets.connect(base) as ws_full,
        websockets.connect(f"{base}?delta=compact") as ws_compact,
    ):
        snapshot = await full.receive(ws_full)
        await compact.receive(ws_compact)
        assert [t["team"] for t in snapshot["standings"]["teams"]] == [1, 2, 3, 4]
        assert {t["game_points"] for t in snapshot["standings"]["teams"]} == {0.0}
        url = f"/v1/tournaments/{event.id}/rounds/1/matches/1/boards/{{}}/result"
        for board in (1, 2):
            for captain in (1, 4):
                answer = await http.put(
                    url.format(board), json={"result": "0-1"}, headers=event.auth(captain)
                )
                assert answer.status_code == 200, answer.text
        last = snapshot["seq"] + 4
        await full.until(ws_full, last)
        await compact.until(ws_compact, last)
    moving = [e for e in full.events if "teams" in e]
    assert [e["event"] for e in moving] == ["result_confirmed", "result_confirmed"]
    reported = [e for e in full.events if e["event"] == "result_reported"]
    assert len(reported) == 2 and all("standings" not in e for e in reported)
    first = moving[0]
    assert "teams" not in first["standings"]  # the team rows travel as their own delta
    # after board 1 (0-1): team 4 leads with a game point, team 1 still has none
    first_patch = first["teams"]["rows"][0]
    assert (first_patch["team"], first_patch["game_points"]) == (4, 1.0)
    assert "match_points" not in first_patch  # the match is not over: no match points yet
    assert first["teams"]["positions"][0] == 4
    # the other three slid to a shared 2nd place: in the full form a patch each
    assert first["teams"]["rows"][1:] == [{"team": t, "rank": 2} for t in (1, 2, 3)]
    (compact_first, compact_second) = [e["teams"] for e in compact.events if "teams" in e]
    # compact: only team 4's row is patched, the ranks come as one list
    assert [p["team"] for p in compact_first["rows"]] == [4] == compact_first["changed"]
    assert compact_first["ranks"] == [1, 2, 2, 2]
    # board 2 (0-1): the match ends 1-1, a draw's match point each; team 1 gains a
    # game point, keeps 2nd; teams 2 and 3 slide to a shared 3rd
    second = moving[1]["teams"]
    patched = {patch["team"]: patch for patch in second["rows"]}
    assert (patched[4]["match_points"], "game_points" in patched[4]) == (1.0, False)
    assert (patched[1]["match_points"], patched[1]["game_points"]) == (1.0, 1.0)
    assert "rank" not in patched[1]
    assert (patched[2], patched[3]) == ({"team": 2, "rank": 3}, {"team": 3, "rank": 3})
    assert [p["team"] for p in compact_second["rows"]] == [4, 1] == compact_second["changed"]
    assert compact_second["ranks"] == [1, 2, 3, 3]
    rest = (await http.get(f"/v1/tournaments/{event.id}/standings")).json()
    assert full.document["teams"] == rest["teams"]
    assert compact.document["teams"] == rest["teams"]
    # the feed's rows are GET's, with each rated player's rating change (docs/live.md)
    fed = [{k: v for k, v in r.items() if k != "rating_change"} for r in full.document["rows"]]
    assert fed == rest["rows"]
    assert all("rating_change" in r for r in full.document["rows"])
    for message in [snapshot, *full.events, *compact.events]:  # as the AsyncAPI publishes
        _validator_for(message["type"]).validate(message)
