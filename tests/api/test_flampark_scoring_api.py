"""FLAMPARK scoring through the API: time shortening on results, PF/Ru/PP in the
standings, classifications, best games and the players' ranking
(docs/rules/flampark.md)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.conftest import Event, create_round_robin

RATINGS = [2400, 2300, 2200, 2100, 2000, 1900, 1800, 1700]


async def flampark_event(
    client: httpx.AsyncClient, *, premium: dict[str, Any] | None = None, **extra: Any
) -> Event:
    players = [(f"Player {n}", rating) for n, rating in enumerate(RATINGS, start=1)]
    options: dict[str, Any] = {}
    if premium is not None:
        options["progress_premium"] = premium
    return await create_round_robin(
        client,
        players,
        system="flampark",
        rounds=3,
        time_control={"base_minutes": 15, "increment_seconds": 1},
        flampark=options,
        **extra,
    )


async def report(
    client: httpx.AsyncClient, event: Event, n: int, table: int, result: str, **more: Any
) -> httpx.Response:
    return await client.put(
        f"/v1/tournaments/{event.id}/rounds/{n}/games/{table}/result",
        json={"result": result, **more},
        headers=event.auth(),
    )


async def games(client: httpx.AsyncClient, event: Event, n: int) -> list[dict[str, Any]]:
    body: list[dict[str, Any]] = (
        await client.get(f"/v1/tournaments/{event.id}/rounds/{n}")
    ).json()["games"]
    return body


def rating(start_number: int) -> int:
    return RATINGS[start_number - 1]


async def test_game_value_with_full_shortening(client: httpx.AsyncClient) -> None:
    event = await flampark_event(client)
    game = (await games(client, event, 1))[0]
    white, black = game["white"], game["black"]
    higher = min(white, black)
    # the lower-rated player wins; the higher-rated one had cut all 15 minutes
    winner = max(white, black)
    result = "1-0" if winner == white else "0-1"
    response = await report(client, event, 1, game["table"], result, time_shortened_minutes=15)
    assert response.status_code == 200, response.text
    assert response.json()["extra"] == {"time_shortened_minutes": 15}
    # the result event names the shortening as the request does
    from sqlmodel import select

    from service.db.tables import EventRow

    state = client._transport.app.state.arbiter  # type: ignore[attr-defined]
    async with state.sessions() as session:
        rows = (
            await session.exec(select(EventRow).where(EventRow.tournament_id == event.id))
        ).all()
    last = max(rows, key=lambda row: row.seq).payload
    assert last["time_shortened_minutes"] == 15 and "shortened_minutes" not in last
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    by_number = {row["start_number"]: row for row in rows}
    colour_points = 5 if winner == black else -5
    expected = (rating(higher) - 1000) / 8 + colour_points - 25 + 100  # Pc + Pb + Pt + P%
    columns = by_number[winner]["flampark"]
    assert columns["PF"] == pytest.approx(expected)
    assert columns["Pt"] == -25 and columns["P%"] == 100
    assert columns["Ru"] == pytest.approx(8 * expected + 600)
    assert columns["games_counted"] == 1
    loser = by_number[higher]["flampark"]
    assert loser["Pt"] == 25 and loser["P%"] == 0
    assert rows[0]["start_number"] == winner  # ordered by PF
    assert all(r["flampark"]["PF"] is None for r in rows if r["start_number"] not in (white, black))


async def test_shortening_rules(client: httpx.AsyncClient) -> None:
    event = await flampark_event(client)
    too_much = await report(client, event, 1, 1, "1-0", time_shortened_minutes=16)
    assert too_much.status_code == 422
    assert too_much.json()["field"] == "time_shortened_minutes"
    negative = await report(client, event, 1, 1, "1-0", time_shortened_minutes=-1)
    assert negative.status_code == 422
    assert (await games(client, event, 1))[0]["status"] == "pending"
    round_robin = await create_round_robin(client, [("A", 2000), ("B", 1900)])
    response = await report(client, round_robin, 1, 1, "1-0", time_shortened_minutes=5)
    assert response.status_code == 422
    assert "time_control" in response.json()["detail"]


async def test_progress_premium_sums_to_the_pool(client: httpx.AsyncClient) -> None:
    event = await flampark_event(client, premium={"pool": 1000, "wb": 900})
    for n in (1, 2):
        for game in await games(client, event, n):
            # the lower-rated player always wins: big rating gains at the bottom
            result = "0-1" if game["white"] < game["black"] else "1-0"
            assert (await report(client, event, n, game["table"], result)).status_code == 200
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    premiums = [row["flampark"]["PP"] for row in rows]
    assert round(sum(premiums), 2) == 1000.00
    for row in rows:
        gained = row["flampark"]["Ru"] - row["rating"]
        assert (row["flampark"]["PP"] > 0) == (gained > 0)


async def test_premium_weight_out_of_range(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/tournaments",
        json={
            "name": "X",
            "system": "flampark",
            "rounds": 3,
            "flampark": {"progress_premium": {"pool": 100, "wb": 700}},
        },
    )
    assert response.status_code == 422
    assert response.json()["field"] == "flampark.progress_premium.wb"


async def test_classification_filters(client: httpx.AsyncClient) -> None:
    event = await flampark_event(client)
    for game in await games(client, event, 1):
        await report(client, event, 1, game["table"], "1/2-1/2")
    url = f"/v1/tournaments/{event.id}/standings"
    body = (await client.get(url, params={"rating_min": 2000, "rating_max": 2300})).json()
    assert sorted(r["rating"] for r in body["rows"]) == [2000, 2100, 2200, 2300]
    assert body["rows"][0]["rank"] == 1
    assert body["filters"] == {"rating_min": 2000, "rating_max": 2300}
    none = (await client.get(url, params={"rounds_min": 2})).json()
    assert none["rows"] == []
    bad = await client.get(url, params={"sex": "x"})
    assert bad.status_code == 422 and bad.json()["field"] == "sex"


async def test_best_games_and_ranking_across_tournaments(client: httpx.AsyncClient) -> None:
    first = await flampark_event(client)
    second = await flampark_event(client)
    for event in (first, second):
        for game in await games(client, event, 1):
            await report(client, event, 1, game["table"], "0-1")
    best = (await client.get("/v1/flampark/best-games", params={"limit": 100})).json()
    values = [g["value"] for g in best]
    assert values == sorted(values, reverse=True)
    top = best[0]
    parts = top["parts"]
    assert top["value"] == pytest.approx(parts["Pc"] + parts["Pt"] + parts["Pb"] + parts["P%"])
    assert top["outcome"] == "win" and top["colour"] == "black"
    assert {top["tournament"]["id"]} <= {first.id, second.id} | {
        g["tournament"]["id"] for g in best
    }
    ranking = (await client.get("/v1/flampark/players", params={"limit": 1000})).json()
    means = [p["mean_result"] for p in ranking["players"]]
    assert means == sorted(means, reverse=True)
    assert all(
        p["games"] == p["wins"] + p["draws"] + p["losses"] + p["forfeits"]
        for p in ranking["players"]
    )


async def test_identity_links_a_player_across_tournaments(client: httpx.AsyncClient) -> None:
    events: list[Any] = []
    for _ in range(2):
        created = (
            await client.post(
                "/v1/tournaments",
                json={
                    "name": "Linked",
                    "system": "flampark",
                    "rounds": 1,
                    "publish_personal_data": True,  # the identity is shown once published
                },
            )
        ).json()
        auth = {"Authorization": f"Bearer {created['organizer_token']}"}
        await client.post(
            f"/v1/tournaments/{created['id']}/players",
            json={"name": "Zoe Linked", "rating": 2999, "identity": "club-77"},
            headers=auth,
        )
        await client.post(
            f"/v1/tournaments/{created['id']}/players",
            json={"name": "Opponent", "rating": 1000},
            headers=auth,
        )
        await client.post(f"/v1/tournaments/{created['id']}/start", headers=auth)
        await client.put(
            f"/v1/tournaments/{created['id']}/rounds/1/games/1/result",
            json={"result": "1-0" if not events else "0-1"},
            headers=auth,
        )
        events.append(created["id"])
    ranking = (await client.get("/v1/flampark/players", params={"limit": 1000})).json()
    zoe = next(p for p in ranking["players"] if p["identity"] == "link:club-77")
    assert (zoe["tournaments"], zoe["games"], zoe["wins"], zoe["losses"]) == (2, 2, 1, 1)


async def test_scoreboard_page(client: httpx.AsyncClient) -> None:
    event = await flampark_event(client)
    page = await client.get(f"/v1/tournaments/{event.id}/scoreboard")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "scoreboard.js" in page.text  # the page's script follows the live feed
    script = await client.get("/v1/web/scoreboard.js")
    assert "/live" in script.text
    assert "PF" in (await client.get("/v1/web/chess.js")).text  # FLAMPARK columns


async def test_team_variant_classification(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(
        client,
        [(f"Player {n}", rating) for n, rating in enumerate(RATINGS, start=1)],
        system="flampark",
        rounds=3,
        flampark={"variant": "team"},
    )
    for game in await games(client, event, 1):
        assert (game["white"] + game["black"]) % 2 == 1  # every game is cross-team
        result = "1-0" if game["white"] % 2 == 1 else "0-1"  # the odd team wins them all
        await report(client, event, 1, game["table"], result)
    body = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    assert {r["start_number"]: r["team"] for r in body["rows"]} == {
        n: 1 if n % 2 else 2 for n in range(1, 9)
    }
    assert [(t["rank"], t["team"], t["points"], t["players"]) for t in body["teams"]] == [
        (1, 1, 4.0, 4),
        (2, 2, 0.0, 4),
    ]


async def test_group_variant_tags_each_row(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(
        client,
        [(f"Player {n}", 2600 - 10 * n) for n in range(1, 15)],
        system="flampark",
        rounds=3,
        flampark={"variant": "group"},
    )
    body = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()
    groups = {r["start_number"]: r["group"] for r in body["rows"]}
    assert groups == {n: 1 if n <= 6 else 2 for n in range(1, 15)}  # 6, then 6 + 2 left over
    assert body["teams"] is None


async def test_incremental_standings_equal_a_full_recomputation(
    client: httpx.AsyncClient,
) -> None:
    """Live updates bring the cached views forward result by result; after reports,
    disputes, corrections and shortenings the table equals one computed from scratch."""
    event = await flampark_event(client, premium={"pool": 500, "wb": 850})
    app = client._transport.app  # type: ignore[attr-defined]
    state = app.state.arbiter
    url = f"/v1/tournaments/{event.id}/standings"
    await client.get(url)  # warm every cache at the first event
    round_one = await games(client, event, 1)
    await report(client, event, 1, 1, "1-0", time_shortened_minutes=6)
    await client.get(url)
    white = round_one[1]["white"]
    black = round_one[1]["black"]
    for who, result in ((white, "0-1"), (black, "1-0")):  # a dispute
        await client.put(
            f"/v1/tournaments/{event.id}/rounds/1/games/2/result",
            json={"result": result},
            headers=event.auth(who),
        )
        await client.get(url)
    await report(client, event, 1, 2, "1/2-1/2")  # the arbiter decides
    await report(client, event, 1, 1, "0-1", time_shortened_minutes=15)  # a correction
    for game in round_one[2:]:
        await report(client, event, 1, game["table"], "1-0")
    live = (await client.get(url)).json()
    state.views.clear()
    fresh = (await client.get(url)).json()
    assert live == fresh
    assert round(sum(r["flampark"]["PP"] for r in fresh["rows"]), 2) == 500


async def test_withdrawn_player_gives_walkovers_in_the_remaining_rounds(
    client: httpx.AsyncClient,
) -> None:
    # Formuła FLAMPARK: a walkover is not counted for the player left without an opponent, and
    # costs its giver -0.5 point (Pc - 50). A withdrawal after round 1 gives one in
    # each later round of the schedule paired in advance.
    event = await flampark_event(client)
    for game in await games(client, event, 1):
        assert (await report(client, event, 1, game["table"], "1/2-1/2")).status_code == 200
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    quitter = next(p for p in players if p["start_number"] == 2)
    response = await client.patch(
        f"/v1/tournaments/{event.id}/players/{quitter['id']}",
        json={"withdrawn": True},
        headers=event.auth(),
    )
    assert response.status_code == 200, response.text
    opponents = []
    for n in (2, 3):
        for game in await games(client, event, n):
            if 2 in (game["white"], game["black"]):
                assert game["result"] == ("-+" if game["white"] == 2 else "+-")
                assert game["extra"] == {"forfeit": "withdrawal"}
                opponents.append(game["black"] if game["white"] == 2 else game["white"])
    assert len(opponents) == 2
    rows = (await client.get(f"/v1/tournaments/{event.id}/standings")).json()["rows"]
    by_number = {row["start_number"]: row["flampark"] for row in rows}
    quitter_columns = by_number[2]
    assert quitter_columns["games_counted"] == 3
    first = next(g for g in await games(client, event, 1) if 2 in (g["white"], g["black"]))
    first_opponent = first["black"] if first["white"] == 2 else first["white"]
    draw_value = (rating(first_opponent) - 1000) / 8 + (5 if first["black"] == 2 else -5) + 50
    walkovers = sum((rating(o) - 1000) / 8 - 50 for o in opponents)
    assert quitter_columns["PF"] == pytest.approx((draw_value + walkovers) / 3)
    for opponent in opponents:
        assert by_number[opponent]["games_counted"] == 1  # only the round-1 draw counts
