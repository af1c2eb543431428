"""A rated player's rating change where the tournament is read: the standings with
`?ratings=true` and a player's games (docs/rules/ratings.md#where-the-change-is-shown)."""

from __future__ import annotations

import httpx

from tests.api.conftest import create_round_robin
from tests.api.test_ratings_report import _played


async def test_standings_carry_the_change_only_when_asked(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    plain = await client.get(f"/v1/tournaments/{event.id}/standings")
    assert plain.status_code == 200
    assert all("rating_change" not in row for row in plain.json()["rows"])
    filtered = await client.get(f"/v1/tournaments/{event.id}/standings?rating_min=1")
    assert all("rating_change" not in row for row in filtered.json()["rows"])
    rated = await client.get(
        f"/v1/tournaments/{event.id}/standings?ratings=true", headers=event.auth()
    )
    assert rated.status_code == 200, rated.text
    rows = {row["start_number"]: row for row in rated.json()["rows"]}
    # the same table, rows in the same order, each with its figures
    assert [r["start_number"] for r in rated.json()["rows"]] == [
        r["start_number"] for r in plain.json()["rows"]
    ]
    # Ann (2450: K 10): lost to Bob (D 150, PD 0.70), beat Cid (D 250, PD 0.81); Dan is
    # unrated, so that game is not rated: We 1.51, change 10 x (1 - 1.51) = -5.1
    assert rows[1]["rating_change"] == {
        "k": 10,
        "k_rule": "reached-2400",
        "games": 2,
        "score": 1.0,
        "expected": 1.51,
        "change": -5.1,
        "performance": rows[1]["rating_change"]["performance"],
        "missing": [],
    }
    # Bob (2300): no 2400 history nor games before the event recorded: no guess
    bob = rows[2]["rating_change"]
    assert bob["k"] is None and bob["change"] is None
    assert "reached_2400" in bob["missing"] and "games_before" in bob["missing"]
    # Bob: beat Ann (PD 0.30), drew Cid (D 100, PD 0.64): We 0.94
    assert bob["expected"] == 0.94
    # Dan is unrated: no change (an initial rating is the rating report's)
    assert rows[4]["rating_change"] is None
    # the same figures as the rating report
    report = (await client.get(f"/v1/tournaments/{event.id}/ratings", headers=event.auth())).json()
    for line in report["players"]:
        if line["rating"] is None:
            continue
        shown = rows[line["id"]]["rating_change"]
        assert {key: shown[key] for key in shown} == {key: line[key] for key in shown}


async def test_standings_with_ratings_and_a_filter(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    response = await client.get(
        f"/v1/tournaments/{event.id}/standings?ratings=true&rating_min=2300&explain=1"
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert sorted(r["start_number"] for r in body["rows"]) == [1, 2]
    assert body["explanation"] is not None
    assert {r["start_number"]: r["rating_change"]["change"] for r in body["rows"]} == {
        1: -5.1,
        2: None,
    }
    missing = await client.get(f"/v1/tournaments/{event.id}/standings?ratings=true&explain=9")
    assert missing.status_code == 404
    assert missing.json()["field"] == "explain"


async def test_a_players_games_with_each_games_change(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    path = f"/v1/tournaments/{event.id}/players/1/games"
    plain = (await client.get(path)).json()
    assert "rating_change" not in plain and all("rating" not in g for g in plain["games"])
    response = await client.get(path + "?ratings=true")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["start_number"] == 1 and body["rating"] == 2450
    assert body["rating_change"]["change"] == -5.1
    # the listing itself is unchanged, each game with its rating fields beside it
    assert [{k: v for k, v in g.items() if k != "rating"} for g in body["games"]] == plain["games"]
    games = {g["opponent"]: g["rating"] for g in body["games"]}
    # lost to Bob: PD 0.70, 10 x (0 - 0.70) = -7; beat Cid: PD 0.81, 10 x 0.19 = 1.9
    assert games[2] == {
        "rated": True,
        "reason": None,
        "score": 0.0,
        "expected": 0.7,
        "change": -7.0,
    }
    assert (games[3]["score"], games[3]["expected"], games[3]["change"]) == (1.0, 0.81, 1.9)
    assert games[3]["change"] + games[2]["change"] == body["rating_change"]["change"]
    # Dan is unrated: the game is listed, not rated, and says why
    assert games[4] == {
        "rated": False,
        "reason": "unrated-opponent",
        "score": None,
        "expected": None,
        "change": None,
    }


async def test_games_without_k_name_what_is_missing(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    path = f"/v1/tournaments/{event.id}/players/{{}}/games?ratings=true"
    bob = (await client.get(path.format(2))).json()
    assert bob["rating_change"]["k"] is None
    assert "reached_2400" in bob["rating_change"]["missing"]
    rated = [g for g in bob["games"] if g["rating"]["rated"]]
    assert {g["opponent"]: g["rating"]["expected"] for g in rated} == {1: 0.3, 3: 0.64}
    assert all(g["rating"]["change"] is None for g in rated)
    dan = (await client.get(path.format(4))).json()
    assert dan["rating"] is None and dan["rating_change"] is None
    assert {g["rating"]["reason"] for g in dan["games"]} == {"unrated-player"}


async def test_games_of_an_unknown_player(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    response = await client.get(f"/v1/tournaments/{event.id}/players/9/games?ratings=true")
    assert response.status_code == 404


async def test_the_card_carries_the_change_when_asked(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    path = f"/v1/tournaments/{event.id}/players/1/card"
    plain = (await client.get(path)).json()
    assert "rating_change" not in plain and all("rating" not in r for r in plain["rounds"])
    card = (await client.get(path + "?ratings=true")).json()
    assert card["rating_change"]["change"] == -5.1 and card["rating_change"]["k"] == 10
    by_opponent = {r["opponent"]["start_number"]: r["rating"] for r in card["rounds"]}
    assert by_opponent[2]["change"] == -7.0 and by_opponent[3]["change"] == 1.9
    assert by_opponent[4]["reason"] == "unrated-opponent"
    # everything else on the card is as without the ratings
    assert {k: v for k, v in card.items() if k != "rating_change"} | {
        "rounds": [{k: v for k, v in r.items() if k != "rating"} for r in card["rounds"]]
    } == plain
    dan = (await client.get(f"/v1/tournaments/{event.id}/players/4/card?ratings=true")).json()
    assert dan["rating_change"] is None
    assert {r["rating"]["reason"] for r in dan["rounds"]} == {"unrated-player"}


async def test_printed_cards_show_the_change_when_asked(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    plain = (await client.get(f"/v1/tournaments/{event.id}/cards")).text
    assert "<th>±</th>" not in plain and "K 10" not in plain
    page = (await client.get(f"/v1/tournaments/{event.id}/cards?ratings=true")).text
    assert "<th>±</th>" in page
    ann = page.split("<section class=card>")[1]
    assert "rated games 2, expected 1.51 · K 10 · change \u22125.1" in ann
    assert "<td class=d>\u22127</td>" in ann and "<td class=d>+1.9</td>" in ann
    assert "<td class=d>unrated-opponent</td>" in ann
    bob = page.split("<section class=card>")[2]
    assert "K not known (missing: reached_2400" in bob
    assert "<td class=d>PD 0.3</td>" in bob  # Bob's win over Ann: PD 0.30, K undecided
    assert "no rating change (unrated)" in page.split("<section class=card>")[4]


async def test_phone_cards_show_the_change_when_asked(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, [("Ann", 2450), ("Bob", 2300), ("Cid", 0)])
    tokens = [{"start_number": n, "token": t} for n, t in sorted(event.players.items())]
    path = f"/v1/tournaments/{event.id}/cards"
    plain = await client.post(path, json={"player_tokens": tokens}, headers=event.auth())
    assert plain.status_code == 200 and "<th>±</th>" not in plain.text
    rated = await client.post(
        path + "?ratings=true", json={"player_tokens": tokens}, headers=event.auth()
    )
    assert rated.status_code == 200, rated.text
    cards = rated.text.split("<section class=card>")[1:]
    # no result yet: K is known for Ann (2450), no game is rated so far
    assert "rated games 0, expected 0 · K 10 · change +0" in cards[0]
    assert "<td class=d>pending</td>" in cards[0]
    assert "K not known (missing: reached_2400, games_before)" in cards[1]
    assert "no rating change (unrated)" in cards[2]


async def test_a_reader_without_personal_data_gets_no_birth_year_reading(
    client: httpx.AsyncClient,
) -> None:
    """A junior under 2300 needs only the 2400 fact when the birth year is read (K 40
    either way); a reader who may not see birth years gets it named missing instead."""
    created = await client.post("/v1/tournaments", json={"name": "J", "system": "round-robin"})
    tid, token = created.json()["id"], created.json()["organizer_token"]
    auth = {"Authorization": f"Bearer {token}"}
    for player in (
        {"name": "Eve", "rating": 2200, "birth_year": 2012},
        {"name": "Ann", "rating": 2450},
    ):
        added = await client.post(f"/v1/tournaments/{tid}/players", json=player, headers=auth)
        assert added.status_code == 201, added.text
    assert (await client.post(f"/v1/tournaments/{tid}/start", headers=auth)).status_code == 200
    path = f"/v1/tournaments/{tid}/standings?ratings=true"
    organizer = {
        r["name"]: r["rating_change"] for r in (await client.get(path, headers=auth)).json()["rows"]
    }
    anyone = {r["name"]: r["rating_change"] for r in (await client.get(path)).json()["rows"]}
    assert organizer["Eve"]["missing"] == ["reached_2400"]
    assert "birth_year" in anyone["Eve"]["missing"]
    assert organizer["Ann"] == anyone["Ann"]  # 2450: K 10 whoever reads
