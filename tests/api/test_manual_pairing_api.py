"""Manual pairings through the API (docs/api.md#manual-pairings): `PUT /rounds/{n}`
replaces the last round's pairing before any result (200: the round, its warnings and
the engine's pairing), `DELETE /rounds/{n}` takes it back (204); bad input is a
problem naming the entry, a round with a result a 409, and nothing is stored."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.conftest import Event, create_round_robin
from tests.api.test_swiss_api import confirm_all, event_log, pair

FOUR = [(f"Player {n}", 2500 - 100 * n) for n in range(1, 5)]
FIVE = [(f"Player {n}", 2500 - 100 * n) for n in range(1, 6)]
WHITE_FIRST = {"initial_colour": "white"}
PREFIX = "urn:arbiter:problem:"


async def put_round(
    client: httpx.AsyncClient,
    event: Event,
    n: int,
    games: list[tuple[int, int]],
    byes: list[dict[str, Any]] | None = None,
    *,
    player: int | None = None,
) -> httpx.Response:
    body = {"games": [{"white": w, "black": b} for w, b in games], "byes": byes or []}
    return await client.put(
        f"/v1/tournaments/{event.id}/rounds/{n}", json=body, headers=event.auth(player)
    )


async def test_a_round_replaced_and_its_warnings(client: httpx.AsyncClient) -> None:
    """Round 1: 1-3 1-0, 4-2 drawn (scores 1, 1/2, 1/2, 0). Round 2 by hand repeats it:
    two rematches (C.04.1 b, errors), and all four players miss their colour preference,
    strong after one game (C12, C13: 4 against 0 for the engine's 1-2, 3-4). It floats
    fewer players than the engine (1 onto 3 only; the engine must float 1 onto 2 and 4
    onto 3, as 4-2 is a rematch), so C6 and C7 earn no warning."""
    event = await create_round_robin(
        client, FOUR, system="swiss-dutch", rounds=3, swiss=WHITE_FIRST
    )
    assert (await pair(client, event)).status_code == 201
    first = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
    assert [(g["white"], g["black"]) for g in first["games"]] == [(1, 3), (4, 2)]
    await confirm_all(client, event, 1)  # 1-0 at table 1, a draw at table 2
    assert (await pair(client, event)).status_code == 201
    answer = await put_round(client, event, 2, [(1, 3), (4, 2)])
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert [(g["table"], g["white"], g["black"], g["status"]) for g in body["games"]] == [
        (1, 1, 3, "pending"),
        (2, 4, 2, "pending"),
    ]
    graded = [(w["severity"], w["rule"], w["players"]) for w in body["warnings"]]
    assert graded[:2] == [("error", "C.04.1 b", [1, 3]), ("error", "C.04.1 b", [4, 2])]
    assert graded[2:] == [
        ("warning", "C.04.3 C12", [1, 3, 4, 2]),
        ("warning", "C.04.3 C13", [1, 3, 4, 2]),
    ]
    engine = body["engine"]
    assert engine["round"] == 2
    assert [(g["white"], g["black"]) for g in engine["games"]] == [(2, 1), (3, 4)]
    stored = (await client.get(f"/v1/tournaments/{event.id}/rounds/2")).json()
    assert [(g["white"], g["black"]) for g in stored["games"]] == [(1, 3), (4, 2)]
    log = await event_log(client, event)
    assert log[-1].type == "round_repaired"
    assert log[-1].payload["by"] == "organizer" and log[-1].payload["round"] == 2
    assert "C.04.1 b" in log[-1].payload["warnings"]
    # swapping the boards is a PUT of the list the other way round
    swapped = await put_round(client, event, 2, [(4, 2), (1, 3)])
    assert [(g["table"], g["white"]) for g in swapped.json()["games"]] == [(1, 4), (2, 1)]


async def test_bad_input_names_the_entry(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIVE, system="swiss-dutch", rounds=3)
    assert (await pair(client, event)).status_code == 201
    before = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()
    seq = len(await event_log(client, event))
    cases: list[tuple[list[tuple[int, int]], list[dict[str, Any]], str]] = [
        ([(1, 2), (3, 4), (5, 1)], [], "games[2].black"),
        ([(1, 2), (3, 4)], [{"player": 6, "type": "zero-point"}], "byes[0].player"),
        ([(1, 2), (3, 4)], [], "games"),
    ]
    for games, byes, field in cases:
        answer = await put_round(client, event, 1, games, byes)
        assert answer.status_code == 422, answer.text
        problem = answer.json()
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert problem["type"] == PREFIX + "invalid-input" and problem["field"] == field
    malformed = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1",
        json={"games": [{"white": 1}]},
        headers=event.auth(),
    )
    assert malformed.status_code == 422
    by_player = await put_round(client, event, 1, [(1, 2), (3, 4)], [], player=1)
    assert by_player.status_code == 403
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json() == before
    assert len(await event_log(client, event)) == seq


async def test_a_round_with_a_result_is_409(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=3)
    assert (await pair(client, event)).status_code == 201
    reported = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
        json={"result": "1-0"},
        headers=event.auth(),
    )
    assert reported.status_code == 200
    answer = await put_round(client, event, 1, [(1, 2), (3, 4)])
    assert answer.status_code == 409 and answer.json()["tables"] == [1]
    gone = await client.delete(f"/v1/tournaments/{event.id}/rounds/1", headers=event.auth())
    assert gone.status_code == 409
    # the next round is paired by hand once round 1's results are all confirmed
    unconfirmed = await put_round(client, event, 2, [(1, 2), (3, 4)])
    assert unconfirmed.status_code == 409 and unconfirmed.json()["tables"] == [2]
    beyond = await put_round(client, event, 3, [(1, 2), (3, 4)])
    assert beyond.status_code == 404


async def test_unpair_and_pair_again_with_a_late_bye(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FOUR, system="swiss-dutch", rounds=3)
    assert (await pair(client, event)).status_code == 201
    gone = await client.delete(f"/v1/tournaments/{event.id}/rounds/1", headers=event.auth())
    assert gone.status_code == 204, gone.text
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).status_code == 404
    assert (await event_log(client, event))[-1].type == "round_unpaired"
    again = await pair(client, event, byes=[{"player": 2, "type": "half-point"}])
    assert again.status_code == 201, again.text
    byes = sorted((b["player"], b["type"]) for b in again.json()["byes"])
    # three to pair: player 4, the lowest, gets the pairing-allocated bye
    assert byes == [(2, "half-point"), (4, "pairing-allocated")]
