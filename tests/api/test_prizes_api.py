"""Prizes of a stored tournament: the `prizes` setting at creation and by PATCH, the
prize list from the standings (docs/rules/prizes.md)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.conftest import Event

# start numbers by rating: 1 Ann, 2 Bob, 3 Cat (a girl born 2010), 4 Dan (no sex, no
# birth year recorded)
PLAYERS: list[dict[str, Any]] = [
    {"name": "Ann", "rating": 2100, "sex": "m", "birth_year": 1990},
    {"name": "Bob", "rating": 2000, "sex": "m", "birth_year": 2000},
    {"name": "Cat", "rating": 1900, "sex": "w", "birth_year": 2010},
    {"name": "Dan", "rating": 1700},
]
# the winner of each pairing (None: a draw): Ann 2, Bob 1.5 (beat Ann, drew Cat, SB
# 2.75), Cat 1.5 (SB 1.75), Dan 1 -- Bob and Cat tie on points for places 2-3
WINNER: dict[frozenset[int], int | None] = {
    frozenset({1, 2}): 2,
    frozenset({1, 3}): 1,
    frozenset({1, 4}): 1,
    frozenset({2, 3}): None,
    frozenset({2, 4}): 4,
    frozenset({3, 4}): 3,
}
PRIZES: dict[str, Any] = {
    "places": [300, 200, 100],
    "categories": [
        {"name": "women", "sex": "w", "amounts": [50]},
        {"name": "U18", "max_age": 18, "amounts": [40]},
    ],
    "ties": "hort",
    "one_prize": "highest",
    "year": 2026,
}


async def _played(client: httpx.AsyncClient, prizes: dict[str, Any]) -> Event:
    created = await client.post(
        "/v1/tournaments", json={"name": "Prize event", "system": "round-robin", "prizes": prizes}
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["prizes"]["ties"] == prizes["ties"]
    event = Event(body["id"], body["organizer_token"], {})
    for player in PLAYERS:
        response = await client.post(
            f"/v1/tournaments/{event.id}/players", json=player, headers=event.auth()
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


def _awards(body: dict[str, Any]) -> list[tuple[str, int, str, str]]:
    return [(a["prize"], a["start_number"], a["amount"], a["exact"]) for a in body["awards"]]


async def test_hort_shares_places_two_and_three(client: httpx.AsyncClient) -> None:
    event = await _played(client, PRIZES)
    response = await client.get(f"/v1/tournaments/{event.id}/prizes", headers=event.auth())
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["round"], body["year"], body["ties"]) == (3, 2026, "hort")
    # Cat's 100 (3rd place) is above the women's 50 and U18's 40; Bob and Cat tie on
    # 1.5: halves 100 and 50 kept, pot 150 -> 175 and 125; Dan is out of both categories
    # for facts not recorded, so they go unawarded
    assert _awards(body) == [
        ("open", 1, "300.00", "300"),
        ("open", 2, "175.00", "175"),
        ("open", 3, "125.00", "125"),
    ]
    assert body["awards"][1]["places"] == [2, 3]
    assert body["awards"][1]["shared_with"] == [3]
    assert body["missing"] == [
        {"start_number": 4, "category": "women", "field": "sex"},
        {"start_number": 4, "category": "U18", "field": "birth_year"},
    ]
    # a reader who may not see personal data is not told whose facts are missing
    public = (await client.get(f"/v1/tournaments/{event.id}/prizes")).json()
    assert public["missing"] is None
    assert public["awards"] == body["awards"]


async def test_patch_changes_the_tie_rule(client: httpx.AsyncClient) -> None:
    event = await _played(client, {**PRIZES, "ties": "split", "places": [300, 200, 101]})
    url = f"/v1/tournaments/{event.id}/prizes"
    split = (await client.get(url)).json()
    # (200 + 101) / 2 = 150.50 each
    assert _awards(split)[1:] == [
        ("open", 2, "150.50", "301/2"),
        ("open", 3, "150.50", "301/2"),
    ]
    thirds = {**PRIZES, "ties": "split", "places": [300, 100, 100, 100]}
    patched = await client.patch(
        f"/v1/tournaments/{event.id}", json={"prizes": thirds}, headers=event.auth()
    )
    assert patched.status_code == 200, patched.text
    # Bob, Cat tie for 2-3; Dan alone 4th: 100 each, Dan 100
    assert [a[1:3] for a in _awards((await client.get(url)).json())] == [
        (1, "300.00"),
        (2, "100.00"),
        (3, "100.00"),
        (4, "100.00"),
    ]
    refused = await client.patch(
        f"/v1/tournaments/{event.id}",
        json={"prizes": {**thirds, "ties": "lots"}},
        headers=event.auth(),
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["field"] == "prizes.ties"
    stored = (await client.get(f"/v1/tournaments/{event.id}")).json()["prizes"]
    assert (stored["ties"], stored["places"]) == ("split", ["300", "100", "100", "100"])
    order = {**PRIZES, "ties": "tiebreak"}
    await client.patch(f"/v1/tournaments/{event.id}", json={"prizes": order}, headers=event.auth())
    assert [a[1:3] for a in _awards((await client.get(url)).json())] == [
        (1, "300.00"),
        (2, "200.00"),
        (3, "100.00"),
    ]
    cleared = await client.patch(
        f"/v1/tournaments/{event.id}", json={"prizes": None}, headers=event.auth()
    )
    assert cleared.status_code == 200, cleared.text
    assert (await client.get(url)).json()["awards"] == []


async def test_one_third_rounds_down_to_the_cent(client: httpx.AsyncClient) -> None:
    event = await _played(client, {"places": [100, 100, 100], "ties": "split"})
    # Ann 100; Bob, Cat share (100 + 100) / 2; Dan alone 4th, no prize
    awards = _awards((await client.get(f"/v1/tournaments/{event.id}/prizes")).json())
    assert [a[1] for a in awards] == [1, 2, 3]
    event = await _played(client, {"places": [100, 50], "ties": "split"})
    awards = _awards((await client.get(f"/v1/tournaments/{event.id}/prizes")).json())
    assert awards == [
        ("open", 1, "100.00", "100"),
        ("open", 2, "25.00", "25"),
        ("open", 3, "25.00", "25"),
    ]


@pytest.mark.parametrize(
    ("prizes", "field"),
    [
        ({"places": [100, 200]}, "prizes.places"),
        ({"places": [-5]}, "prizes.places.0"),
        ({"places": [1.005]}, "prizes.places.0"),
        ({"ties": "coin"}, "prizes.ties"),
        ({"categories": [{"name": "all", "amounts": [10]}]}, "prizes.categories.0"),
        (
            {"categories": [{"name": "x", "sex": "w", "amounts": [1]}] * 2},
            "prizes.categories",
        ),
        (
            {"categories": [{"name": "y", "max_rating": 1000, "min_rating": 2000, "amounts": [1]}]},
            "prizes.categories.0",
        ),
    ],
)
async def test_bad_prize_settings_name_the_field(
    client: httpx.AsyncClient, prizes: dict[str, Any], field: str
) -> None:
    created = await client.post(
        "/v1/tournaments", json={"name": "X", "system": "round-robin", "prizes": prizes}
    )
    assert created.status_code == 422, created.text
    body = created.json()
    named = (body.get("field"), *(e["field"] for e in body.get("errors", [])))
    assert any(str(f).startswith(field) for f in named), body
