"""The wall screens in a real headless Chromium against a real server process
(docs/scoreboard.md): results submitted through the API appear; long tables show every
row; the start list before the start; a bridge event's ranking; recovery after the
server restarts."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import httpx
from playwright.async_api import Page, WebSocket, expect

from tests.web.conftest import (
    Browser,
    ServerProcess,
    Tournament,
    create_tournament,
    register,
    report,
    round_games,
)

SIX = [("Kowalski, Jan", 2150), ("Nowak, Anna", 2100), ("Weiss, Eva", 2050)]
SIX += [("Berg, Tom", 2000), ("Lind, Ola", 1950), ("Roth, Ida", 1900)]

_VISIBLE_ROWS = """
panel => {
  const box = document.querySelector(`#${panel} .viewport`).getBoundingClientRect();
  return Array.from(document.querySelectorAll(`#${panel} tbody tr`))
    .filter(row => !row.hidden)
    .map(row => {
      const rect = row.getBoundingClientRect();
      return {
        key: row.dataset.key,
        inside: rect.height > 0 && rect.top >= box.top - 0.5 && rect.bottom <= box.bottom + 0.5
          && rect.bottom <= window.innerHeight,
      };
    });
}
"""


async def _open(page: Page, url: str) -> None:
    await page.goto(url)
    await expect(page.locator("#connection")).to_have_attribute("data-state", "live")


async def _names(api: httpx.AsyncClient, tournament: Tournament) -> dict[int, str]:
    players = (await api.get(f"/v1/tournaments/{tournament.id}/players")).json()
    return {p["start_number"]: p["name"] for p in players}


async def _no_jargon(page: Page) -> None:
    text = await page.locator("body").inner_text()
    assert not re.search(r"\bevent \d+|\bseq\b", text, re.IGNORECASE), text


async def test_results_submitted_through_the_api_appear(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser
) -> None:
    tournament = await create_tournament(api, SIX, start=True)
    names = await _names(api, tournament)
    page = browser.page
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    await _open(page, f"{server.base_url}/v1/tournaments/{tournament.id}/scoreboard")
    await expect(page.locator("#title")).to_have_text("Club championship")
    await expect(page.locator("#right h2")).to_have_text("Round 1 pairings")
    games = await round_games(api, tournament, 1)
    await expect(page.locator("#right tbody tr")).to_have_count(len(games))

    first = games[0]
    await report(api, tournament, 1, first["table"], "1-0")
    row = page.locator(f'#right tbody tr[data-key="t{first["table"]}"]')
    await expect(row.locator("td.result")).to_have_text("1 – 0")
    await expect(page.locator("#ticker")).to_contain_text(
        f"Round 1 · result on table {first['table']}: 1 – 0"
    )
    await expect(page.locator("#subtitle")).to_have_text(
        f"Round 1 of 5 · 1 of {len(games)} results in"
    )
    leader = page.locator("#left tbody tr").first
    await expect(leader).to_contain_text(names[first["white"]])
    await expect(leader.locator("td.strong")).to_have_text("1")
    # the page follows the compact delta (every rank in one list): each row's rank, as
    # the server's standings give them
    standings = (await api.get(f"/v1/tournaments/{tournament.id}/standings")).json()
    ranks = {str(row["start_number"]): str(row["rank"]) for row in standings["rows"]}
    assert sorted(ranks.values()) == ["1"] + ["2"] * 5  # the loser ties with the idle four
    assert await page.evaluate(_RANKS_SHOWN) == ranks

    for game in games[1:]:
        await report(api, tournament, 1, game["table"], "1/2-1/2")
    await expect(page.locator("#right h2")).to_have_text("Round 2 pairings")
    await expect(page.locator("#left h2")).to_have_text("Standings after round 1")
    second = await round_games(api, tournament, 2)
    await expect(page.locator("#right tbody tr").first).to_contain_text(names[second[0]["white"]])
    await _no_jargon(page)
    # the standings came with the feed: the page never asked the server for them
    assert not [url for url in requests if "/standings" in url], requests
    browser.check()


_RANKS_SHOWN = """() => Object.fromEntries(
    [...document.querySelectorAll("#left tbody tr")].map(
        tr => [tr.dataset.key, tr.cells[0].textContent.trim()]))"""
"""The standings' rank column by start number, as the page shows it."""


async def _every_row(page: Page, panel: str, expected: set[str], seconds: float) -> None:
    """Watch the panel page through its rows: each row shown lies inside the screen,
    and every row is shown within `seconds`."""
    seen: set[str] = set()
    deadline = time.monotonic() + seconds
    while seen != expected and time.monotonic() < deadline:
        rows: list[dict[str, Any]] = await page.evaluate(_VISIBLE_ROWS, panel)
        assert rows, "a page with no row"
        assert all(r["inside"] for r in rows), rows
        seen |= {r["key"] for r in rows}
        await page.wait_for_timeout(400)
    assert seen == expected


async def test_forty_player_table_shows_every_row(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser
) -> None:
    players = [(f"Player {n:02d}", 2500 - 10 * n) for n in range(1, 41)]
    tournament = await create_tournament(api, players, start=True)
    games = await round_games(api, tournament, 1)
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tournament.id}/scoreboard?page=2")
    await expect(page.locator("#left tbody tr")).to_have_count(40)
    await expect(page.locator("#right tbody tr")).to_have_count(20)
    pages = int(await page.locator("#left").get_attribute("data-pages") or "0")
    assert pages >= 2  # 40 rows do not fit a 720-pixel screen: the table pages
    await expect(page.locator("#left .pager")).to_contain_text("of 40")
    await _every_row(page, "left", {str(n) for n in range(1, 41)}, 2.0 * pages + 10)
    await _every_row(page, "right", {f"t{g['table']}" for g in games}, 30)
    browser.check()


async def test_registered_players_before_the_start(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser
) -> None:
    hostile = '<img src=x onerror="window.pwned=1">Eve'
    tournament = await create_tournament(
        api, [("Ann", 2100), ("Bob", 2000), (hostile, 1900)], start=False
    )
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tournament.id}/scoreboard")
    await expect(page.locator("#left h2")).to_have_text("Registered players")
    await expect(page.locator("#subtitle")).to_have_text("Registration open · 3 players registered")
    await expect(page.locator("#left tbody tr")).to_have_count(3)
    await expect(page.locator("#left tbody")).to_contain_text(hostile)  # as text, not markup
    assert await page.locator("#left tbody img").count() == 0
    assert await page.evaluate("window.pwned === undefined")
    await expect(page.locator("#right")).to_be_hidden()

    await register(api, tournament, "Dan", 2200)  # a late registration shows live
    await expect(page.locator("#subtitle")).to_have_text("Registration open · 4 players registered")
    await expect(page.locator("#left tbody tr").first).to_contain_text("Dan")

    started = await api.post(f"/v1/tournaments/{tournament.id}/start", headers=tournament.auth())
    assert started.status_code == 200, started.text
    await expect(page.locator("#right h2")).to_have_text("Round 1 pairings")
    await expect(page.locator("#left h2")).to_have_text("Standings")
    await expect(page.locator("#left tbody tr")).to_have_count(4)
    await _no_jargon(page)
    browser.check()


def _pairs_session() -> dict[str, Any]:
    """Four pairs at two tables, two rounds of two boards (matchpoints)."""
    names = ["North Stars", "East Wind", "Club Aces", "Late Kings"]
    return {
        "kind": "pairs",
        "name": "Monday pairs",
        "scoring": "matchpoints",
        "boards": 4,
        "pairs": [{"number": n, "name": name} for n, name in enumerate(names, start=1)],
        "movement": [
            {
                "round": 1,
                "tables": [
                    {"table": 1, "ns": 1, "ew": 2, "boards": [1, 2]},
                    {"table": 2, "ns": 3, "ew": 4, "boards": [1, 2]},
                ],
            },
            {
                "round": 2,
                "tables": [
                    {"table": 1, "ns": 1, "ew": 3, "boards": [3, 4]},
                    {"table": 2, "ns": 4, "ew": 2, "boards": [3, 4]},
                ],
            },
        ],
    }


async def test_bridge_event_board_shows_its_ranking(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser
) -> None:
    body = _pairs_session()
    created = await api.post("/v1/bridge/events", json=body)
    assert created.status_code == 201, created.text
    event = created.json()
    tables = {t["table"]: t["token"] for t in event["table_tokens"]}
    page = browser.page
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    # the tournaments' address of a bridge event leads to the bridge page
    await _open(page, f"{server.base_url}/v1/tournaments/{event['id']}/scoreboard")
    assert page.url.endswith(f"/v1/bridge/events/{event['id']}/scoreboard")
    await expect(page.locator("#title")).to_have_text("Monday pairs")
    await expect(page.locator("#left h2")).to_have_text("Ranking")
    await expect(page.locator("#left tbody tr")).to_have_count(4)
    for pair in body["pairs"]:
        await expect(page.locator("#left tbody")).to_contain_text(pair["name"])
    await expect(page.locator("#right h2")).to_have_text("Round 1")
    await expect(page.locator("#right tbody tr")).to_have_count(2)

    entered = await api.put(
        f"/v1/bridge/events/{event['id']}/tables/1/boards/1",
        json={"contract": "3NT", "declarer": "N", "tricks": 10},
        headers={"Authorization": f"Bearer {tables[1]}"},
    )
    assert entered.status_code == 200, entered.text
    score = entered.json()["ns_score"]
    await expect(page.locator("#ticker")).to_contain_text(
        f"Round 1 · table 1, board 1: 3NT by North, 10 tricks · NS +{score}"
    )
    await expect(page.locator('#right tbody tr[data-key="1"]')).to_contain_text("1 of 2")
    pair_one = page.locator('#left tbody tr[data-key="1"] td').nth(3)
    await expect(pair_one).to_have_text("1")  # boards scored, from the live ranking
    await expect(page.locator("#subtitle")).to_contain_text("1 of 8 results in")
    await _no_jargon(page)
    assert not [url for url in requests if "/ranking" in url], requests  # the feed's ranking
    browser.check()


async def test_page_recovers_after_the_server_restarts(
    own_server: ServerProcess, browser: Browser
) -> None:
    server = own_server
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as api:
        tournament = await create_tournament(api, SIX, start=True)
    page = browser.page
    sockets: list[str] = []

    def on_socket(socket: WebSocket) -> None:
        sockets.append(socket.url)

    page.on("websocket", on_socket)
    await _open(page, f"{server.base_url}/v1/tournaments/{tournament.id}/scoreboard")
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as api:
        await report(api, tournament, 1, 1, "1-0")
    await expect(page.locator('#right tbody tr[data-key="t1"] td.result')).to_have_text("1 – 0")

    await asyncio.to_thread(server.kill)
    connection = page.locator("#connection")
    await expect(connection).to_have_attribute("data-state", "reconnecting")
    await expect(connection).to_contain_text("reconnecting")

    await asyncio.to_thread(server.start)  # the same port and database file
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as fresh:
        await report(fresh, tournament, 1, 2, "0-1")
    await expect(page.locator('#right tbody tr[data-key="t2"] td.result')).to_have_text(
        "0 – 1", timeout=45_000
    )
    await expect(connection).to_have_attribute("data-state", "live")
    await expect(page.locator("#subtitle")).to_have_text("Round 1 of 5 · 2 of 3 results in")
    assert any("since=" in url for url in sockets[1:]), sockets  # resumed, not restarted
    browser.check()


async def test_flampark_board_orders_by_pf(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser
) -> None:
    ratings = [2400, 2300, 2200, 2100, 2000, 1900, 1800, 1700]
    tournament = await create_tournament(
        api,
        [(f"Player {n}", rating) for n, rating in enumerate(ratings, start=1)],
        start=True,
        system="flampark",
        rounds=3,
        time_control={"base_minutes": 15, "increment_seconds": 1},
    )
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tournament.id}/scoreboard")
    headings = page.locator("#left thead th")
    await expect(headings).to_have_text(["#", "No", "Name", "Rtg", "PF", "Ru", "G", "Pts", "PP"])
    game = (await round_games(api, tournament, 1))[0]
    await report(api, tournament, 1, game["table"], "0-1")
    standings = (await api.get(f"/v1/tournaments/{tournament.id}/standings")).json()
    top = standings["rows"][0]
    leader = page.locator("#left tbody tr").first
    await expect(leader).to_contain_text(top["name"])
    await expect(leader.locator("td").nth(4)).to_have_text(f"{top['flampark']['PF']:.2f}")
    browser.check()
