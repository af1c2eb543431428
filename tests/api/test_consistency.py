"""One behaviour everywhere: unrated players, sex codes,
effective settings, one rendering of tie-break values, messages that say what to do,
FLAMPARK sit-out warnings."""

from __future__ import annotations

import re

import httpx

from tests.api.conftest import create_round_robin

FIELD = [("Adams", 2400), ("Brown", 2300), ("Clark", 2200), ("Davis", 2100)]


async def test_an_unrated_player_is_sent_and_shown_as_unrated(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIELD, start=False)
    url = f"/v1/tournaments/{event.id}/players"
    omitted = await client.post(url, json={"name": "Evans"}, headers=event.auth())
    null = await client.post(url, json={"name": "Fox", "rating": None}, headers=event.auth())
    zero = await client.post(url, json={"name": "Gray", "rating": 0}, headers=event.auth())
    for response in (omitted, null, zero):
        assert response.status_code == 201, response.text
        assert response.json()["rating"] is None
    rated = (await client.get(url)).json()
    assert [p["rating"] for p in rated] == [2400, 2300, 2200, 2100, None, None, None]
    pid = rated[0]["id"]
    cleared = await client.patch(f"{url}/{pid}", json={"rating": None}, headers=event.auth())
    assert cleared.status_code == 200 and cleared.json()["rating"] is None
    kept = await client.patch(f"{url}/{pid}", json={"name": "Adams, A."}, headers=event.auth())
    assert kept.json()["rating"] is None and kept.json()["name"] == "Adams, A."
    negative = await client.post(url, json={"name": "H", "rating": -1}, headers=event.auth())
    assert negative.status_code == 422 and negative.json()["field"] == "rating"
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    assert sorted((r["rating"] is None) for r in rows).count(True) == 4
    card = await client.get(f"/v1/tournaments/{event.id}/cards")
    assert "rating unrated" in card.text


async def test_sex_takes_m_w_and_f_in_any_case(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIELD[:2], start=False)
    url = f"/v1/tournaments/{event.id}/players"
    codes = {}
    for sent in ("m", "W", "f", "F", " w "):
        response = await client.post(url, json={"name": sent, "sex": sent}, headers=event.auth())
        assert response.status_code == 201, response.text
        codes[sent] = response.json()["sex"]
    assert codes == {"m": "m", "W": "w", "f": "w", "F": "w", " w ": "w"}
    bad = await client.post(url, json={"name": "x", "sex": "x"}, headers=event.auth())
    assert bad.status_code == 422 and bad.json()["field"] == "sex"
    assert "f is accepted" in bad.text
    await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    women = await client.get(
        f"/v1/tournaments/{event.id}/standings?sex=F", headers=event.auth()
    )  # the organizer may filter by sex; others only once it is published
    assert women.status_code == 200, women.text
    assert len(women.json()["rows"]) == 4


async def test_settings_show_the_defaults_in_force(client: httpx.AsyncClient) -> None:
    swiss = await client.post(
        "/v1/tournaments", json={"name": "S", "system": "swiss-dutch", "rounds": 5}
    )
    assert swiss.status_code == 201, swiss.text
    assert swiss.json()["swiss"]["rules"] == "dutch-2026"
    assert swiss.json()["flampark"] is None
    shown = (await client.get(f"/v1/tournaments/{swiss.json()['id']}")).json()
    assert shown["swiss"] == swiss.json()["swiss"]
    flampark = await client.post(
        "/v1/tournaments", json={"name": "F", "system": "flampark", "rounds": 4}
    )
    assert flampark.json()["flampark"]["variant"] == "individual"
    assert flampark.json()["swiss"] is None


async def test_tie_break_values_render_one_way(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIELD)
    for table in (1, 2):
        response = await client.put(
            f"/v1/tournaments/{event.id}/rounds/1/games/{table}/result",
            json={"result": "1/2-1/2"},
            headers=event.auth(),
        )
        assert response.status_code == 200, response.text
    url = f"/v1/tournaments/{event.id}/standings"
    plain = (await client.get(url)).json()["rows"]
    filtered = (await client.get(url + "?rating_min=0")).json()["rows"]
    explained = (await client.get(url + "?explain=1")).json()["rows"]
    assert plain == filtered == explained
    assert plain[0]["tiebreaks"] and all(
        isinstance(value, float) for row in plain for value in row["tiebreaks"].values()
    )
    text = (await client.get(url)).text.replace(" ", "")
    assert '"WIN":0.0' in text
    assert not re.search(r'"(SB|DE|WIN|KS)":-?[0-9]+[,}]', text)  # never an integer


async def test_conflicts_say_what_to_do(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, FIELD, system="swiss-dutch", start=False, rounds=3)
    early = await client.post(f"/v1/tournaments/{event.id}/rounds", headers=event.auth())
    assert early.status_code == 409
    assert "close the start list first" in early.json()["detail"]
    assert f"/v1/tournaments/{event.id}/start" in early.json()["detail"]
    result = await client.put(
        f"/v1/tournaments/{event.id}/rounds/1/games/1/result",
        json={"result": "1-0"},
        headers=event.auth(),
    )
    assert result.status_code == 409 and "close the start list first" in result.text


async def test_a_flampark_start_warns_about_players_who_sit_out_most_rounds(
    client: httpx.AsyncClient,
) -> None:
    players = [(f"P{n:02d}", 2500 - 10 * n) for n in range(15)]
    event = await create_round_robin(
        client,
        players,
        system="flampark",
        start=False,
        rounds=4,
        flampark={"kinds": ["basic", "basic", "x2", "x2"]},
    )
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    assert started.status_code == 200, started.text
    warnings = [w for w in started.json()["warnings"] if "sits out" in w]
    assert [w.split(" sits")[0] for w in warnings] == ["player 13", "player 15"]
    assert "(rounds 2, 3, 4)" in warnings[0]
