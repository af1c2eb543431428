"""A stored Idempotency-Key answer is replayed only to a caller the route itself would
still admit (IETF draft "The Idempotency-Key HTTP Header Field": a key identifies one
request, not a credential), and only for the very request it answered."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from service.api.write_access import WriteRoutes
from tests.api.conftest import Event, create_round_robin
from tests.api.test_bridge_events import _one_board_session

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
PROBLEM = "urn:arbiter:problem:"


def _key() -> str:
    return str(uuid.uuid4())


def _bearer(token: str, key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Idempotency-Key": key}


def _refused(response: httpx.Response, status: int, slug: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["type"] == PROBLEM + slug
    assert "idempotent-replayed" not in response.headers


async def _rotate_organizer(client: httpx.AsyncClient, event: Event) -> str:
    rotated = await client.post(
        f"/v1/tournaments/{event.id}/tokens/rotate",
        json={"role": "organizer"},
        headers=event.auth(),
    )
    assert rotated.status_code == 200, rotated.text
    token: str = rotated.json()["token"]
    return token


async def test_a_rotation_is_not_replayed_to_the_old_token(client: httpx.AsyncClient) -> None:
    """Resent with the old organizer token, the rotation's stored answer would hand the
    new organizer token to whoever holds the old one."""
    event = await create_round_robin(client, PLAYERS)
    key = _key()
    url = f"/v1/tournaments/{event.id}/tokens/rotate"
    first = await client.post(
        url, json={"role": "organizer"}, headers=_bearer(event.organizer, key)
    )
    assert first.status_code == 200, first.text
    new_token = first.json()["token"]
    again = await client.post(
        url, json={"role": "organizer"}, headers=_bearer(event.organizer, key)
    )
    _refused(again, 401, "unauthenticated")
    assert new_token not in again.text


async def test_a_settings_change_is_not_replayed_once_the_token_is_rotated(
    client: httpx.AsyncClient,
) -> None:
    """`PATCH /v1/tournaments/{id}` (no token check before its body) answered with the
    viewer token: its replay to a rotated-out organizer token is 401, without it."""
    event = await create_round_robin(client, PLAYERS)
    key = _key()
    url = f"/v1/tournaments/{event.id}"
    first = await client.patch(
        url, json={"visibility": "private"}, headers=_bearer(event.organizer, key)
    )
    assert first.status_code == 200, first.text
    viewer = first.json()["viewer_token"]
    assert viewer
    await _rotate_organizer(client, event)
    again = await client.patch(
        url, json={"visibility": "private"}, headers=_bearer(event.organizer, key)
    )
    _refused(again, 401, "unauthenticated")
    assert viewer not in again.text


async def test_a_rotated_players_report_is_not_replayed(client: httpx.AsyncClient) -> None:
    """A player's phone is lost and their token rotated: the old token replays nothing."""
    event = await create_round_robin(client, PLAYERS)
    key = _key()
    url = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    white = games[0]["white"]
    token = event.players[white]
    first = await client.put(url, json={"result": "1-0"}, headers=_bearer(token, key))
    assert first.status_code == 200, first.text
    rotated = await client.post(
        f"/v1/tournaments/{event.id}/tokens/rotate",
        json={"role": "player", "start_number": white},
        headers=event.auth(),
    )
    assert rotated.status_code == 200, rotated.text
    again = await client.put(url, json={"result": "1-0"}, headers=_bearer(token, key))
    _refused(again, 401, "unauthenticated")


async def test_a_withdrawn_players_report_is_not_replayed(client: httpx.AsyncClient) -> None:
    """The route refuses a withdrawn player's token (403); so does the replay."""
    event = await create_round_robin(client, PLAYERS)
    key = _key()
    url = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    white = games[0]["white"]
    token = event.players[white]
    first = await client.put(url, json={"result": "1-0"}, headers=_bearer(token, key))
    assert first.status_code == 200, first.text
    withdrawn = await client.patch(
        f"/v1/tournaments/{event.id}/players/{white}",
        json={"withdrawn": True},
        headers=event.auth(),
    )
    assert withdrawn.status_code == 200, withdrawn.text
    again = await client.put(url, json={"result": "1-0"}, headers=_bearer(token, key))
    _refused(again, 403, "forbidden")


async def test_nothing_is_replayed_once_the_tournament_is_archived(
    client: httpx.AsyncClient,
) -> None:
    """Archived, a tournament takes no writes (410): a replay is no exception, the
    archiving's own included."""
    event = await create_round_robin(client, PLAYERS)
    key, archive_key = _key(), _key()
    url = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    first = await client.put(url, json={"result": "1-0"}, headers=_bearer(event.organizer, key))
    assert first.status_code == 200, first.text
    archived = await client.delete(
        f"/v1/tournaments/{event.id}", headers=_bearer(event.organizer, archive_key)
    )
    assert archived.status_code == 204, archived.text
    again = await client.put(url, json={"result": "1-0"}, headers=_bearer(event.organizer, key))
    _refused(again, 410, "gone")
    archived_again = await client.delete(
        f"/v1/tournaments/{event.id}", headers=_bearer(event.organizer, archive_key)
    )
    _refused(archived_again, 410, "gone")


async def test_a_replay_to_the_current_token_still_answers(client: httpx.AsyncClient) -> None:
    """The checks take nothing from a caller the route admits: the retry replays."""
    event = await create_round_robin(client, PLAYERS)
    key = _key()
    url = f"/v1/tournaments/{event.id}/rounds/1/games/1/result"
    first = await client.put(url, json={"result": "1-0"}, headers=_bearer(event.organizer, key))
    again = await client.put(url, json={"result": "1-0"}, headers=_bearer(event.organizer, key))
    assert first.status_code == again.status_code == 200
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()


async def test_the_query_string_is_part_of_the_request(client: httpx.AsyncClient) -> None:
    """The same key and body with another query is another request: 422, not the first
    request's answer."""
    body = {"players": [{"id": f"p{n}", "rating": 2000 - n} for n in range(6)], "rounds": 3}
    key = {"Idempotency-Key": _key()}
    dutch = await client.post("/v1/compute/pairings?system=dutch", json=body, headers=key)
    assert dutch.status_code == 200, dutch.text
    replayed = await client.post("/v1/compute/pairings?system=dutch", json=body, headers=key)
    assert replayed.headers["idempotent-replayed"] == "true"
    jca = await client.post("/v1/compute/pairings?system=jca", json=body, headers=key)
    _refused(jca, 422, "invalid-input")
    assert jca.json()["field"] == "Idempotency-Key"


async def test_any_authorization_header_leaves_the_key_minimum_in_place(
    client: httpx.AsyncClient,
) -> None:
    """Creating a tournament needs no token: the key is the only thing that entitles a
    caller to its answer (the organizer token), so it must be unguessable whatever
    `Authorization` header comes with it."""
    create = {"name": "Club night", "system": "round-robin"}
    for headers in (
        {"Idempotency-Key": "create-club-1", "Authorization": "Bearer x"},
        {"Idempotency-Key": "create-club-1", "Authorization": "Basic eDp5"},
    ):
        refused = await client.post("/v1/tournaments", json=create, headers=headers)
        _refused(refused, 422, "invalid-input")
        assert refused.json()["field"] == "Idempotency-Key"
    body = {"players": [{"id": f"p{n}", "rating": 2000 - n} for n in range(6)], "rounds": 3}
    compute = await client.post(
        "/v1/compute/pairings", json=body, headers={"Idempotency-Key": "k", "Authorization": "x"}
    )
    _refused(compute, 422, "invalid-input")


async def test_a_route_that_needs_a_token_takes_a_short_key(client: httpx.AsyncClient) -> None:
    """The minimum is for routes that need no token; a token's own routes keep any key
    of 1 to 255 characters (the token entitles the caller)."""
    event = await create_round_robin(client, PLAYERS)
    first = await client.patch(
        f"/v1/tournaments/{event.id}",
        json={"name": "Renamed"},
        headers=_bearer(event.organizer, "k"),
    )
    assert first.status_code == 200, first.text
    again = await client.patch(
        f"/v1/tournaments/{event.id}",
        json={"name": "Renamed"},
        headers=_bearer(event.organizer, "k"),
    )
    assert again.headers["idempotent-replayed"] == "true"


async def test_a_bridge_replay_is_checked_as_its_route_checks(client: httpx.AsyncClient) -> None:
    """A table's result and the organizer's rotation of a table token, replayed once the
    tokens that sent them were rotated: 401 both (the bridge's own write checks)."""
    created = await client.post("/v1/bridge/events", json=_one_board_session())
    assert created.status_code == 201, created.text
    event = created.json()
    base = f"/v1/bridge/events/{event['id']}"
    table, organizer = event["table_tokens"][0]["token"], event["organizer_token"]
    result = {"contract": "4S", "declarer": "N", "tricks": 10}
    result_key, rotate_key = _key(), _key()
    entered = await client.put(
        f"{base}/tables/1/boards/2", json=result, headers=_bearer(table, result_key)
    )
    assert entered.status_code == 200, entered.text
    rotate = {"role": "table", "table": 1}
    rotated = await client.post(
        f"{base}/tokens/rotate", json=rotate, headers=_bearer(organizer, rotate_key)
    )
    assert rotated.status_code == 200, rotated.text
    again = await client.put(
        f"{base}/tables/1/boards/2", json=result, headers=_bearer(table, result_key)
    )
    _refused(again, 401, "unauthenticated")
    own = await client.post(
        f"{base}/tokens/rotate",
        json={"role": "organizer"},
        headers={"Authorization": f"Bearer {organizer}"},
    )
    assert own.status_code == 200, own.text
    rotated_again = await client.post(
        f"{base}/tokens/rotate", json=rotate, headers=_bearer(organizer, rotate_key)
    )
    _refused(rotated_again, 401, "unauthenticated")
    assert rotated.json()["token"] not in rotated_again.text


def test_every_write_to_a_tournament_declares_its_check(app: FastAPI) -> None:
    """Each write route of a tournament or bridge event names the check its replay
    makes; every other write route needs no token (and an unguessable key)."""
    routes = WriteRoutes(app).routes
    assert len(routes) > 20
    for route in routes:
        owned = "{tournament_id}" in route.path or "{event_id}" in route.path
        assert (route.check is not None) == owned, route.path
    free = {route.path for route in routes if route.check is None}
    assert {"/v1/tournaments", "/v1/tournaments/import", "/v1/bridge/events"} <= free
