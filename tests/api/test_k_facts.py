"""A stored player's K-factor facts (`k`, `games_before`, `reached_2400`, with the birth
year) decide K in every stored view of the rating change (FIDE B.02, 2024, art. 8.3.3;
docs/rules/ratings.md#k-facts)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.conftest import Event
from tests.api.team_events import create_team_event, roster

YEAR = 2026

# Registered in start-list order (highest rating first), each a K case of B.02 8.3.3:
PLAYERS: list[dict[str, Any]] = [
    # below 2400 now, but a published rating reached 2400 once: K 10 for good
    {"name": "Ann", "rating": 2380, "reached_2400": True, "games_before": 400},
    # 100 games, never 2400, born 1990, 2300 (the junior rule needs under 2300): K 20
    {
        "name": "Bob",
        "rating": 2300,
        "birth_year": 1990,
        "games_before": 100,
        "reached_2400": False,
    },
    # the rules would give 20; the rating list's K 40 is taken as given
    {
        "name": "Cid",
        "rating": 2200,
        "birth_year": 1985,
        "games_before": 200,
        "reached_2400": False,
        "k": 40,
    },
    # 15 in the event's year (until the end of the year of the 18th birthday), under
    # 2300: K 40 although past 30 games
    {
        "name": "Dan",
        "rating": 2100,
        "birth_year": YEAR - 15,
        "games_before": 100,
        "reached_2400": False,
    },
    # 29 rated games before the event: a new player until 30 games, K 40
    {
        "name": "Eve",
        "rating": 2000,
        "birth_year": 1970,
        "games_before": 29,
        "reached_2400": False,
    },
    # nothing recorded: K undecided
    {"name": "Fay", "rating": 1900},
]

# Higher rating wins, except: Ann-Bob drawn, Dan beats Cid, Eve beats Bob, Eve-Fay drawn.
UPSETS = {frozenset({1, 2}): None, frozenset({3, 4}): 4, frozenset({2, 5}): 5}
UPSETS[frozenset({5, 6})] = None

# Each player's rated games, PD from table 8.1.2 (a difference above 400 counts as 400,
# art. 8.3.1), W - We, and K x (W - We):
# Ann 2380: Bob D 80 .61 (1/2), Cid 180 .74, Dan 280 .84, Eve 380 .91, Fay 480->400 .92
#   W 4.5, We 4.02, K 10 (reached 2400): +4.8
# Bob 2300: Ann .39 (1/2), Cid D 100 .64, Dan 200 .76, Eve 300 .85 (0), Fay 400 .92
#   W 3.5, We 3.56, K 20 (standard): -1.2
# Cid 2200: Ann .26 (0), Bob .36 (0), Dan D 100 .64 (0), Eve 200 .76, Fay 300 .85
#   W 2, We 2.87, K 40 (given): -34.8
# Dan 2100: Ann .16, Bob .24, Cid .36 (1), Eve D 100 .64, Fay 200 .76
#   W 3, We 2.16, K 40 (junior): +33.6
# Eve 2000: Ann .09, Bob .15 (1), Cid .24, Dan .36, Fay D 100 .64 (1/2)
#   W 1.5, We 1.48, K 40 (new player): +0.8
# Fay 1900: Ann .08, Bob .08, Cid .15, Dan .24, Eve .36 (1/2): W 0.5, We 0.91, K unknown
EXPECTED = {
    1: (10, "reached-2400", 4.5, 4.02, 4.8),
    2: (20, "standard", 3.5, 3.56, -1.2),
    3: (40, "given", 2.0, 2.87, -34.8),
    4: (40, "junior", 3.0, 2.16, 33.6),
    5: (40, "new-player", 1.5, 1.48, 0.8),
    6: (None, "", 0.5, 0.91, None),
}
FAY_MISSING = ["reached_2400", "games_before", "birth_year"]


async def _event(client: httpx.AsyncClient, **settings: Any) -> Event:
    body = {
        "name": "K facts",
        "system": "round-robin",
        "schedule": [f"{YEAR}-03-01T10:00:00Z"],
        **settings,
    }
    created = await client.post("/v1/tournaments", json=body)
    assert created.status_code == 201, created.text
    event = Event(created.json()["id"], created.json()["organizer_token"], {})
    for player in PLAYERS:
        response = await client.post(
            f"/v1/tournaments/{event.id}/players", json=player, headers=event.auth()
        )
        assert response.status_code == 201, response.text
    return event


async def _played(client: httpx.AsyncClient, **settings: Any) -> Event:
    """The six players' round-robin with every game played."""
    event = await _event(client, **settings)
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    for n in range(1, 6):
        games = (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
        for game in games:
            pair = frozenset({game["white"], game["black"]})
            winner = UPSETS.get(pair, min(pair))
            result = {None: "1/2-1/2", game["white"]: "1-0", game["black"]: "0-1"}[winner]
            response = await client.put(
                f"/v1/tournaments/{event.id}/rounds/{n}/games/{game['table']}/result",
                json={"result": result},
                headers=event.auth(),
            )
            assert response.status_code == 200, response.text
    return event


async def test_registration_keeps_the_facts(client: httpx.AsyncClient) -> None:
    event = await _event(client)
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    facts = {p["name"]: (p["k"], p["games_before"], p["reached_2400"]) for p in players}
    # rating facts: shown to every reader (the birth year is personal data, hidden)
    assert facts == {
        "Ann": (None, 400, True),
        "Bob": (None, 100, False),
        "Cid": (40, 200, False),
        "Dan": (None, 100, False),
        "Eve": (None, 29, False),
        "Fay": (None, None, None),
    }
    assert all(p["birth_year"] is None for p in players)


async def test_each_k_case_in_the_rating_report(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    report = await client.get(f"/v1/tournaments/{event.id}/ratings", headers=event.auth())
    assert report.status_code == 200, report.text
    assert report.json()["year"] == YEAR
    rows = {row["id"]: row for row in report.json()["players"]}
    for number, (k, rule, score, expected, change) in EXPECTED.items():
        row = rows[number]
        assert (row["k"], row["k_rule"], row["games"]) == (k, rule, 5), number
        assert (row["score"], row["expected"], row["change"]) == (score, expected, change)
    assert rows[6]["missing"] == FAY_MISSING
    assert all(rows[n]["missing"] == [] for n in range(1, 6))
    csv = await client.get(f"/v1/tournaments/{event.id}/ratings.csv", headers=event.auth())
    lines = {line.split(",")[1]: line.split(",") for line in csv.text.splitlines()[1:]}
    # columns: start_number, name, fide_id, rating, k, games, score, expected, change, ...
    assert [lines[name][4] for name in ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")] == [
        "10",
        "20",
        "40",
        "40",
        "40",
        "",
    ]
    assert lines["Dan"][8] == "33.6" and lines["Cid"][8] == "-34.8" and lines["Fay"][8] == ""
    assert lines["Fay"][10] == ";".join(FAY_MISSING)


async def test_each_k_case_in_the_standings_games_and_cards(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    base = f"/v1/tournaments/{event.id}"
    standings = await client.get(f"{base}/standings?ratings=true", headers=event.auth())
    assert standings.status_code == 200, standings.text
    shown = {r["start_number"]: r["rating_change"] for r in standings.json()["rows"]}
    for number, (k, rule, _, expected, change) in EXPECTED.items():
        assert (shown[number]["k"], shown[number]["k_rule"]) == (k, rule)
        assert (shown[number]["expected"], shown[number]["change"]) == (expected, change)
    # Dan's games, each K x (W - PD) with K 40: Ann 40 x -0.16 = -6.4, Bob -9.6,
    # Cid 40 x 0.64 = 25.6, Eve 14.4, Fay 9.6; together +33.6
    games = (await client.get(f"{base}/players/4/games?ratings=true", headers=event.auth())).json()
    by_opponent = {g["opponent"]: g["rating"]["change"] for g in games["games"]}
    assert by_opponent == {1: -6.4, 2: -9.6, 3: 25.6, 5: 14.4, 6: 9.6}
    assert games["rating_change"]["change"] == 33.6
    # Cid's card: the given K 40 (lost to Dan: 40 x -0.64 = -25.6)
    card = (await client.get(f"{base}/players/3/card?ratings=true", headers=event.auth())).json()
    assert (card["rating_change"]["k"], card["rating_change"]["change"]) == (40, -34.8)
    rounds = {r["opponent"]["start_number"]: r["rating"]["change"] for r in card["rounds"]}
    assert rounds[4] == -25.6
    page = (await client.get(f"{base}/cards?ratings=true", headers=event.auth())).text
    assert "K 20" in page and "K 40" in page and "K 10" in page


async def test_a_reader_without_personal_data(client: httpx.AsyncClient) -> None:
    """The rating facts count for every reader; the birth year only for those who may
    see it: without it Dan's junior K is not decided."""
    event = await _played(client)
    report = (await client.get(f"/v1/tournaments/{event.id}/ratings")).json()
    rows = {row["id"]: row for row in report["players"]}
    assert (rows[4]["k"], rows[4]["change"], rows[4]["missing"]) == (None, None, ["birth_year"])
    # Bob (2300: the junior rule does not apply) and Eve (29 games) need no birth year
    assert (rows[2]["k"], rows[2]["change"]) == (20, -1.2)
    assert (rows[5]["k"], rows[5]["change"]) == (40, 0.8)
    assert (rows[3]["k"], rows[1]["k"]) == (40, 10)


async def test_facts_recorded_after_the_event(client: httpx.AsyncClient) -> None:
    """The facts may be recorded or corrected at any time (they change no pairing and
    no score), in a finished tournament too; null removes one."""
    event = await _played(client)
    base = f"/v1/tournaments/{event.id}"
    status = (await client.get(base)).json()["status"]
    assert status == "finished"
    path = f"{base}/players/6"
    changed = await client.patch(
        path, json={"games_before": 12, "reached_2400": False}, headers=event.auth()
    )
    assert changed.status_code == 200, changed.text
    assert (changed.json()["games_before"], changed.json()["reached_2400"]) == (12, False)
    # Fay: a new player (12 games), K 40: 40 x (0.5 - 0.91) = -16.4
    rows = {r["id"]: r for r in (await client.get(f"{base}/ratings")).json()["players"]}
    assert (rows[6]["k"], rows[6]["k_rule"], rows[6]["change"]) == (40, "new-player", -16.4)
    # Cid's given K removed: the rules decide (200 games, never 2400, 2200, born 1985:
    # K 20): 20 x (2 - 2.87) = -17.4
    removed = await client.patch(f"{base}/players/3", json={"k": None}, headers=event.auth())
    assert removed.status_code == 200, removed.text
    assert removed.json()["k"] is None
    report = await client.get(f"{base}/ratings", headers=event.auth())
    rows = {r["id"]: r for r in report.json()["players"]}
    assert (rows[3]["k"], rows[3]["k_rule"], rows[3]["change"]) == (20, "standard", -17.4)
    # other details stay closed once finished
    refused = await client.patch(
        path, json={"games_before": 3, "name": "Fay B"}, headers=event.auth()
    )
    assert refused.status_code == 409


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"k": 15}, "k"),
        ({"k": 0}, "k"),
        ({"k": "20"}, "k"),
        ({"k": 20.0}, "k"),
        ({"k": True}, "k"),
        ({"games_before": -1}, "games_before"),
        ({"games_before": "12"}, "games_before"),
        ({"reached_2400": "yes"}, "reached_2400"),
        ({"reached_2400": 1}, "reached_2400"),
    ],
)
async def test_bad_facts_are_refused(
    client: httpx.AsyncClient, body: dict[str, Any], field: str
) -> None:
    event = await _event(client)
    base = f"/v1/tournaments/{event.id}/players"
    before = (await client.get(base, headers=event.auth())).json()
    registered = await client.post(base, json={"name": "Gus", **body}, headers=event.auth())
    assert registered.status_code == 422, registered.text
    assert field in [e["field"] for e in registered.json()["errors"]]
    changed = await client.patch(f"{base}/1", json=body, headers=event.auth())
    assert changed.status_code == 422, changed.text
    assert field in [e["field"] for e in changed.json()["errors"]]
    assert (await client.get(base, headers=event.auth())).json() == before


async def test_a_teams_players_carry_the_facts(client: httpx.AsyncClient) -> None:
    event = await create_team_event(client, 2, start=False)
    players = roster(3, 3)
    players[0] |= {"k": 20, "games_before": 50, "reached_2400": False}
    added = await client.post(
        f"/v1/tournaments/{event.id}/teams",
        json={"name": "Team 3", "players": players},
        headers=event.auth(),
    )
    assert added.status_code == 201, added.text
    listed = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    facts = {p["name"]: (p["k"], p["games_before"], p["reached_2400"]) for p in listed}
    assert facts["T3 P0"] == (20, 50, False) and facts["T3 P1"] == (None, None, None)
    bad = await client.post(
        f"/v1/tournaments/{event.id}/teams",
        json={"name": "Team 4", "players": [{**p, "k": 30} for p in roster(4, 3)]},
        headers=event.auth(),
    )
    assert bad.status_code == 422
    assert "players.0.k" in [e["field"] for e in bad.json()["errors"]]


async def test_a_trf_round_trip_carries_none_of_the_facts(client: httpx.AsyncClient) -> None:
    """No TRF record holds K, rated games or 2400 history: the export writes none, the
    import records none, and the facts set afterwards give the original figures (for
    the players whose K needs no birth year: the export writes the birth dates an
    imported file gave, not a registration's birth year)."""
    event = await _played(client)
    text = (await client.get(f"/v1/tournaments/{event.id}/trf", headers=event.auth())).text
    imported = await client.post(
        "/v1/tournaments/import", content=text, headers={"content-type": "text/plain"}
    )
    assert imported.status_code == 201, imported.text
    copy = Event(imported.json()["id"], imported.json()["organizer_token"], {})
    base = f"/v1/tournaments/{copy.id}"
    players = (await client.get(f"{base}/players", headers=copy.auth())).json()
    assert all((p["k"], p["games_before"], p["reached_2400"]) == (None,) * 3 for p in players)
    report = (await client.get(f"{base}/ratings", headers=copy.auth())).json()
    # from the file alone: K only for a rating of 2400 or more, which no one has
    assert all(row["k"] is None for row in report["players"])
    for number, player in enumerate(PLAYERS, start=1):
        facts = {k: player[k] for k in ("k", "games_before", "reached_2400") if k in player}
        if facts:
            changed = await client.patch(
                f"{base}/players/{number}", json=facts, headers=copy.auth()
            )
            assert changed.status_code == 200, changed.text
    report = (await client.get(f"{base}/ratings", headers=copy.auth())).json()
    rows = {row["id"]: row for row in report["players"]}
    for number in (1, 2, 3, 5):  # Ann, Bob, Cid, Eve: no birth year needed
        k, rule, _, expected, change = EXPECTED[number]
        assert (rows[number]["k"], rows[number]["k_rule"]) == (k, rule), number
        assert (rows[number]["expected"], rows[number]["change"]) == (expected, change)
    # Dan (2100, past 30 games): the junior rule needs the birth year the file lacks
    assert (rows[4]["k"], rows[4]["missing"]) == (None, ["birth_year"])
