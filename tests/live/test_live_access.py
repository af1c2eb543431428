"""The live feed of a private tournament needs one of its tokens (`?token=`), an archived
one is closed to all but its organizer, even for spectators who arrive together and
share one read of the tournament (api.connect_reads), its frames carry no personal
data the organizer did not publish (docs/security.md#privacy), and an access change closes the open
sockets it no longer admits (api.live_access)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.api.conftest import create_round_robin
from tests.live.access_changes import access_changes


async def _receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return message


async def _private(http: httpx.AsyncClient) -> tuple[str, str, str]:
    created = await http.post(
        "/v1/tournaments",
        json={"name": "Closed club", "system": "round-robin", "visibility": "private"},
    )
    assert created.status_code == 201, created.text
    body = created.json()
    return body["id"], body["organizer_token"], body["viewer_token"]


async def test_private_feed_needs_a_token(server: str, http: httpx.AsyncClient) -> None:
    tournament, _, viewer = await _private(http)
    url = f"ws://{server}/v1/tournaments/{tournament}/live"
    for query in ("", "?token=vwr_wrong"):
        async with websockets.connect(url + query) as ws:
            error = await _receive(ws)
            assert error["type"] == "error" and error["status"] == 401
            with pytest.raises(ConnectionClosed) as closed:
                await _receive(ws)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    async with websockets.connect(f"{url}?token={viewer}") as ws:
        snapshot = await _receive(ws)
        assert snapshot["type"] == "snapshot" and snapshot["status"] == "registration"


async def test_player_events_hide_personal_data(server: str, http: httpx.AsyncClient) -> None:
    tournament, organizer, viewer = await _private(http)
    url = f"ws://{server}/v1/tournaments/{tournament}/live?token={viewer}"
    async with websockets.connect(url) as ws:
        await _receive(ws)
        added = await http.post(
            f"/v1/tournaments/{tournament}/players",
            json={"name": "Nowak, Anna", "rating": 2100, "birth_year": 1990, "sex": "w"},
            headers={"Authorization": f"Bearer {organizer}"},
        )
        assert added.status_code == 201, added.text
        message = await _receive(ws)
        while message["type"] != "event":
            message = await _receive(ws)
    assert message["event"] == "player_added"
    assert message["payload"]["name"] == "Nowak, Anna"
    assert "birth_year" not in message["payload"] and "sex" not in message["payload"]


async def _first_message(url: str) -> tuple[dict[str, Any], int | None]:
    """The first message a new spectator gets, and the close code if one follows it."""
    async with websockets.connect(url) as ws:
        first = await _receive(ws)
        if first["type"] != "error":
            return first, None
        await asyncio.wait_for(ws.wait_closed(), 10)
        return first, ws.close_code


async def test_a_crowd_arriving_after_the_archival_is_refused(
    server: str, http: httpx.AsyncClient
) -> None:
    """Forty spectators arrive together, then forty more just after the organizer
    archived the tournament: the first all get the snapshot, every later one 4410 (a
    shared read is always one that began after the spectator arrived), and the
    organizer's token still opens the feed."""
    event = await create_round_robin(http, [("Ann", 2100), ("Bob", 2000)])
    url = f"ws://{server}/v1/tournaments/{event.id}/live"
    before = await asyncio.gather(*(_first_message(url) for _ in range(40)))
    assert [(m["type"], code) for m, code in before] == [("snapshot", None)] * 40
    archived = await http.delete(f"/v1/tournaments/{event.id}", headers=event.auth())
    assert archived.status_code == 204
    after = await asyncio.gather(*(_first_message(url) for _ in range(40)))
    assert [(m["type"], m["status"], code) for m, code in after] == [("error", 410, 4410)] * 40
    organizer, code = await _first_message(f"{url}?token={event.organizer}")
    assert (organizer["type"], code) == ("snapshot", None)


async def test_access_changes_close_the_sockets_they_no_longer_admit(
    server: str, http: httpx.AsyncClient
) -> None:
    """One process: revoking the viewer token, rotating a player's and the organizer's
    token, making the tournament private and archiving it close, within a second, the
    open sockets each no longer admits (4401, 4410 on archival), and only those."""
    await access_changes(http, server)
