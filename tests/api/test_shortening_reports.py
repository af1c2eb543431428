"""Who records a FLAMPARK time shortening (Formuła FLAMPARK, "Premia za szybkość gry Pt"): the
arbiter, who sets it on the clock before the game. A player's report never carries one,
whatever the game's state; the organizer's shortening and every change of it is a result
event that keeps the previous value; a shortening on a game that was not played is
refused rather than stored and ignored."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from service.db.events import events_since
from tests.api.test_flampark_scoring_api import flampark_event, games, report

PREFIX = "urn:arbiter:problem:"


async def player_report(
    client: httpx.AsyncClient, event: Any, who: int, table: int, result: str, **more: Any
) -> httpx.Response:
    return await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result",
        json={"result": result, **more},
        headers=event.auth(who),
    )


async def results_log(client: httpx.AsyncClient, event: Any) -> list[dict[str, Any]]:
    """The payloads of the tournament's result events, oldest first."""
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.arbiter.sessions() as session:
        rows = await events_since(session, event.id, 0)
    return [dict(row.payload, type=row.type) for row in rows if row.type.startswith("result_")]


def refused_as_the_arbiters(response: httpx.Response) -> None:
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["type"] == PREFIX + "shortening-by-arbiter", body
    assert body["field"] == "time_shortened_minutes"
    assert "arbiter" in body["detail"] and "FLAMPARK rules" in body["detail"]


async def test_neither_player_may_set_the_shortening(client: httpx.AsyncClient) -> None:
    """The higher-rated player (whose time it is) and the lower-rated one alike: the
    shortening moves points between both, and only the arbiter's word sets it."""
    event = await flampark_event(client)
    game = (await games(client, event, 1))[0]
    higher, lower = sorted((game["white"], game["black"]))
    for who in (higher, lower):
        response = await player_report(
            client, event, who, game["table"], "1-0", time_shortened_minutes=10
        )
        refused_as_the_arbiters(response)
    after = (await games(client, event, 1))[0]
    assert (after["status"], after["reports"], after["extra"]) == ("pending", {}, {})
    assert await results_log(client, event) == []


async def test_the_opponents_agreement_confirms_no_shortening(client: httpx.AsyncClient) -> None:
    """Two agreeing player reports confirm the result alone: no Pt for either side."""
    event = await flampark_event(client)
    game = (await games(client, event, 1))[0]
    higher, lower = sorted((game["white"], game["black"]))
    refused_as_the_arbiters(
        await player_report(client, event, higher, game["table"], "1-0", time_shortened_minutes=15)
    )
    for who in (higher, lower):
        response = await player_report(client, event, who, game["table"], "1-0")
        assert response.status_code == 200, response.text
    assert response.json()["status"] == "confirmed" and response.json()["extra"] == {}
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    points = {r["start_number"]: r["flampark"]["Pt"] for r in rows if r["flampark"]["PF"]}
    assert points == {higher: 0, lower: 0}


async def test_a_players_change_on_a_confirmed_game_is_refused(client: httpx.AsyncClient) -> None:
    """It used to answer 200 and change nothing."""
    event = await flampark_event(client)
    game = (await games(client, event, 1))[0]
    higher, lower = sorted((game["white"], game["black"]))
    for who in (higher, lower):
        await player_report(client, event, who, game["table"], "1/2-1/2")
    before = await results_log(client, event)
    for minutes in (15, 0):
        refused_as_the_arbiters(
            await player_report(
                client, event, higher, game["table"], "1/2-1/2", time_shortened_minutes=minutes
            )
        )
    assert await results_log(client, event) == before


async def test_the_arbiters_shortening_and_its_changes_are_events(
    client: httpx.AsyncClient,
) -> None:
    """The organizer sets it on a confirmed game, changes it, takes it back to 0: each
    is a `result_corrected` event that names the value it replaced; the standings
    follow. Sending the same again changes nothing."""
    event = await flampark_event(client)
    game = (await games(client, event, 1))[0]
    table, higher = game["table"], min(game["white"], game["black"])
    for who in (game["white"], game["black"]):
        await player_report(client, event, who, table, "1-0")
    pt: dict[float, float] = {}
    for minutes in (6, 0):
        response = await report(client, event, 1, table, "1-0", time_shortened_minutes=minutes)
        assert response.status_code == 200, response.text
        assert response.json()["extra"] == {"time_shortened_minutes": minutes}
        rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
        pt[minutes] = next(r["flampark"]["Pt"] for r in rows if r["start_number"] == higher)
    assert pt == {6: pytest.approx(25 * 6 / 15), 0: 0}
    log = await results_log(client, event)
    assert [e["type"] for e in log] == [
        "result_reported",
        "result_confirmed",
        "result_corrected",
        "result_corrected",
    ]
    assert log[2]["previous"]["extra"] == {} and log[2]["time_shortened_minutes"] == 6
    assert log[3]["previous"]["extra"] == {"time_shortened_minutes": 6}
    assert log[3]["time_shortened_minutes"] == 0
    repeat = await report(client, event, 1, table, "1-0", time_shortened_minutes=0)
    assert repeat.status_code == 200
    assert len(await results_log(client, event)) == len(log)


@pytest.mark.parametrize("result", ["+-", "-+", "--"])
async def test_no_shortening_on_a_game_not_played(client: httpx.AsyncClient, result: str) -> None:
    """A forfeit counts no Pt (the FLAMPARK text values the forfeited game at Pc - 50 alone): a
    shortening sent with one would be stored and never count, so it is refused."""
    event = await flampark_event(client)
    game = (await games(client, event, 1))[0]
    response = await report(client, event, 1, game["table"], result, time_shortened_minutes=5)
    assert response.status_code == 422, response.text
    assert response.json()["type"] == PREFIX + "invalid-shortening"
    assert response.json()["field"] == "time_shortened_minutes"
    assert (await games(client, event, 1))[0]["status"] == "pending"
    fine = await report(client, event, 1, game["table"], result, time_shortened_minutes=0)
    assert fine.status_code == 200, fine.text
