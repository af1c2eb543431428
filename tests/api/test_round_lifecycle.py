"""A tournament's way from round to round through the API: a Swiss round with no game
(every player had a bye) is complete once paired, a withdrawn player is granted no
requested bye and loses the byes announced for them, registration closes once every
round is paired, and each refusal says what can still be done."""

from __future__ import annotations

from typing import Any

import httpx

from service.engine.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    Tournament,
)
from service.engine.trf import TrfDocument, parse_trf, write_trf
from tests.api.conftest import Event, create_round_robin
from tests.api.test_swiss_api import confirm_all, pair

PREFIX = "urn:arbiter:problem:"
FOUR = [(f"Player {n}", 2400 - 100 * n) for n in range(1, 5)]


async def tournament(client: httpx.AsyncClient, event: Event) -> dict[str, Any]:
    body: dict[str, Any] = (await client.get(f"/v1/tournaments/{event.id}")).json()
    return body


async def points(client: httpx.AsyncClient, event: Event) -> dict[int, float]:
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    return {row["start_number"]: row["points"] for row in rows}


async def withdraw(client: httpx.AsyncClient, event: Event, start_number: int) -> httpx.Response:
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    player = next(p for p in players if p["start_number"] == start_number)
    return await client.patch(
        f"/v1/tournaments/{event.id}/players/{player['id']}",
        json={"withdrawn": True},
        headers=event.auth(),
    )


def everyone(kind: str, numbers: range) -> list[dict[str, Any]]:
    return [{"player": n, "type": kind} for n in numbers]


async def test_a_last_round_of_byes_only_finishes_the_tournament(
    client: httpx.AsyncClient,
) -> None:
    """Every player asked for a bye in the last round: it has no game to wait for, so
    the tournament is finished as soon as it is paired (it used to stay `running`, and
    the next POST paired a round past the declared number)."""
    event = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=2)
    assert (await pair(client, event)).status_code == 201
    await confirm_all(client, event, 1)
    last = await pair(client, event, byes=everyone("half-point", range(1, 5)))
    assert last.status_code == 201, last.text
    assert last.json()["games"] == [] and len(last.json()["byes"]) == 4
    state = await tournament(client, event)
    assert (state["status"], state["current_round"]) == ("finished", 2)
    again = await pair(client, event)
    assert again.status_code == 409
    assert "finished" in again.json()["detail"]
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/3")).status_code == 404
    listed = (await client.get(f"/v1/tournaments/{event.id}/rounds")).json()["rounds"]
    assert [(r["round"], r["games"], r["byes"], r["complete"]) for r in listed] == [
        (1, 2, 0, True),
        (2, 0, 4, True),
    ]
    round_one = {n: 0.0 for n in range(1, 5)}
    for game in (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]:
        white, black = game["white"], game["black"]
        if game["result"] == "1-0":
            round_one[white] += 1
        else:
            round_one[white] += 0.5
            round_one[black] += 0.5
    assert await points(client, event) == {n: p + 0.5 for n, p in round_one.items()}


async def test_a_round_of_byes_only_is_complete_once_paired(client: httpx.AsyncClient) -> None:
    """A middle round with no game: the tournament stays `running` with that round as
    the current one, and the next round pairs at once."""
    event = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=3)
    first = await pair(client, event, byes=everyone("zero-point", range(1, 5)))
    assert first.status_code == 201, first.text
    assert first.json()["games"] == []
    state = await tournament(client, event)
    assert (state["status"], state["current_round"]) == ("running", 1)
    second = await pair(client, event, byes=[{"player": 1, "type": "half-point"}])
    assert second.status_code == 201, second.text
    assert second.json()["round"] == 2 and len(second.json()["games"]) == 1
    assert {"player": 1, "type": "half-point"} in second.json()["byes"]
    await confirm_all(client, event, 2)
    assert (await tournament(client, event))["current_round"] == 2
    assert (await pair(client, event)).json()["round"] == 3
    await confirm_all(client, event, 3)
    assert (await tournament(client, event))["status"] == "finished"


async def test_a_withdrawn_player_is_granted_no_requested_bye(client: httpx.AsyncClient) -> None:
    """A half- or full-point bye scores a round of a player still in the tournament; a
    withdrawn player is not (it used to grant them a full point that counted). Their
    zero-point entry may still be listed."""
    event = await create_round_robin(
        client, [*FOUR, ("Player 5", 1800)], system="swiss-dutch", rounds=3
    )
    assert (await withdraw(client, event, 5)).status_code == 200
    for kind in ("full-point", "half-point"):
        refused = await pair(
            client, event, byes=[{"player": 1, "type": "half-point"}, {"player": 5, "type": kind}]
        )
        assert refused.status_code == 422, refused.text
        body = refused.json()
        assert body["type"] == PREFIX + "invalid-bye" and body["field"] == "byes.1.player"
        assert "withdrawn" in body["detail"] and "FIDE" in body["detail"]
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).status_code == 404
    paired = await pair(client, event, byes=[{"player": 5, "type": "zero-point"}])
    assert paired.status_code == 201, paired.text
    assert {"player": 5, "type": "zero-point"} in paired.json()["byes"]
    await confirm_all(client, event, 1)
    assert (await points(client, event))[5] == 0


async def test_a_withdrawal_cancels_the_byes_announced_for_the_player(
    client: httpx.AsyncClient,
) -> None:
    """An imported file announced a full-point bye for player 2 in round 2; player 2
    withdraws before round 2 is paired: the bye is cancelled (the TRF export announces
    their zero-point bye instead), and the round gives them the withdrawn player's
    zero-point bye."""
    players = tuple(Player(n, name=f"Player {n}", rating=2400 - 100 * n) for n in range(1, 6))
    round_one = Round(
        1,
        (
            Game(1, 1, 3, GameResult.WHITE_WINS, table=1),
            Game(1, 4, 2, GameResult.DRAW, table=2),
        ),
        (Bye(1, 5, ByeKind.PAIRING_ALLOCATED),),
    )
    doc = TrfDocument(
        Tournament(players, (round_one,), total_rounds=3),
        next_round_byes=(Bye(2, 2, ByeKind.FULL_POINT), Bye(2, 4, ByeKind.HALF_POINT)),
    )
    created = await client.post(
        "/v1/tournaments/import",
        content=write_trf(doc).encode(),
        headers={"content-type": "text/plain"},
    )
    assert created.status_code == 201, created.text
    event = Event(created.json()["id"], created.json()["organizer_token"], {})
    announced = parse_trf((await client.get(f"/v1/tournaments/{event.id}/trf")).text)
    assert {b.player for b in announced.next_round_byes} == {2, 4}
    assert (await withdraw(client, event, 2)).status_code == 200
    exported = parse_trf((await client.get(f"/v1/tournaments/{event.id}/trf")).text)
    # the export announces the withdrawn player's zero-point bye instead (TRF-26 240)
    assert exported.next_round_byes == (
        Bye(2, 2, ByeKind.ZERO_POINT),
        Bye(2, 4, ByeKind.HALF_POINT),
    )
    second = await pair(client, event)
    assert second.status_code == 201, second.text
    byes = {b["player"]: b["type"] for b in second.json()["byes"]}
    assert byes[2] == "zero-point" and byes[4] == "half-point"


async def test_no_late_entry_once_every_round_is_paired(client: httpx.AsyncClient) -> None:
    """A late entry joins the rounds still to be paired (FIDE C.04.A); with none left
    the entry could play nothing, so registration is closed."""
    event = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=2)
    await pair(client, event)
    await confirm_all(client, event, 1)
    await pair(client, event)
    late = await client.post(
        f"/v1/tournaments/{event.id}/players",
        json={"name": "Late Comer", "rating": 2000},
        headers=event.auth(),
    )
    assert late.status_code == 409, late.text
    detail = late.json()["detail"]
    assert "registration is closed" in detail and "all 2 rounds are paired" in detail
    assert len((await client.get(f"/v1/tournaments/{event.id}/players")).json()) == 4
    await confirm_all(client, event, 2)
    after = await client.post(
        f"/v1/tournaments/{event.id}/players",
        json={"name": "Late Comer", "rating": 2000},
        headers=event.auth(),
    )
    assert after.status_code == 409
    assert "finished" in after.json()["detail"]
    assert "late entry" not in after.json()["detail"]


async def test_a_finished_tournament_does_not_suggest_a_withdrawal(
    client: httpx.AsyncClient,
) -> None:
    """The 409 used to answer a refused withdrawal with "only a withdrawal (PATCH with
    {"withdrawn": true}) ... changes the field now"."""
    event = await create_round_robin(client, FOUR)
    for n in (1, 2, 3):
        await confirm_all(client, event, n)
    assert (await tournament(client, event))["status"] == "finished"
    refused = await withdraw(client, event, 4)
    assert refused.status_code == 409
    detail = refused.json()["detail"]
    assert "finished" in detail
    assert "withdrawn" not in detail and "late entry" not in detail
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    assert not any(p["withdrawn"] for p in players)
