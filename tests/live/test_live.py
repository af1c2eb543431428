"""The live WebSocket feed on a real server: snapshot, deltas that rebuild the table,
`?since=` resume and its edge cases, and fan-out to hundreds of scoreboards while
results stream (docs/live.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

import httpx
import pytest
import websockets
from fastapi import FastAPI

from service.api.state import AppState
from tests.api.conftest import Event, create_round_robin
from tests.live.conftest import start_server, stop_server
from tests.live.follower import Follower

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
TEN = [(f"Player {n}", 2400 - 10 * n) for n in range(1, 11)]


async def _receive(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return message


async def _result(
    http: httpx.AsyncClient, event: Event, table: int, result: str, rnd: int = 1
) -> int:
    response = await http.put(
        f"/v1/tournaments/{event.id}/rounds/{rnd}/games/{table}/result",
        json={"result": result},
        headers=event.auth(),
    )
    assert response.status_code == 200, response.text
    return response.status_code


async def _seq(http: httpx.AsyncClient, event: Event, server: str) -> int:
    """The tournament's newest seq, as a fresh snapshot gives it."""
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        seq: int = (await _receive(ws))["seq"]
        return seq


async def _open_boards(url: str, count: int) -> tuple[list[Any], list[Follower]]:
    """`count` scoreboards on one feed, each holding its first snapshot."""
    boards = [await websockets.connect(url, max_queue=None) for _ in range(count)]
    followers = [Follower() for _ in boards]
    for ws, follower in zip(boards, followers, strict=True):
        await follower.receive(ws)
    return boards, followers


async def test_snapshot_then_events(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, PLAYERS)
    board = Follower()
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        snapshot = await board.receive(ws)
        assert snapshot["type"] == "snapshot"
        assert snapshot["status"] == "running"
        assert [r["start_number"] for r in snapshot["standings"]["rows"]] == [1, 2, 3, 4]
        await _result(http, event, 1, "0-1")
        await board.until(ws, snapshot["seq"] + 1)
        message = board.events[-1]
        assert message["event"] == "result_confirmed"
        assert message["payload"]["result"] == "0-1"
        leader = board.table()[0]
        assert leader["points"] == 1
        assert leader["start_number"] == message["payload"]["black"]
        players = {message["payload"]["white"], message["payload"]["black"]}
        assert players <= set(message["changed"])
        # a delta carries only what changed: a patch leaves out the fields that did not
        # change (the two who did not play only moved down to rank 2; the loser too, and
        # the event being rated, its expected score moved: docs/live.md#rating-changes)
        patches = {p["start_number"]: p for p in message["standings"]["rows"]}
        assert all("name" not in patch for patch in patches.values())
        white, black = message["payload"]["white"], message["payload"]["black"]
        assert sorted(n for n, p in patches.items() if set(p) == {"start_number", "rank"}) == [
            n for n in (1, 2, 3, 4) if n not in (white, black)
        ]
        assert set(patches[white]) == {"start_number", "rank", "rating_change"}
        async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as fresh:
            assert (await _receive(fresh))["standings"]["rows"] == board.table()


async def test_a_rated_tournaments_feed_carries_the_rating_change(
    server: str, http: httpx.AsyncClient
) -> None:
    """docs/live.md#rating-changes: each rated player's K, expected score and change,
    short; null for an unrated player; `GET /standings` stays without them."""
    event = await create_round_robin(
        http, [("Ann", 2500), ("Bob", 2420), ("Cid", 0), ("Dan", 2410)]
    )
    board = Follower()
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        snapshot = await board.receive(ws)
        rows = {r["name"]: r for r in snapshot["standings"]["rows"]}
        assert rows["Ann"]["rating_change"] == {"k": 10, "expected": 0.0, "change": 0.0}
        assert rows["Cid"]["rating_change"] is None
        bob, dan = rows["Bob"]["start_number"], rows["Dan"]["start_number"]
        games = (await http.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
        game = next(g for g in games if {g["white"], g["black"]} == {bob, dan})
        await _result(http, event, game["table"], "1-0" if game["white"] == bob else "0-1")
        await board.until(ws, snapshot["seq"] + 1)
        patches = {p["start_number"]: p for p in board.events[-1]["standings"]["rows"]}
        # Bob (2420) beat Dan (2410): D 10, PD 0.51 / 0.49, K 10 (both 2400 or more)
        assert patches[bob]["rating_change"] == {"k": 10, "expected": 0.51, "change": 4.9}
        assert patches[dan]["rating_change"] == {"k": 10, "expected": 0.49, "change": -4.9}
        table_now = {r["start_number"]: r for r in board.table()}
        rated = await http.get(f"/v1/tournaments/{event.id}/standings?ratings=true")
        for row in rated.json()["rows"]:
            full = row["rating_change"]
            short = table_now[row["start_number"]]["rating_change"]
            assert short == (None if full is None else {k: full[k] for k in short})
    plain = await http.get(f"/v1/tournaments/{event.id}/standings")
    assert all("rating_change" not in row for row in plain.json()["rows"])


async def test_the_feed_decides_k_from_the_players_facts(
    server: str, http: httpx.AsyncClient
) -> None:
    """docs/rules/ratings.md#k-facts: the stored K facts decide K in the live feed too."""
    event = await create_round_robin(
        http, [("Ann", 2300), ("Bob", 2200), ("Cid", 2100), ("Dan", 0)], start=False
    )
    facts = {1: {"games_before": 10, "reached_2400": False}, 2: {"k": 20}}
    for number, body in facts.items():
        changed = await http.patch(
            f"/v1/tournaments/{event.id}/players/{number}", json=body, headers=event.auth()
        )
        assert changed.status_code == 200, changed.text
    started = await http.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    board = Follower()
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        snapshot = await board.receive(ws)
        rows = {r["name"]: r for r in snapshot["standings"]["rows"]}
        # Ann: a new player (10 games), K 40; Bob: the given K 20; Cid: nothing recorded
        assert rows["Ann"]["rating_change"]["k"] == 40
        assert rows["Bob"]["rating_change"]["k"] == 20
        assert rows["Cid"]["rating_change"] == {"k": None, "expected": 0.0, "change": None}
        ann, bob = rows["Ann"]["start_number"], rows["Bob"]["start_number"]
        rounds = [
            (await http.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json() for n in (1, 2, 3)
        ]
        rnd, game = next(
            (r["round"], g)
            for r in rounds
            for g in r["games"]
            if {g["white"], g["black"]} == {ann, bob}
        )
        winner = "1-0" if game["white"] == ann else "0-1"
        await _result(http, event, game["table"], winner, rnd)
        await board.until(ws, snapshot["seq"] + 1)
        patches = {p["start_number"]: p for p in board.events[-1]["standings"]["rows"]}
        # Ann (2300) beat Bob (2200): D 100, PD 0.64 / 0.36 (B.02 table 8.1.2):
        # Ann 40 x 0.36 = 14.4, Bob 20 x -0.36 = -7.2
        assert patches[ann]["rating_change"] == {"k": 40, "expected": 0.64, "change": 14.4}
        assert patches[bob]["rating_change"] == {"k": 20, "expected": 0.36, "change": -7.2}


async def test_an_unrated_tournaments_feed_has_no_rating_change(
    server: str, http: httpx.AsyncClient
) -> None:
    event = await create_round_robin(http, [("Ann", 0), ("Bob", 0), ("Cid", 0), ("Dan", 0)])
    async with websockets.connect(f"ws://{server}/v1/tournaments/{event.id}/live") as ws:
        snapshot = await _receive(ws)
    assert all("rating_change" not in row for row in snapshot["standings"]["rows"])


async def test_since_replays_exactly_what_was_missed(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, PLAYERS)
    url = f"ws://{server}/v1/tournaments/{event.id}/live"
    base = Follower()
    async with websockets.connect(url) as ws:
        await base.receive(ws)
    seen = base.seq
    assert seen is not None
    await _result(http, event, 1, "1-0")
    await _result(http, event, 2, "1/2-1/2")
    resumed = base.fork()
    async with websockets.connect(f"{url}?since={seen}") as ws:
        await resumed.until(ws, seen + 2)
        assert [m["seq"] for m in resumed.events] == [seen + 1, seen + 2]
        assert [m["payload"]["table"] for m in resumed.events] == [1, 2]
        assert resumed.snapshots == 0  # resumed from the frames, no snapshot needed
        await _result(http, event, 1, "0-1")  # a correction, live
        await resumed.until(ws, seen + 3)
        assert resumed.events[-1]["event"] == "result_corrected"
    async with websockets.connect(url) as fresh:
        assert (await _receive(fresh))["standings"]["rows"] == resumed.table()


async def test_since_above_the_newest_seq_gets_a_snapshot(
    server: str, http: httpx.AsyncClient
) -> None:
    event = await create_round_robin(http, PLAYERS)
    newest = await _seq(http, event, server)
    url = f"ws://{server}/v1/tournaments/{event.id}/live?since={newest + 50}"
    async with websockets.connect(url) as ws:
        message = await _receive(ws)
        assert (message["type"], message["seq"]) == ("snapshot", newest)


async def test_since_older_than_this_process_remembers_gets_a_snapshot(
    server: str, http: httpx.AsyncClient
) -> None:
    event = await create_round_robin(http, PLAYERS)
    url = f"ws://{server}/v1/tournaments/{event.id}/live?since=0"
    async with websockets.connect(url) as ws:
        message = await _receive(ws)
        assert message["type"] == "snapshot"
        assert message["seq"] > 0


async def test_a_bad_since_closes_with_a_reason(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, PLAYERS)
    for bad in ("abc", "-1", "1.5"):
        url = f"ws://{server}/v1/tournaments/{event.id}/live?since={bad}"
        async with websockets.connect(url) as ws:
            message = await _receive(ws)
            assert (message["type"], message["status"], message["field"]) == (
                "error",
                422,
                "since",
            )
            await asyncio.wait_for(ws.wait_closed(), 5)
            assert ws.close_code == 4400
            assert ws.close_reason is not None and "since" in ws.close_reason


async def test_a_bad_delta_form_closes_with_a_reason(server: str, http: httpx.AsyncClient) -> None:
    event = await create_round_robin(http, PLAYERS)
    url = f"ws://{server}/v1/tournaments/{event.id}/live?delta=small"
    async with websockets.connect(url) as ws:
        message = await _receive(ws)
        assert (message["type"], message["status"], message["field"]) == ("error", 422, "delta")
        assert "full, compact" in message["detail"]
        await asyncio.wait_for(ws.wait_closed(), 5)
        assert ws.close_code == 4400


async def test_compact_deltas_give_the_ranks_as_one_list(
    server: str, http: httpx.AsyncClient
) -> None:
    """`?delta=compact`: one result that moves most ranks of a ten-player round-robin
    reaches a compact client as `ranks` (every rank, in table order) and patches of the
    two players who played alone; a full-form client on the same feed gets a patch per
    moved rank; both rebuild the same table, the one a fresh snapshot gives, and the
    compact message is the smaller."""
    event = await create_round_robin(http, TEN)
    url = f"ws://{server}/v1/tournaments/{event.id}/live"
    full, compact = Follower(), Follower()
    async with (
        websockets.connect(url) as full_ws,
        websockets.connect(f"{url}?delta=compact") as compact_ws,
        websockets.connect(f"{url}?delta=full") as named_ws,
    ):
        named = Follower()
        for ws, follower in ((full_ws, full), (compact_ws, compact), (named_ws, named)):
            await follower.receive(ws)
        start = full.seq
        assert start is not None
        sizes: dict[str, list[int]] = {"full": [], "compact": []}
        for table, result in ((1, "0-1"), (2, "1/2-1/2"), (5, "1-0")):
            await _result(http, event, table, result)
            for name, ws, follower in (("full", full_ws, full), ("compact", compact_ws, compact)):
                text = await asyncio.wait_for(ws.recv(), 10)
                sizes[name].append(len(text))
                follower.apply(json.loads(text))
        await named.until(named_ws, start + 3)
        first_full, first_compact = full.events[0], compact.events[0]
        assert "ranks" not in first_full
        assert len({p["start_number"] for p in first_full["standings"]["rows"]}) == 10
        beyond_rank = [  # the loser's points and tie-breaks did not move: its rank and,
            # the event being rated, its expected score did (docs/live.md#rating-changes)
            {k: v for k, v in p.items() if k != "rank"}
            for p in first_full["standings"]["rows"]
            if set(p) - {"start_number", "rank"}
        ]
        loser = first_full["payload"]["white"]
        assert [p["start_number"] for p in beyond_rank] == [first_full["payload"]["black"], loser]
        assert set(beyond_rank[1]) == {"start_number", "rating_change"}
        assert first_compact["standings"]["rows"] == beyond_rank
        assert first_compact["changed"] == [
            p["start_number"] for p in first_compact["standings"]["rows"]
        ]
        assert all("rank" not in p for p in first_compact["standings"]["rows"])
        ranks = dict(zip(first_compact["positions"], first_compact["ranks"], strict=True))
        winner = first_full["payload"]["black"]  # 0-1 on table 1
        assert ranks[winner] == 1
        assert sorted(ranks.values()) == [1] + [2] * 9  # the loser ties with the idle eight
        assert all(c < f for c, f in zip(sizes["compact"], sizes["full"], strict=True))
        async with websockets.connect(url) as fresh:
            final = (await _receive(fresh))["standings"]["rows"]
        assert full.table() == compact.table() == named.table() == final
        assert [m["seq"] for m in compact.events] == [start + 1, start + 2, start + 3]


async def test_unknown_tournament_closes(server: str) -> None:
    async with websockets.connect(f"ws://{server}/v1/tournaments/nope/live") as ws:
        message = await _receive(ws)
        assert (message["type"], message["status"]) == ("error", 404)
        await asyncio.wait_for(ws.wait_closed(), 5)
        assert ws.close_code == 4404


async def test_hundreds_of_scoreboards_while_results_stream(
    server: str, http: httpx.AsyncClient
) -> None:
    """300 subscribers, 15 results streamed as fast as the organizer can send them:
    every PUT succeeds, every subscriber ends holding every seq in order (or a
    snapshot covering the ones it skipped) and the final table."""
    event = await create_round_robin(http, TEN)
    url = f"ws://{server}/v1/tournaments/{event.id}/live"
    boards, followers = await _open_boards(url, 300)
    try:
        start = followers[0].seq
        assert start is not None
        statuses = [
            await _result(http, event, table, ("1-0", "0-1", "1/2-1/2")[(rnd + table) % 3], rnd)
            for rnd in (1, 2, 3)
            for table in range(1, 6)
        ]
        assert statuses == [200] * 15
        last = start + 15
        await asyncio.gather(*(f.until(ws, last) for ws, f in zip(boards, followers, strict=True)))
        async with websockets.connect(url) as fresh:
            final = await _receive(fresh)
        assert final["seq"] == last
        for follower in followers:
            assert follower.seq == last
            assert follower.table() == final["standings"]["rows"]
            if follower.snapshots == 1:  # never fell behind: it saw every event itself
                assert [m["seq"] for m in follower.events] == list(range(start + 1, last + 1))
    finally:
        await asyncio.gather(*(ws.close() for ws in boards))


@pytest.mark.parametrize("deflate", [False, True], ids=["as-served", "compressed"])
async def test_frames_go_straight_to_caught_up_sockets(database_url: str, deflate: bool) -> None:
    """As `arbiter serve` runs (no compression), every event reaches a caught-up
    scoreboard as frame bytes built once and written to its transport; with per-message
    compression negotiated, the ordinary send carries the same messages."""
    server, task, address = await start_server(database_url, deflate=deflate)
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            event = await create_round_robin(http, TEN)
            url = f"ws://{address}/v1/tournaments/{event.id}/live"
            boards, followers = await _open_boards(url, 5)
            try:
                start = followers[0].seq
                assert start is not None
                for table in range(1, 6):
                    await _result(http, event, table, "1-0")
                await asyncio.gather(
                    *(f.until(ws, start + 5) for ws, f in zip(boards, followers, strict=True))
                )
                state: AppState = cast(FastAPI, server.config.app).state.arbiter
                assert state.hub is not None
                clients = state.hub.channels[event.id].clients
                direct = sorted(client.direct_writes for client in clients)
            finally:
                await asyncio.gather(*(ws.close() for ws in boards))
        for follower in followers:
            assert follower.seq == start + 5
            assert follower.table() == followers[0].table()
        if deflate:
            assert direct == [0] * 5
        else:  # some events may be read together as one batch: at least one write each
            assert len(direct) == 5 and all(writes >= 1 for writes in direct)
    finally:
        await stop_server(server, task)
