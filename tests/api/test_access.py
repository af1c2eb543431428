"""Access and privacy (docs/api.md#access-and-privacy): private tournaments and their viewer
token, personal data shown to the organizer only, token rotation, revocation and expiry,
withdrawn players, safe settings changes and archival. Every refusal is problem+json naming
the field and stores nothing."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, select

from service.api.access import authorize_read, event_view
from service.db.tables import EventRow, PlayerRow, TournamentRow
from service.errors import Gone, Unauthenticated
from tests.api.conftest import Event, create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]
PERSONAL = {"fide_id": "1503014", "federation": "NOR", "sex": "m", "birth_year": 1990}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _private(client: httpx.AsyncClient, **settings: Any) -> tuple[Event, str]:
    created = await client.post(
        "/v1/tournaments",
        json={"name": "Closed club final", "system": "round-robin", "visibility": "private"},
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["visibility"] == "private" and body["viewer_token"]
    event = Event(body["id"], body["organizer_token"], {})
    for name, rating in PLAYERS:
        added = await client.post(
            f"/v1/tournaments/{event.id}/players",
            json={"name": name, "rating": rating, **settings},
            headers=event.auth(),
        )
        assert added.status_code == 201, added.text
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    event.players = {t["start_number"]: t["token"] for t in started.json()["player_tokens"]}
    return event, body["viewer_token"]


async def _events(app: FastAPI, tournament_id: str) -> list[EventRow]:
    async with app.state.arbiter.sessions() as session:
        statement = (
            select(EventRow)
            .where(EventRow.tournament_id == tournament_id)
            .order_by(col(EventRow.seq))
        )
        return list((await session.exec(statement)).all())


def _problem(response: httpx.Response, status: int, field: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["field"] == field, body
    return body


READS = [
    "",
    "/players",
    "/rounds",
    "/rounds/1",
    "/standings",
    "/players/1/card",
    "/players/1/games",
    "/trf",
    "/stats",
]


async def test_a_private_tournament_is_read_only_with_one_of_its_tokens(
    client: httpx.AsyncClient,
) -> None:
    event, viewer = await _private(client)
    base = f"/v1/tournaments/{event.id}"
    for path in READS:
        _problem(await client.get(base + path), 401, "Authorization")
        for token in (viewer, event.organizer, event.players[3]):
            response = await client.get(base + path, headers=bearer(token))
            assert response.status_code == 200, (path, response.text)
        _problem(await client.get(base + path, headers=bearer("ply_guessed")), 401, "Authorization")
    # pages a browser opens take the token in the URL
    for page in ("/scoreboard", "/cards"):
        _problem(await client.get(base + page), 401, "Authorization")
        assert (await client.get(base + page, params={"token": viewer})).status_code == 200
        assert (await client.get(base + page, params={"token": "vwr_x"})).status_code == 401
    listed = (await client.get("/v1/tournaments", params={"limit": 200})).json()["items"]
    assert event.id not in {item["id"] for item in listed}


async def test_a_public_tournament_is_read_by_anyone_but_a_bad_token_is_refused(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, PLAYERS)
    base = f"/v1/tournaments/{event.id}"
    public = await client.get(base)
    assert public.status_code == 200 and public.json()["visibility"] == "public"
    _problem(await client.get(base, headers=bearer("org_not_mine")), 401, "Authorization")
    listed = (await client.get("/v1/tournaments", params={"limit": 200})).json()["items"]
    assert event.id in {item["id"] for item in listed}


async def test_viewer_and_player_tokens_on_organizer_endpoints_are_403_and_change_nothing(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    event, viewer = await _private(client)
    base = f"/v1/tournaments/{event.id}"
    before = len(await _events(app, event.id))
    for token in (viewer, event.players[1]):
        attempts = [
            client.post(f"{base}/players", json={"name": "Eve"}, headers=bearer(token)),
            client.patch(f"{base}/players/2", json={"name": "Eve"}, headers=bearer(token)),
            client.delete(f"{base}/players/2", headers=bearer(token)),
            client.post(f"{base}/start", headers=bearer(token)),
            client.post(f"{base}/rounds", headers=bearer(token)),
            client.patch(base, json={"name": "Mine now"}, headers=bearer(token)),
            client.delete(base, headers=bearer(token)),
            client.post(f"{base}/tokens/rotate", json={"role": "organizer"}, headers=bearer(token)),
            client.post(
                f"{base}/tokens/revoke",
                json={"role": "player", "start_number": 2},
                headers=bearer(token),
            ),
        ]
        for attempt in attempts:
            _problem(await attempt, 403, "Authorization")
    refused = await client.put(
        f"{base}/rounds/1/games/1/result", json={"result": "1-0"}, headers=bearer(viewer)
    )
    assert "viewer token only reads" in _problem(refused, 403, "Authorization")["detail"]
    assert len(await _events(app, event.id)) == before
    tournament = (await client.get(base, headers=event.auth())).json()
    assert tournament["name"] == "Closed club final"


async def test_personal_data_is_the_organizers_until_published(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, PLAYERS[:1], start=False)
    base = f"/v1/tournaments/{event.id}"
    for name, rating in PLAYERS[1:]:
        registered = await client.post(
            f"{base}/players",
            json={"name": name, "rating": rating, **PERSONAL, "identity": f"club:{name}"},
            headers=event.auth(),
        )
        assert registered.json()["fide_id"] == "1503014"  # the organizer's own response
    started = await client.post(f"{base}/start", headers=event.auth())
    player_token = started.json()["player_tokens"][0]["token"]

    def personal(players: list[dict[str, Any]]) -> set[Any]:
        keys = ("fide_id", "federation", "sex", "birth_year", "identity")
        return {p[k] for p in players for k in keys} - {None}

    anonymous = (await client.get(f"{base}/players")).json()
    assert personal(anonymous) == set()
    as_player = (await client.get(f"{base}/players", headers=bearer(player_token))).json()
    assert personal(as_player) == set()
    as_organizer = (await client.get(f"{base}/players", headers=event.auth())).json()
    assert {"1503014", "NOR", "m", 1990, "club:Bob"} <= personal(as_organizer)

    anonymous_trf = (await client.get(f"{base}/trf")).text
    organizer_trf = (await client.get(f"{base}/trf", headers=event.auth())).text
    assert "1503014" not in anonymous_trf and "NOR" not in anonymous_trf
    assert "1503014" in organizer_trf and "NOR" in organizer_trf
    assert "Bob" in anonymous_trf  # names, ratings and games stay

    for name, value in (("sex", "m"), ("born_from", 1980), ("born_to", 2000)):
        refused = await client.get(f"{base}/standings", params={name: value})
        _problem(refused, 403, name)
        allowed = await client.get(f"{base}/standings", params={name: value}, headers=event.auth())
        assert allowed.status_code == 200

    published = await client.patch(base, json={"publish_personal_data": True}, headers=event.auth())
    assert published.status_code == 200 and published.json()["publish_personal_data"] is True
    assert personal((await client.get(f"{base}/players")).json()) == personal(as_organizer)
    assert "1503014" in (await client.get(f"{base}/trf")).text
    assert (await client.get(f"{base}/standings", params={"sex": "m"})).status_code == 200


async def test_rotating_the_organizer_token_stops_the_old_one_at_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    event = await create_round_robin(client, PLAYERS)
    base = f"/v1/tournaments/{event.id}"
    rotated = await client.post(
        f"{base}/tokens/rotate", json={"role": "organizer"}, headers=event.auth()
    )
    assert rotated.status_code == 200, rotated.text
    issued = rotated.json()
    assert issued["role"] == "organizer" and issued["expires_at"] is None
    new = issued["token"]
    assert new != event.organizer
    _problem(
        await client.patch(base, json={"name": "Old"}, headers=event.auth()), 401, "Authorization"
    )
    assert (await client.patch(base, json={"name": "New"}, headers=bearer(new))).status_code == 200
    audit = [e for e in await _events(app, event.id) if e.type == "token_rotated"]
    assert [e.payload["role"] for e in audit] == ["organizer"]
    assert new not in str(audit[0].payload) and event.organizer not in str(audit[0].payload)


async def test_a_lost_phone_rotated_or_revoked(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    base = f"/v1/tournaments/{event.id}"
    games = (await client.get(f"{base}/rounds/1")).json()["games"]
    white = games[0]["white"]
    report = f"{base}/rounds/1/games/{games[0]['table']}/result"
    rotated = await client.post(
        f"{base}/tokens/rotate",
        json={"role": "player", "start_number": white},
        headers=event.auth(),
    )
    assert rotated.json()["start_number"] == white
    lost = await client.put(report, json={"result": "1-0"}, headers=event.auth(white))
    _problem(lost, 401, "Authorization")
    fresh = await client.put(
        report, json={"result": "1-0"}, headers=bearer(rotated.json()["token"])
    )
    assert fresh.status_code == 200 and fresh.json()["status"] == "provisional"

    revoked = await client.post(
        f"{base}/tokens/revoke",
        json={"role": "player", "start_number": white},
        headers=event.auth(),
    )
    assert revoked.status_code == 204
    again = await client.put(
        report, json={"result": "1-0"}, headers=bearer(rotated.json()["token"])
    )
    _problem(again, 401, "Authorization")


async def test_a_withdrawn_players_token_stops_writing(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, [*PLAYERS, ("Eve", 1700), ("Fay", 1600)])
    base = f"/v1/tournaments/{event.id}"
    games = (await client.get(f"{base}/rounds/1")).json()["games"]
    game = games[0]
    players = (await client.get(f"{base}/players")).json()
    player_id = next(p["id"] for p in players if p["start_number"] == game["white"])
    # the reported game stays the organizer's to decide; the withdrawal forfeits the rest
    withdrawn = await client.patch(
        f"{base}/players/{player_id}", json={"withdrawn": True}, headers=event.auth()
    )
    assert withdrawn.status_code == 200, withdrawn.text
    refused = await client.put(
        f"{base}/rounds/1/games/{game['table']}/result",
        json={"result": "1-0"},
        headers=event.auth(game["white"]),
    )
    assert "withdrawn" in _problem(refused, 403, "Authorization")["detail"]
    # still a reader of their tournament
    reading = await client.get(f"{base}/standings", headers=event.auth(game["white"]))
    assert reading.status_code == 200


async def test_an_expired_token_is_401_saying_so(client: httpx.AsyncClient, app: FastAPI) -> None:
    event, viewer = await _private(client)
    base = f"/v1/tournaments/{event.id}"
    soon = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    rotated = await client.post(
        f"{base}/tokens/rotate", json={"role": "viewer", "expires_at": soon}, headers=event.auth()
    )
    assert rotated.status_code == 200, rotated.text
    assert rotated.json()["expires_at"] is not None
    new_viewer = rotated.json()["token"]
    _problem(await client.get(base, headers=bearer(viewer)), 401, "Authorization")
    assert (await client.get(base, headers=bearer(new_viewer))).status_code == 200
    async with app.state.arbiter.sessions() as session:  # let time pass
        row = await session.get(TournamentRow, event.id)
        assert row is not None
        row.viewer_token_expires_at = datetime.now(UTC) - timedelta(minutes=1)
        player = (
            await session.exec(
                select(PlayerRow).where(
                    PlayerRow.tournament_id == event.id, PlayerRow.start_number == 1
                )
            )
        ).one()
        player.token_expires_at = datetime.now(UTC) - timedelta(seconds=1)
        session.add(row)
        session.add(player)
        await session.commit()
    expired = _problem(await client.get(base, headers=bearer(new_viewer)), 401, "Authorization")
    assert "expired" in expired["detail"] and expired["expired_at"]
    games = (await client.get(f"{base}/rounds/1", headers=event.auth())).json()["games"]
    table = next(g["table"] for g in games if 1 in (g["white"], g["black"]))
    report = await client.put(
        f"{base}/rounds/1/games/{table}/result", json={"result": "1-0"}, headers=event.auth(1)
    )
    assert "expired" in _problem(report, 401, "Authorization")["detail"]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"role": "player"}, 422, "start_number"),
        ({"role": "viewer", "start_number": 2}, 422, "start_number"),
        ({"role": "referee"}, 422, "role"),
        ({"role": "viewer", "expires_at": "2020-01-01T00:00:00Z"}, 422, "expires_at"),
        ({"role": "viewer", "expires_at": "2099-01-01T00:00:00"}, 422, "expires_at"),
        ({"role": "player", "start_number": 99}, 404, "start_number"),
        ({"role": "organizer", "token": "mine"}, 422, "token"),
    ],
)
async def test_bad_rotations_name_the_field_and_change_nothing(
    client: httpx.AsyncClient, app: FastAPI, body: dict[str, Any], status: int, field: str
) -> None:
    event = await create_round_robin(client, PLAYERS)
    before = len(await _events(app, event.id))
    response = await client.post(
        f"/v1/tournaments/{event.id}/tokens/rotate", json=body, headers=event.auth()
    )
    _problem(response, status, field)
    assert len(await _events(app, event.id)) == before
    assert (
        await client.get(f"/v1/tournaments/{event.id}", headers=event.auth())
    ).status_code == 200


async def test_the_organizer_token_is_rotated_not_revoked(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    response = await client.post(
        f"/v1/tournaments/{event.id}/tokens/revoke",
        json={"role": "organizer"},
        headers=event.auth(),
    )
    _problem(response, 422, "role")
    assert (
        await client.get(f"/v1/tournaments/{event.id}", headers=event.auth())
    ).status_code == 200


async def test_patch_changes_safe_settings_with_an_event(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    event = await create_round_robin(client, PLAYERS)
    base = f"/v1/tournaments/{event.id}"
    schedule = ["2026-12-01T18:00:00Z", "2026-12-08T18:00:00Z", "2026-12-15T18:00:00Z"]
    body = {
        "name": "Winter cup",
        "tiebreaks": ["DE", "SB"],
        "schedule": schedule,
        "time_control": {"base_minutes": 90, "increment_seconds": 30},
    }
    changed = await client.patch(base, json=body, headers=event.auth())
    assert changed.status_code == 200, changed.text
    document = changed.json()
    assert document["name"] == "Winter cup" and document["tiebreaks"] == ["DE", "SB"]
    assert document["time_control"] == {"base_minutes": 90, "increment_seconds": 30}
    assert document["viewer_token"] is None
    standings = (await client.get(f"{base}/standings")).json()
    assert standings["tiebreaks"] == ["DE", "SB"]
    event_rows = [e for e in await _events(app, event.id) if e.type == "settings_changed"]
    assert len(event_rows) == 1
    payload = event_rows[0].payload
    assert payload["before"]["name"] == "Test event" and payload["after"]["name"] == "Winter cup"
    assert set(payload["after"]) == set(body)
    # the same again changes nothing and records nothing
    again = await client.patch(base, json=body, headers=event.auth())
    assert again.status_code == 200
    assert len([e for e in await _events(app, event.id) if e.type == "settings_changed"]) == 1
    # null resets the tie-breaks to the system's default
    reset = await client.patch(base, json={"tiebreaks": None}, headers=event.auth())
    assert reset.json()["tiebreaks"] != ["DE", "SB"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rounds": 9}, "rounds"),
        ({"system": "swiss-dutch"}, "system"),
        ({"name": None}, "name"),
        ({"name": ""}, "name"),
        ({"tiebreaks": ["XYZ"]}, "tiebreaks.0"),
        ({"schedule": ["2026-12-01T18:00:00Z"] * 4}, "schedule"),
        ({"visibility": "secret"}, "visibility"),
        ({"time_control": {"base_minutes": 0}}, "time_control.base_minutes"),
        ({}, "body"),
    ],
)
async def test_patch_refuses_other_fields_naming_them(
    client: httpx.AsyncClient, app: FastAPI, body: dict[str, Any], field: str
) -> None:
    event = await create_round_robin(client, PLAYERS)
    before = len(await _events(app, event.id))
    response = await client.patch(f"/v1/tournaments/{event.id}", json=body, headers=event.auth())
    _problem(response, 422, field)
    assert len(await _events(app, event.id)) == before


async def test_making_a_tournament_private_issues_a_viewer_token(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, PLAYERS)
    base = f"/v1/tournaments/{event.id}"
    changed = await client.patch(base, json={"visibility": "private"}, headers=event.auth())
    viewer = changed.json()["viewer_token"]
    assert changed.json()["visibility"] == "private" and viewer
    _problem(await client.get(base), 401, "Authorization")
    assert (await client.get(base, headers=bearer(viewer))).status_code == 200
    public = await client.patch(base, json={"visibility": "public"}, headers=event.auth())
    assert public.json()["viewer_token"] is None
    assert (await client.get(base)).status_code == 200


async def test_archiving_hides_a_tournament_and_keeps_it_for_its_organizer(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    event = await create_round_robin(client, PLAYERS)
    base = f"/v1/tournaments/{event.id}"
    archived = await client.delete(base, headers=event.auth())
    assert archived.status_code == 204
    _problem(await client.get(base), 410, "tournament_id")
    _problem(await client.get(f"{base}/standings", headers=event.auth(1)), 410, "tournament_id")
    assert (await client.get(f"{base}/trf", headers=event.auth())).status_code == 200
    _problem(
        await client.patch(base, json={"name": "x"}, headers=event.auth()), 410, "tournament_id"
    )
    _problem(await client.delete(base, headers=event.auth()), 410, "tournament_id")
    listed = (await client.get("/v1/tournaments", params={"limit": 200})).json()["items"]
    assert event.id not in {item["id"] for item in listed}
    assert (await _events(app, event.id))[-1].type == "tournament_archived"


async def test_authorize_read_for_the_live_channel(client: httpx.AsyncClient, app: FastAPI) -> None:
    event, viewer = await _private(client, **PERSONAL)
    async with app.state.arbiter.sessions() as session:
        row = await session.get(TournamentRow, event.id)
        assert row is not None
        with pytest.raises(Unauthenticated):
            await authorize_read(session, row, None)
        with pytest.raises(Unauthenticated):
            await authorize_read(session, row, "vwr_wrong")
        reader = await authorize_read(session, row, viewer)
        assert reader is not None and reader.role == "viewer"
        player = await authorize_read(session, row, event.players[2])
        assert player is not None and (player.role, player.start_number) == ("player", 2)
        organizer = await authorize_read(session, row, event.organizer)
        added = next(e for e in await _events(app, event.id) if e.type == "player_added")
        assert "fide_id" not in event_view(row, reader, added.type, added.payload)
        assert event_view(row, organizer, added.type, added.payload)["fide_id"] == "1503014"
    assert (
        await client.delete(f"/v1/tournaments/{event.id}", headers=event.auth())
    ).status_code == 204
    async with app.state.arbiter.sessions() as session:
        row = await session.get(TournamentRow, event.id)
        assert row is not None
        with pytest.raises(Gone):
            await authorize_read(session, row, viewer)
        assert await authorize_read(session, row, event.organizer) is not None


async def _one_game_flampark(
    client: httpx.AsyncClient, name: str, **settings: Any
) -> dict[str, Any]:
    created = await client.post(
        "/v1/tournaments",
        json={"name": name, "system": "flampark", "rounds": 1, **settings},
    )
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    auth = bearer(body["organizer_token"])
    for player, rating, fide in ((f"{name} A", 2999, "99000001"), (f"{name} B", 1000, None)):
        added = await client.post(
            f"/v1/tournaments/{body['id']}/players",
            json={"name": player, "rating": rating, "fide_id": fide},
            headers=auth,
        )
        assert added.status_code == 201, added.text
    await client.post(f"/v1/tournaments/{body['id']}/start", headers=auth)
    reported = await client.put(
        f"/v1/tournaments/{body['id']}/rounds/1/games/1/result",
        json={"result": "1-0"},
        headers=auth,
    )
    assert reported.status_code == 200, reported.text
    return body


async def test_flampark_lists_leave_out_private_tournaments_and_unpublished_ids(
    client: httpx.AsyncClient,
) -> None:
    hidden = await _one_game_flampark(client, "Hidden", visibility="private")
    shown = await _one_game_flampark(client, "Shown")
    best = (await client.get("/v1/flampark/best-games", params={"limit": 100})).json()
    tournaments = {g["tournament"]["id"] for g in best}
    assert shown["id"] in tournaments and hidden["id"] not in tournaments
    ranking = (await client.get("/v1/flampark/players", params={"limit": 1000})).json()
    names = {p["name"]: p for p in ranking["players"]}
    assert "Hidden A" not in names
    mine = names["Shown A"]
    assert mine["fide_id"] is None and "99000001" not in mine["identity"]
    assert mine["identity"].startswith(f"entry:{shown['id']}:")


def test_a_token_in_a_url_never_reaches_the_server_logs(app: FastAPI) -> None:
    del app  # creating the app installs the filter
    for name, message, args in (
        (
            "uvicorn.access",
            '%s - "%s %s HTTP/%s" %d',
            ("1.2.3.4", "GET", "/x/cards?token=vwr_secret&a=1", "1.1", 200),
        ),
        (
            "uvicorn.error",
            '%s - "WebSocket %s" [accepted]',
            ("1.2.3.4", "/v1/tournaments/x/live?since=3&token=ply_secret"),
        ),
    ):
        logger = logging.getLogger(name)
        record = logger.makeRecord(name, logging.INFO, __file__, 1, message, args, None)
        for log_filter in logger.filters:
            assert isinstance(log_filter, logging.Filter)
            log_filter.filter(record)
        text = record.getMessage()
        assert "secret" not in text and "token=***" in text
