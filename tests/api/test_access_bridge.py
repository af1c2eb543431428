"""Access to bridge events (docs/api.md#access-and-privacy): a private event is read with
its organizer, viewer or table tokens; the viewer token never writes; table tokens are
rotated and revoked by the organizer (a lost tablet)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.test_bridge_events import _one_board_session

EVENTS = "/v1/bridge/events"
RESULT = {"contract": "4S", "declarer": "N", "tricks": 10}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _private_event(client: httpx.AsyncClient) -> dict[str, Any]:
    created = await client.post(EVENTS, json=_one_board_session(visibility="private"))
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    assert body["visibility"] == "private" and body["viewer_token"]
    return body


async def test_a_private_bridge_event_is_read_with_its_tokens(client: httpx.AsyncClient) -> None:
    event = await _private_event(client)
    base = f"{EVENTS}/{event['id']}"
    table = event["table_tokens"][0]["token"]
    for path in ("", "/results", "/ranking", "/tables/1/boards/2"):
        anonymous = await client.get(base + path)
        assert anonymous.status_code == 401, (path, anonymous.text)
        assert anonymous.json()["field"] == "Authorization"
    for token in (event["viewer_token"], event["organizer_token"], table):
        assert (await client.get(base + "/ranking", headers=bearer(token))).status_code == 200
    listed = (await client.get(EVENTS, params={"limit": 200})).json()["items"]
    assert event["id"] not in {item["id"] for item in listed}
    public = await client.post(EVENTS, json=_one_board_session())
    assert public.json()["visibility"] == "public" and public.json()["viewer_token"] is None
    assert (await client.get(f"{EVENTS}/{public.json()['id']}/ranking")).status_code == 200


async def test_the_viewer_token_never_writes(client: httpx.AsyncClient) -> None:
    event = await _private_event(client)
    base = f"{EVENTS}/{event['id']}"
    viewer = bearer(event["viewer_token"])
    refused = await client.put(f"{base}/tables/1/boards/2", json=RESULT, headers=viewer)
    assert refused.status_code == 403 and refused.json()["field"] == "Authorization"
    rotate = await client.post(f"{base}/tokens/rotate", json={"role": "viewer"}, headers=viewer)
    assert rotate.status_code == 403
    results = await client.get(f"{base}/results", headers=viewer)
    assert results.json() == []


async def test_a_table_token_rotated_then_revoked(client: httpx.AsyncClient) -> None:
    event = await _private_event(client)
    base = f"{EVENTS}/{event['id']}"
    organizer = bearer(event["organizer_token"])
    old = bearer(event["table_tokens"][0]["token"])
    rotated = await client.post(
        f"{base}/tokens/rotate", json={"role": "table", "table": 1}, headers=organizer
    )
    assert rotated.status_code == 200, rotated.text
    assert rotated.json()["table"] == 1
    new = bearer(rotated.json()["token"])
    lost = await client.put(f"{base}/tables/1/boards/2", json=RESULT, headers=old)
    assert lost.status_code == 401
    entered = await client.put(f"{base}/tables/1/boards/2", json=RESULT, headers=new)
    assert entered.status_code == 200, entered.text
    revoked = await client.post(
        f"{base}/tokens/revoke", json={"role": "table", "table": 1}, headers=organizer
    )
    assert revoked.status_code == 204
    assert (await client.get(f"{base}/ranking", headers=new)).status_code == 401
    # the organizer still enters that table's results
    corrected = {"contract": "4S", "declarer": "N", "tricks": 9}
    by_organizer = await client.put(f"{base}/tables/1/boards/2", json=corrected, headers=organizer)
    assert by_organizer.status_code == 200, by_organizer.text


async def test_bad_bridge_token_requests_name_the_field(client: httpx.AsyncClient) -> None:
    event = await _private_event(client)
    base = f"{EVENTS}/{event['id']}"
    organizer = bearer(event["organizer_token"])
    cases = [
        ({"role": "table"}, 422, "table"),
        ({"role": "viewer", "table": 1}, 422, "table"),
        ({"role": "table", "table": 99}, 404, "table"),
        ({"role": "player", "start_number": 1}, 422, "role"),
    ]
    for body, status, field in cases:
        response = await client.post(f"{base}/tokens/rotate", json=body, headers=organizer)
        assert response.status_code == status, (body, response.text)
        assert response.json()["field"] == field
    # nothing changed: the original table token still enters results
    table = bearer(event["table_tokens"][0]["token"])
    assert (
        await client.put(f"{base}/tables/1/boards/2", json=RESULT, headers=table)
    ).status_code == 200


async def test_only_the_organizer_removes_or_imports(client: httpx.AsyncClient) -> None:
    # One dependency authorizes a bridge write (routes/bridge_events.get_bridge_write):
    # no token is 401, the viewer's and a table's tokens are 403 on what only the
    # organizer may do, each naming the header, and none of them changes a result.
    event = await _private_event(client)
    base = f"{EVENTS}/{event['id']}"
    organizer = bearer(event["organizer_token"])
    board = f"{base}/tables/1/boards/2"
    entered = await client.put(board, json=RESULT, headers=organizer)
    assert entered.status_code == 200, entered.text
    assert (await client.put(board, json=RESULT)).status_code == 401
    pbn = '[Board "2"]\n[Table "1"]\n[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n'
    for token in (event["viewer_token"], event["table_tokens"][0]["token"]):
        headers = bearer(token)
        removed = await client.delete(board, headers=headers)
        imported = await client.post(
            f"{base}/import", content=pbn, headers={**headers, "content-type": "text/plain"}
        )
        for refused in (removed, imported):
            assert refused.status_code == 403, refused.text
            assert refused.json()["field"] == "Authorization"
    stored = await client.get(board, headers=organizer)
    assert stored.json()["contract"] == "4S" and len(stored.json()["history"]) == 1
