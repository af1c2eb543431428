"""What the live feed refuses, and how: a replay shows only what a reader may see now,
bad tokens count toward the failed-authentication limit (4429 once it is used up), close
reasons fit a close frame (RFC 6455 5.5), a `since` of any length above the tournament's
seq gets the snapshot, and an id no tournament can have is 4404, on both databases."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.api.conftest import create_round_robin
from tests.live.conftest import start_server, stop_server

PLAYERS = [("Ann", 2100), ("Bob", 2000)]
PERSONAL = {"fide_id": "1503014", "federation": "NOR", "sex": "m", "birth_year": 1990}


async def _messages_until_closed(ws: Any) -> tuple[list[dict[str, Any]], int | None, str]:
    """Every message the server sends until it closes: the messages, the close code and
    reason."""
    messages: list[dict[str, Any]] = []
    with pytest.raises(ConnectionClosed):
        while True:
            messages.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    return messages, ws.close_code, ws.close_reason or ""


async def _receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return message


async def test_a_replay_hides_what_the_organizer_no_longer_publishes(
    server: str, http: httpx.AsyncClient
) -> None:
    """A player registered while personal data was published, then the organizer stops
    publishing it: a spectator resuming from before the registration gets no FIDE id,
    federation, sex or birth year (in whatever form the feed catches it up)."""
    created = await http.post(
        "/v1/tournaments",
        json={"name": "Open", "system": "round-robin", "publish_personal_data": True},
    )
    assert created.status_code == 201, created.text
    tournament, organizer = created.json()["id"], created.json()["organizer_token"]
    auth = {"Authorization": f"Bearer {organizer}"}
    url = f"ws://{server}/v1/tournaments/{tournament}/live"
    async with websockets.connect(url) as watching:  # the channel keeps its frames
        since = (await _receive(watching))["seq"]
        added = await http.post(
            f"/v1/tournaments/{tournament}/players",
            json={"name": "Carlsen, Magnus", "rating": 2830, **PERSONAL},
            headers=auth,
        )
        assert added.status_code == 201, added.text
        live = await _receive(watching)
        assert live["event"] == "player_added" and live["payload"]["fide_id"] == "1503014"
        hidden = await http.patch(
            f"/v1/tournaments/{tournament}", json={"publish_personal_data": False}, headers=auth
        )
        assert hidden.status_code == 200, hidden.text
        newest = (await _receive(watching))["seq"]
        async with websockets.connect(f"{url}?since={since}") as resumed:
            texts = []
            seq = since
            while seq < newest:
                text = await asyncio.wait_for(resumed.recv(), 10)
                texts.append(text)
                message = json.loads(text)
                seq = message.get("to", message.get("seq", seq))
    for text in texts:
        for value in ("1503014", "NOR", "birth_year", '"sex"', "fide_id", "federation"):
            assert value not in text, text


async def test_bad_live_tokens_count_toward_the_failed_authentication_limit(
    database_url: str,
) -> None:
    """Five bad `?token=`s on the live feed use up a 5/minute allowance: the sixth
    connection, even with a good token, is refused with 429 and 4429, and so is an HTTP
    request with a token from that address; a spectator without a token still gets in."""
    server, task, address = await start_server(
        database_url, rate_limit_failed_authentications="5/minute"
    )
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            event = await create_round_robin(http, PLAYERS)
            url = f"ws://{address}/v1/tournaments/{event.id}/live"
            for attempt in range(5):
                async with websockets.connect(f"{url}?token=ply_guess{attempt}") as ws:
                    messages, code, _ = await _messages_until_closed(ws)
                assert (messages[0]["status"], code) == (401, 4401)
            async with websockets.connect(f"{url}?token={event.organizer}") as ws:
                messages, code, reason = await _messages_until_closed(ws)
            assert [(m["type"], m["status"], m["field"]) for m in messages] == [
                ("error", 429, "token")
            ]
            assert code == 4429 and "retry in" in reason
            refused = await http.get(f"/v1/tournaments/{event.id}", headers=event.auth())
            assert refused.status_code == 429
            async with websockets.connect(url) as ws:
                assert (await _receive(ws))["type"] == "snapshot"
    finally:
        await stop_server(server, task)


async def test_failed_http_authentications_close_the_live_feed_too(database_url: str) -> None:
    """The allowance is one per address: HTTP requests with bad tokens use it up, and a
    live connection with a token is then refused (4429)."""
    server, task, address = await start_server(
        database_url, rate_limit_failed_authentications="3/minute"
    )
    try:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            event = await create_round_robin(http, PLAYERS)
            for _ in range(3):
                bad = await http.get(
                    f"/v1/tournaments/{event.id}", headers={"Authorization": "Bearer org_guess"}
                )
                assert bad.status_code == 401
            url = f"ws://{address}/v1/tournaments/{event.id}/live?token={event.organizer}"
            async with websockets.connect(url) as ws:
                _, code, _ = await _messages_until_closed(ws)
            assert code == 4429
    finally:
        await stop_server(server, task)


async def test_a_since_of_any_length_is_a_seq(server: str, http: httpx.AsyncClient) -> None:
    """More digits than a seq has is above the tournament's seq: the snapshot; leading
    zeros name the same seq (nothing is sent to a client that is current)."""
    event = await create_round_robin(http, PLAYERS)
    feed = f"ws://{server}/v1/tournaments/{event.id}/live"
    for digits in (19, 20, 40, 5000):
        async with websockets.connect(f"{feed}?since={'9' * digits}") as ws:
            message = await _receive(ws)
        assert message["type"] == "snapshot", digits
    newest = message["seq"]
    async with websockets.connect(f"{feed}?since={'0' * 30}{newest}") as ws:
        await ws.ping()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ws.recv(), 0.3)


IDS = [
    "%00",
    "a%00b",
    "%C3%A9" * 80,  # 80 characters of two bytes each
    "%F0%9F%8F%86" * 80,  # 80 characters of four bytes each
    "x" * 300,
]


async def test_an_id_no_tournament_has_closes_with_4404(server: str) -> None:
    """NUL bytes, long and non-ASCII ids, on both feeds: an `error` (404) and a clean
    4404 whose reason fits a close frame (123 bytes of UTF-8 at most, cut between
    characters)."""
    for feed in ("tournaments", "bridge/events"):
        for tournament_id in IDS:
            async with websockets.connect(f"ws://{server}/v1/{feed}/{tournament_id}/live") as ws:
                messages, code, reason = await _messages_until_closed(ws)
            assert [(m["type"], m["status"]) for m in messages] == [("error", 404)]
            assert code == 4404, (feed, tournament_id)
            assert 0 < len(reason.encode()) <= 123
