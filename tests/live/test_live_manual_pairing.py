"""A round paired by hand on the live feed (docs/api.md#manual-pairings): a subscriber
sees the `round_repaired` event with the new round, and the standings it moves (the
pairing-allocated bye's point goes to the player who now has it), then the
`round_unpaired` event that takes the point back."""

from __future__ import annotations

import httpx
import websockets

from tests.api.conftest import create_round_robin
from tests.live.follower import Follower

FIVE = [(f"Player {n}", 2500 - 100 * n) for n in range(1, 6)]


def points(board: Follower) -> dict[int, float]:
    return {row["start_number"]: row["points"] for row in board.table()}


async def test_the_feed_shows_the_round_changed_by_hand(
    server: str, http: httpx.AsyncClient
) -> None:
    event = await create_round_robin(http, FIVE, system="swiss-dutch", rounds=3)
    paired = await http.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert paired.status_code == 201, paired.text
    # five players: the engine gives the pairing-allocated bye to 5, the lowest
    assert paired.json()["byes"] == [{"player": 5, "type": "pairing-allocated"}]
    board = Follower()
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        snapshot = await board.receive(ws)
        assert points(board)[5] == 1.0 and points(board)[4] == 0.0
        manual = {
            "games": [{"white": 1, "black": 2}, {"white": 3, "black": 5}],
            "byes": [{"player": 4, "type": "pairing-allocated"}],
        }
        url = f"/v1/tournaments/{event.id}/rounds/1"
        answer = await http.put(url, json=manual, headers=event.auth())
        assert answer.status_code == 200, answer.text
        await board.until(ws, snapshot["seq"] + 1)
        (repaired,) = board.events
        assert repaired["event"] == "round_repaired"
        assert repaired["payload"]["games"] == [[1, 1, 2], [2, 3, 5]]
        assert repaired["payload"]["byes"] == [[4, "pairing-allocated"]]
        assert repaired["payload"]["by"] == "organizer"
        assert points(board)[4] == 1.0 and points(board)[5] == 0.0
        gone = await http.delete(url, headers=event.auth())
        assert gone.status_code == 204, gone.text
        await board.until(ws, snapshot["seq"] + 2)
        assert board.events[-1]["event"] == "round_unpaired"
        assert points(board)[4] == 0.0
