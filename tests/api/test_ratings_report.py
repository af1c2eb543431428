"""The rating report of a stored tournament: `GET /v1/tournaments/{id}/ratings` and
`ratings.csv` (docs/rules/ratings.md#stored-tournaments)."""

from __future__ import annotations

import csv
import io
from typing import Any

import httpx

from tests.api.conftest import Event

PLAYERS: list[dict[str, Any]] = [
    {"name": "Ann", "rating": 2450, "fide_id": "1001", "federation": "GER"},
    {"name": "Bob", "rating": 2300, "birth_year": 1990},
    {"name": "Cid", "rating": 2200},
    {"name": "Dan"},
]
# winners by pairing: Bob beats Ann, Ann beats Cid and Dan, Bob-Cid drawn, Dan beats
# Bob, Cid beats Dan
WINNER: dict[frozenset[int], int | None] = {
    frozenset({1, 2}): 2,
    frozenset({1, 3}): 1,
    frozenset({1, 4}): 1,
    frozenset({2, 3}): None,
    frozenset({2, 4}): 4,
    frozenset({3, 4}): 3,
}


async def _played(
    client: httpx.AsyncClient, titles: dict[str, str] | None = None, **settings: Any
) -> Event:
    """The four players' round-robin, every game played (`titles`: a FIDE title by
    name; `settings`: more creation fields)."""
    body = {"name": "Rated", "system": "round-robin", **settings}
    created = await client.post("/v1/tournaments", json=body)
    assert created.status_code == 201, created.text
    event = Event(created.json()["id"], created.json()["organizer_token"], {})
    for player in PLAYERS:
        title = (titles or {}).get(player["name"])
        response = await client.post(
            f"/v1/tournaments/{event.id}/players",
            json={**player, "title": title} if title else player,
            headers=event.auth(),
        )
        assert response.status_code == 201, response.text
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    for n in (1, 2, 3):
        games = (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
        for game in games:
            winner = WINNER[frozenset({game["white"], game["black"]})]
            result = {None: "1/2-1/2", game["white"]: "1-0", game["black"]: "0-1"}[winner]
            response = await client.put(
                f"/v1/tournaments/{event.id}/rounds/{n}/games/{game['table']}/result",
                json={"result": result},
                headers=event.auth(),
            )
            assert response.status_code == 200, response.text
    return event


async def test_ratings_of_a_stored_tournament(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    response = await client.get(f"/v1/tournaments/{event.id}/ratings", headers=event.auth())
    assert response.status_code == 200, response.text
    rows = {row["id"]: row for row in response.json()["players"]}
    ann = rows[1]
    # Ann (2450: K 10, B.02 8.3.3) played two rated games (Dan is unrated): lost to
    # Bob (D 150, PD 0.70), beat Cid (D 250, PD 0.81): We 1.51, change 10 x (1 - 1.51)
    assert (ann["k"], ann["games"], ann["score"]) == (10, 2, 1.0)
    assert ann["expected"] == 1.51
    assert ann["change"] == -5.1
    # Bob (2300) has no 2400 history recorded: K is not decided, the fact is named
    assert rows[2]["k"] is None and rows[2]["change"] is None
    assert rows[2]["missing"]
    # Dan is unrated: three rated games, score 1 (beat Bob)
    assert (rows[4]["rating"], rows[4]["games"], rows[4]["score"]) == (None, 3, 1.0)


async def test_the_same_figures_as_the_compute_route(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    stored = (await client.get(f"/v1/tournaments/{event.id}/ratings", headers=event.auth())).json()
    trf = (await client.get(f"/v1/tournaments/{event.id}/trf", headers=event.auth())).text
    computed = await client.post(
        "/v1/compute/ratings?year=" + str(stored["year"]),
        content=trf.encode(),
        headers={"Content-Type": "text/plain"},
    )
    assert computed.status_code == 200, computed.text
    by_id = {row["id"]: row for row in computed.json()["players"]}
    for row in stored["players"]:
        other = by_id[row["id"]]
        for key in ("rating", "k", "games", "score", "expected", "change", "performance"):
            assert row[key] == other[key], (row["id"], key)


async def test_csv(client: httpx.AsyncClient) -> None:
    event = await _played(client)
    response = await client.get(f"/v1/tournaments/{event.id}/ratings.csv", headers=event.auth())
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(response.text)))
    assert [line["name"] for line in lines] == ["Ann", "Bob", "Cid", "Dan"]
    assert lines[0] | {"missing": ""} == {
        "start_number": "1",
        "name": "Ann",
        "fide_id": "1001",
        "rating": "2450",
        "k": "10",
        "games": "2",
        "score": "1",
        "expected": "1.51",
        "change": "-5.1",
        "performance": lines[0]["performance"],
        "missing": "",
    }
    assert lines[1]["k"] == "" and lines[1]["missing"] != ""
    # a reader who may not see personal data does not get the FIDE id
    public = (await client.get(f"/v1/tournaments/{event.id}/ratings.csv")).text
    assert next(csv.DictReader(io.StringIO(public)))["fide_id"] == ""


async def test_norms_of_a_stored_tournament_before_its_last_round(
    client: httpx.AsyncClient,
) -> None:
    """The round-robin with rounds 1-2 played and round 3 paired: every norm carries
    the forecast against the paired opponent; two games and a third to come are far
    from 9 (B.01 1.4.1a): out of reach. The query's kind reaches the conditions: a
    zonal waives the federation rules (1.4.3c)."""
    created = await client.post("/v1/tournaments", json={"name": "Rated", "system": "round-robin"})
    event = Event(created.json()["id"], created.json()["organizer_token"], {})
    for player in PLAYERS:
        await client.post(f"/v1/tournaments/{event.id}/players", json=player, headers=event.auth())
    await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    for n in (1, 2):
        games = (await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")).json()["games"]
        for game in games:
            response = await client.put(
                f"/v1/tournaments/{event.id}/rounds/{n}/games/{game['table']}/result",
                json={"result": "1/2-1/2"},
                headers=event.auth(),
            )
            assert response.status_code == 200, response.text
    last = (await client.get(f"/v1/tournaments/{event.id}/rounds/3")).json()["games"]
    paired = {g["white"]: g["black"] for g in last} | {g["black"]: g["white"] for g in last}
    response = await client.get(
        f"/v1/tournaments/{event.id}/ratings",
        headers=event.auth(),
        params={"event_kind": "zonal"},
    )
    assert response.status_code == 200, response.text
    ann = response.json()["players"][0]
    gm = ann["norms"][0]
    assert gm["excluded"] == []  # 1.4.1f: no games left out, too few to spare
    assert gm["forecast"]["round"] == 3
    assert gm["forecast"]["opponent"] == paired[1]
    assert (gm["forecast"]["status"], gm["forecast"]["needs"]) == ("out-of-reach", None)
    own = next(c for c in gm["conditions"] if c["name"] == "own_federation")
    assert (own["met"], own["exempt"]) == (True, "1.4.3c zonal or sub-zonal tournament")
    bad = await client.get(
        f"/v1/tournaments/{event.id}/ratings", headers=event.auth(), params={"event_kind": "x"}
    )
    assert bad.status_code == 422


async def test_the_norms_setting_of_a_stored_tournament(client: httpx.AsyncClient) -> None:
    """`PATCH` `norms`: a national championship of GER exempts Ann (GER) from 1.4.3 and
    1.4.4 (B.01 1.4.3a); the tournament shows the setting; the query overrides it; a bad
    kind is a 422 naming it, nothing stored."""
    event = await _played(client)
    bad = await client.patch(
        f"/v1/tournaments/{event.id}",
        json={"norms": {"event_kind": "open"}},
        headers=event.auth(),
    )
    assert bad.status_code == 422
    assert "event_kind" in bad.text
    changed = await client.patch(
        f"/v1/tournaments/{event.id}",
        json={"norms": {"event_kind": "national-championship", "host_federation": "ger"}},
        headers=event.auth(),
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["norms"] == {
        "event_kind": "national-championship",
        "event_format": None,
        "host_federation": "ger",
    }
    response = await client.get(f"/v1/tournaments/{event.id}/ratings", headers=event.auth())
    ann = response.json()["players"][0]
    own = next(c for c in ann["norms"][0]["conditions"] if c["name"] == "own_federation")
    assert own["exempt"] == "1.4.3a national championship"
    response = await client.get(
        f"/v1/tournaments/{event.id}/ratings",
        headers=event.auth(),
        params={"event_kind": "ordinary"},
    )
    ann = response.json()["players"][0]
    own = next(c for c in ann["norms"][0]["conditions"] if c["name"] == "own_federation")
    assert own["exempt"] is None


async def test_the_norms_setting_given_at_creation(client: httpx.AsyncClient) -> None:
    """`norms` at creation: stored and shown as by `PATCH`, and applied to the report
    (Ann, GER, exempt at GER's national championship, B.01 1.4.3a); a kind B.01 does
    not name is a 422 naming the field, and no tournament is made."""
    before = len((await client.get("/v1/tournaments")).json()["items"])
    bad = await client.post(
        "/v1/tournaments",
        json={"name": "Rated", "system": "round-robin", "norms": {"event_kind": "open"}},
    )
    assert bad.status_code == 422
    assert bad.json()["field"] == "norms.event_kind"
    assert len((await client.get("/v1/tournaments")).json()["items"]) == before
    norms = {"event_kind": "national-championship", "host_federation": "GER"}
    event = await _played(client, norms=norms)
    shown = (await client.get(f"/v1/tournaments/{event.id}")).json()["norms"]
    assert shown == {**norms, "event_format": None}
    response = await client.get(f"/v1/tournaments/{event.id}/ratings", headers=event.auth())
    ann = response.json()["players"][0]
    own = next(c for c in ann["norms"][0]["conditions"] if c["name"] == "own_federation")
    assert own["exempt"] == "1.4.3a national championship"


async def test_titles_recorded_for_players_count_in_the_norms(
    client: httpx.AsyncClient,
) -> None:
    """Titles given at registration are the opponents' titles the norms count (FIDE
    B.01 1.4.4): Dan met Ann (GM), Bob (IM) and Cid (untitled), so 2 titled opponents,
    1 GM; without titles both counts are 0. The title shows on the player and may be
    corrected after the event; a title FIDE does not award is a 422 naming it."""

    def counts(document: dict[str, Any]) -> tuple[int, int]:
        dan = next(p for p in document["players"] if p["id"] == 4)
        gm = next(n for n in dan["norms"] if n["title"] == "GM")["conditions"]
        titled = next(c for c in gm if c["name"] == "titled_opponents")["value"]
        ranked = next(c for c in gm if c["name"] == "GM_opponents")["value"]
        return titled, ranked

    plain = await _played(client)
    report = await client.get(f"/v1/tournaments/{plain.id}/ratings", headers=plain.auth())
    assert counts(report.json()) == (0, 0)
    event = await _played(client, titles={"Ann": "GM", "Bob": "IM"})
    report = await client.get(f"/v1/tournaments/{event.id}/ratings", headers=event.auth())
    assert counts(report.json()) == (2, 1)
    listed = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    rows = listed["items"] if isinstance(listed, dict) else listed
    assert {p["name"]: p["title"] for p in rows} == {
        "Ann": "GM",
        "Bob": "IM",
        "Cid": None,
        "Dan": None,
    }
    corrected = await client.patch(
        f"/v1/tournaments/{event.id}/players/3", json={"title": "FM"}, headers=event.auth()
    )
    assert corrected.status_code == 200, corrected.text
    report = await client.get(f"/v1/tournaments/{event.id}/ratings", headers=event.auth())
    assert counts(report.json()) == (3, 1)
    bad = await client.patch(
        f"/v1/tournaments/{event.id}/players/3", json={"title": "XM"}, headers=event.auth()
    )
    assert bad.status_code == 422
    assert bad.json()["field"] == "title"


async def test_a_title_ranks_players_of_equal_rating_at_the_start(
    client: httpx.AsyncClient,
) -> None:
    """FIDE C.04.2's initial order: rating, then title (GM, IM, WGM, FM, WIM, CM, WFM,
    WCM, none), then name: of three players rated 2300, the IM Zed is first, the FM
    Yan second, the untitled Abe last, whatever the alphabet says."""
    created = await client.post("/v1/tournaments", json={"name": "Order", "system": "round-robin"})
    event = Event(created.json()["id"], created.json()["organizer_token"], {})
    for name, title in (("Abe", None), ("Yan", "FM"), ("Zed", "IM")):
        body: dict[str, Any] = {"name": name, "rating": 2300}
        if title:
            body["title"] = title
        response = await client.post(
            f"/v1/tournaments/{event.id}/players", json=body, headers=event.auth()
        )
        assert response.status_code == 201, response.text
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    rows = players["items"] if isinstance(players, dict) else players
    order = sorted(rows, key=lambda p: p["start_number"])
    assert [p["name"] for p in order] == ["Zed", "Yan", "Abe"]
