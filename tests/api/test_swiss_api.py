"""Swiss tournaments through the API: pairing round by round (FIDE Dutch, JCA), the 409
that names open tables, announced byes, and the stateless compute endpoints."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from service.db.events import events_since
from service.db.tables import EventRow
from service.engine.model import MAX_PLAYER_ROUNDS
from service.engine.pairing import dutch
from service.engine.trf import parse_trf, rounds_prefix, write_trf
from tests.api.conftest import Event, create_round_robin
from tests.data import ORACLE_DUTCH

FIELD = [(f"Player {n:02d}", 2500 - 25 * n) for n in range(1, 12)]  # eleven: a bye a round


async def pair(client: httpx.AsyncClient, event: Event, **body: Any) -> httpx.Response:
    return await client.post(
        f"/v1/tournaments/{event.id}/rounds", json=body or None, headers=event.auth()
    )


async def confirm_all(client: httpx.AsyncClient, event: Event, n: int) -> None:
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
    for game in games:
        result = "1-0" if game["white"] < game["black"] else "1/2-1/2"
        response = await client.put(
            f"/v1/tournaments/{event.id}/rounds/{n}/games/{game['table']}/result",
            json={"result": result},
            headers=event.auth(),
        )
        assert response.status_code == 200


async def event_log(client: httpx.AsyncClient, event: Event) -> list[EventRow]:
    """The tournament's event log, read from the app's database."""
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.arbiter.sessions() as session:
        return await events_since(session, event.id, 0)


@pytest.mark.parametrize("system", ["swiss-dutch", "swiss-jca"])
async def test_swiss_round_by_round(client: httpx.AsyncClient, system: str) -> None:
    event = await create_round_robin(
        client, FIELD, system=system, rounds=3, swiss={"initial_colour": "white", "seed": 5}
    )
    assert (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).status_code == 404
    first = await pair(client, event)
    assert first.status_code == 201, first.text
    body = first.json()
    assert body["round"] == 1 and len(body["games"]) == 5
    assert [b["type"] for b in body["byes"]] == ["pairing-allocated"]
    if system == "swiss-dutch":
        assert body["games"][0]["white"] == 1  # XXC white1: top player has white
    # the next round waits for every result
    blocked = await pair(client, event)
    assert blocked.status_code == 409
    assert blocked.json()["field"] == "round"
    assert blocked.json()["tables"] == [1, 2, 3, 4, 5]
    await confirm_all(client, event, 1)
    second = await pair(client, event, byes=[{"player": 2, "type": "half-point"}])
    assert second.status_code == 201, second.text
    byes = {b["player"]: b["type"] for b in second.json()["byes"]}
    assert byes[2] == "half-point" and len(second.json()["games"]) == 5
    pairs_1 = {frozenset((g["white"], g["black"])) for g in body["games"]}
    pairs_2 = {frozenset((g["white"], g["black"])) for g in second.json()["games"]}
    assert not pairs_1 & pairs_2  # no rematch
    await confirm_all(client, event, 2)
    await pair(client, event)
    await confirm_all(client, event, 3)
    done = await pair(client, event)
    assert done.status_code == 409
    assert (await client.get(f"/v1/tournaments/{event.id}")).json()["status"] == "finished"


async def test_pairing_matches_the_engine(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(
        client, FIELD, system="swiss-dutch", rounds=5, swiss={"initial_colour": "black"}
    )
    await pair(client, event)
    await confirm_all(client, event, 1)
    second = (await pair(client, event, byes=[{"player": 11, "type": "zero-point"}])).json()
    trf = (await client.get(f"/v1/tournaments/{event.id}/trf")).text
    doc = parse_trf(trf)
    before = rounds_prefix(doc, 1)
    from dataclasses import replace

    from service.engine.model import Colour

    engine = dutch.pair_round(
        replace(before.tournament, initial_colour=Colour.BLACK), byes=before.next_round_byes
    )
    assert [(g["white"], g["black"]) for g in second["games"]] == [
        (g.white, g.black) for g in engine.games
    ]


async def test_pairing_errors(client: httpx.AsyncClient) -> None:
    round_robin = await create_round_robin(client, FIELD[:4])
    response = await pair(client, round_robin)
    assert response.status_code == 409 and response.json()["field"] == "system"
    swiss = await create_round_robin(client, FIELD, system="swiss-dutch", rounds=3)
    bad = await pair(client, swiss, byes=[{"player": 99, "type": "half-point"}])
    assert bad.status_code == 422 and bad.json()["field"] == "byes.0.player"
    twice = await pair(
        client,
        swiss,
        byes=[{"player": 1, "type": "half-point"}, {"player": 1, "type": "zero-point"}],
    )
    assert twice.status_code == 422
    kind = await pair(client, swiss, byes=[{"player": 1, "type": "pairing-allocated"}])
    assert kind.status_code == 422 and kind.json()["field"] == "byes.0.type"
    player = await client.post(f"/v1/tournaments/{swiss.id}/rounds", headers=swiss.auth(1))
    assert player.status_code == 403
    assert (await client.get(f"/v1/tournaments/{swiss.id}/rounds/1")).status_code == 404
    missing_rounds = await client.post(
        "/v1/tournaments", json={"name": "S", "system": "swiss-dutch"}
    )
    assert missing_rounds.status_code == 422 and missing_rounds.json()["field"] == "rounds"


async def test_explain_gives_notes(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIELD, system="swiss-dutch", rounds=3)
    response = await client.post(
        f"/v1/tournaments/{event.id}/rounds", params={"explain": "true"}, headers=event.auth()
    )
    assert response.status_code == 201
    assert response.json()["notes"]


ORACLE = ORACLE_DUTCH / "v0004.trf"


async def test_compute_pairings_from_trf(client: httpx.AsyncClient) -> None:
    doc = parse_trf(ORACLE.read_text())
    before = rounds_prefix(doc, 2)
    response = await client.post(
        "/v1/compute/pairings",
        params={"system": "dutch"},
        content=write_trf(before).encode(),
        headers={"content-type": "text/plain"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["round"] == 3
    played = doc.tournament.rounds[2]
    assert {(p["white"], p["black"]) for p in body["pairings"]} == {
        (g.white, g.black) for g in played.games
    }
    assert {b["player"]: b["type"] for b in body["byes"]} == {
        b.player: b.kind.value for b in played.byes
    }


async def test_compute_pairings_from_json(client: httpx.AsyncClient) -> None:
    players = [{"id": f"p{n}", "rating": 2000 - n} for n in range(6)]
    body = {"players": players, "rounds": 3, "initial_colour": "white"}
    response = await client.post("/v1/compute/pairings", json=body)
    assert response.status_code == 200, response.text
    pairs = response.json()["pairings"]
    assert [(p["white"], p["black"]) for p in pairs] == [("p0", "p3"), ("p4", "p1"), ("p2", "p5")]
    unknown = await client.post(
        "/v1/compute/pairings",
        json={**body, "games": [{"round": 1, "white": "p0", "black": "zz", "result": "1-0"}]},
    )
    assert unknown.status_code == 422 and unknown.json()["field"] == "games.0.black"
    bad_system = await client.post("/v1/compute/pairings?system=knockout", json=body)
    assert bad_system.status_code == 422 and bad_system.json()["field"] == "system"


async def test_compute_standings_json_and_trf(client: httpx.AsyncClient) -> None:
    body = {
        "points": {"win": 1, "draw": 0.5, "loss": 0, "bye": 1},
        "players": [{"id": "a", "rating": 2000}, {"id": "b", "rating": 1900}, {"id": "c"}],
        "games": [
            {"round": 1, "white": "a", "black": "b", "result": "1-0"},
            {"round": 2, "white": "c", "black": "a", "result": "1/2-1/2"},
        ],
        "byes": [{"round": 1, "player": "c", "type": "pairing-allocated"}],
        "tiebreaks": ["BH", "SB"],
        "edition": "2026",
    }
    response = await client.post("/v1/compute/standings", json=body)
    assert response.status_code == 200, response.text
    rows = response.json()["rows"]
    assert {r["id"]: r["points"] for r in rows} == {"a": 1.5, "b": 0, "c": 1.5}
    assert rows[-1]["id"] == "b"
    assert set(rows[0]["tiebreaks"]) == {"BH", "SB"}
    trf = await client.post(
        "/v1/compute/standings?tiebreaks=BH-C1,SB",
        content=ORACLE.read_bytes(),
        headers={"content-type": "text/plain"},
    )
    assert trf.status_code == 200
    assert trf.json()["rows"][0]["id"] == 1 and trf.json()["tiebreaks"] == ["BH-C1", "SB"]
    bad = await client.post("/v1/compute/standings?tiebreaks=XYZ", content=ORACLE.read_bytes())
    assert bad.status_code == 422
    invalid = await client.post("/v1/compute/standings", json={"players": []})
    assert invalid.status_code == 422 and invalid.json()["field"] == "players"


async def test_compute_refuses_a_span_past_the_bound(client: httpx.AsyncClient) -> None:
    """Players times the last round named: at most MAX_PLAYER_ROUNDS, as for a TRF file.
    2,000 players and one game in round 501 would have the standings walk a million
    player-rounds; the request names the field instead."""
    players = [{"id": f"p{n}"} for n in range(2000)]

    def body(last_round: int) -> dict[str, Any]:
        game = {"round": last_round, "white": "p0", "black": "p1", "result": "1-0"}
        return {"players": players, "games": [game], "tiebreaks": ["WIN"]}

    assert MAX_PLAYER_ROUNDS == 2000 * 500
    refused = await client.post("/v1/compute/standings", json=body(501))
    assert refused.status_code == 422, refused.text
    assert refused.json()["field"] == "games"
    message = refused.json()["errors"][0]["message"]
    assert message.startswith("2,000 players over 501 rounds span 1,002,000 player-rounds")
    assert (await client.post("/v1/compute/standings", json=body(1))).status_code == 200


async def test_varma_draw(client: httpx.AsyncClient) -> None:
    feds = ["POL"] * 4 + ["GER"] * 3 + ["FRA"] * 2 + ["ITA"]
    players = [{"id": f"p{n}", "federation": f} for n, f in enumerate(feds)]
    first = await client.post("/v1/compute/varma", json={"players": players, "seed": 42})
    again = await client.post("/v1/compute/varma", json={"players": players, "seed": 42})
    assert first.status_code == 200, first.text
    numbers = first.json()["start_numbers"]
    assert sorted(numbers.values()) == list(range(1, 11))
    assert numbers == again.json()["start_numbers"]
    sets = first.json()["sets"]
    from service.engine.pairing.varma import varma_draw, varma_sets

    assert sets == {name: list(values) for name, values in varma_sets(10).items()}
    assert numbers == varma_draw([(p["id"], p["federation"]) for p in players], seed=42)
    poles = {numbers[f"p{n}"] for n in range(4)}
    assert max(len(poles & set(values)) for values in sets.values()) == 3  # a whole set
    few = await client.post("/v1/compute/varma", json={"players": players[:5], "seed": 1})
    assert few.status_code == 422 and few.json()["field"] == "players"


async def test_late_entry_and_withdrawal(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIELD[:8], system="swiss-dutch", rounds=4)
    await pair(client, event)
    late = await client.post(
        f"/v1/tournaments/{event.id}/players",
        json={"name": "Late Comer", "rating": 2600},
        headers=event.auth(),
    )
    assert late.status_code == 201, late.text
    assert late.json()["start_number"] == 9 and late.json()["token"].startswith("ply_")
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    quitter = next(p for p in players if p["start_number"] == 3)
    withdrawn = await client.patch(
        f"/v1/tournaments/{event.id}/players/{quitter['id']}",
        json={"withdrawn": True},
        headers=event.auth(),
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn"] is True
    renamed = await client.patch(
        f"/v1/tournaments/{event.id}/players/{quitter['id']}",
        json={"name": "Other"},
        headers=event.auth(),
    )
    assert renamed.status_code == 409
    await confirm_all(client, event, 1)
    second = (await pair(client, event)).json()
    byes = {b["player"]: b["type"] for b in second["byes"]}
    assert byes[3] == "zero-point"
    paired = {n for g in second["games"] for n in (g["white"], g["black"])}
    assert 9 in paired and 3 not in paired
    assert len(paired) == 8  # eight present players, no pairing-allocated bye


async def test_withdrawal_in_a_round_robin_forfeits_the_open_games(
    client: httpx.AsyncClient,
) -> None:
    # A schedule paired in advance keeps the withdrawn player's games: each one with no
    # result reported becomes a forfeit loss for them, with an event of its own; a game
    # a player has reported may have been played and is left for the organizer.
    event = await create_round_robin(client, FIELD[:4])
    await confirm_all(client, event, 1)
    last = next(
        g
        for g in (await client.get(f"/v1/tournaments/{event.id}/rounds/3")).json()["games"]
        if 1 in (g["white"], g["black"])
    )
    reported = await client.put(
        f"/v1/tournaments/{event.id}/rounds/3/games/{last['table']}/result",
        json={"result": "1/2-1/2"},
        headers=event.auth(1),
    )
    assert reported.json()["status"] == "provisional"
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    quitter = next(p for p in players if p["start_number"] == 1)
    before = len(await event_log(client, event))
    response = await client.patch(
        f"/v1/tournaments/{event.id}/players/{quitter['id']}",
        json={"withdrawn": True},
        headers=event.auth(),
    )
    assert response.status_code == 200 and response.json()["withdrawn"] is True
    forfeited = []
    for n in (1, 2, 3):
        for game in (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]:
            if 1 not in (game["white"], game["black"]):
                assert n == 1 or game["status"] != "confirmed"
                continue
            if n == 1:
                assert game["result"] == "1-0" and game["extra"] == {}  # played: kept
                continue
            if n == 3:
                assert (game["result"], game["status"]) == ("1/2-1/2", "provisional")
                continue
            expected = "-+" if game["white"] == 1 else "+-"
            assert (game["result"], game["status"]) == (expected, "confirmed")
            assert game["extra"] == {"forfeit": "withdrawal"}
            forfeited.append(n)
    assert forfeited == [2]
    log = await event_log(client, event)
    assert [e.type for e in log[before:]] == ["result_confirmed", "player_updated"]
    assert all(e.payload["previous"]["status"] == "pending" for e in log[before:-1])
    # One game of three completed: FIDE C.06 V.4 leaves player 1 out of the standings,
    # with every point scored against them; the crosstable keeps the games.
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    assert sorted(row["start_number"] for row in rows) == [2, 3, 4]
    among_others = {2: 0.0, 3: 0.0, 4: 0.0}
    for n in (1, 2, 3):
        for game in (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]:
            if 1 in (game["white"], game["black"]) or game["status"] != "confirmed":
                continue
            white, black = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5)}[game["result"]]
            among_others[game["white"]] += white
            among_others[game["black"]] += black
    assert {row["start_number"]: row["points"] for row in rows} == among_others
    again = await client.patch(
        f"/v1/tournaments/{event.id}/players/{quitter['id']}",
        json={"withdrawn": True},
        headers=event.auth(),
    )
    assert again.status_code == 200
    log_again = await event_log(client, event)
    assert [e.type for e in log_again[len(log) :]] == ["player_updated"]  # no result again
    late = await client.post(
        f"/v1/tournaments/{event.id}/players",
        json={"name": "Late", "rating": 1},
        headers=event.auth(),
    )
    assert late.status_code == 409


async def test_round_robin_withdrawal_after_half_the_games_counts(
    client: httpx.AsyncClient,
) -> None:
    # Six players, five rounds: three games completed is at least half, so the player's
    # results and the forfeits of the last two rounds all count (FIDE C.06 V.4).
    event = await create_round_robin(client, FIELD[:6])
    for n in (1, 2, 3):
        await confirm_all(client, event, n)
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    quitter = next(p for p in players if p["start_number"] == 6)
    response = await client.patch(
        f"/v1/tournaments/{event.id}/players/{quitter['id']}",
        json={"withdrawn": True},
        headers=event.auth(),
    )
    assert response.status_code == 200
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    assert sorted(row["start_number"] for row in rows) == [1, 2, 3, 4, 5, 6]
    earned = 0.0
    for n in (1, 2, 3, 4, 5):
        for game in (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]:
            if 6 not in (game["white"], game["black"]):
                continue
            if n > 3:
                assert game["result"] == ("-+" if game["white"] == 6 else "+-")
            elif game["result"] == "1/2-1/2":
                earned += 0.5
            elif game["result"] == ("1-0" if game["white"] == 6 else "0-1"):
                earned += 1
    assert next(row["points"] for row in rows if row["start_number"] == 6) == earned
