"""The wall screens as a person sees them (docs/scoreboard.md), at 1920x1080 and 1280x720:
a screenshot at each size, and the rendered geometry of every table. Each column has a
width and lies inside its panel (nothing cut off at the right), names are shown whole
when there is room for them (a cell's scrollWidth within its clientWidth), the name
columns get the room left over by the numbers, and the two panels share the width by
what their tables need."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Page, expect

from tests.web.conftest import Browser, ServerProcess, create_tournament, report, round_games

SIZES = [(1920, 1080), (1280, 720)]
SIX = [("Kowalski, Jan", 2150), ("Nowak, Anna", 2100), ("Weiss, Eva", 2050)]
SIX += [("Berg, Tom", 2000), ("Lind, Ola", 1950), ("Roth, Ida", 1900)]
LONG_NAME = "Wojciechowska-Szczepańska, Ana"
FIVE_TIEBREAKS = ["SB", "DE", "WIN", "KS", "BH"]
NAME_LEAST = 120.0
"""px: the least width of a standings name column with names to show."""
SLACK = 0.5
"""px: sub-pixel rounding allowed between a cell's edge and its panel's."""

_GEOMETRY = """
panel => {
  const section = document.getElementById(panel);
  const box = section.querySelector(".viewport").getBoundingClientRect();
  const cell = c => {
    const r = c.getBoundingClientRect();
    return { text: c.textContent, left: r.left, right: r.right, width: r.width,
             top: r.top, bottom: r.bottom, name: c.classList.contains("name"),
             scroll: c.scrollWidth, client: c.clientWidth };
  };
  const heads = Array.from(section.querySelectorAll("thead th")).map(cell);
  const last = section.querySelector("thead th:last-child");
  let lastShown = false;
  if (last) {
    const r = last.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    lastShown = hit !== null && last.contains(hit);
  }
  return {
    viewport: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
    panel: section.getBoundingClientRect().width,
    window: window.innerWidth,
    table: section.querySelector("table").getBoundingClientRect().width,
    scale: Number(section.querySelector("table").dataset.scale || "1"),
    heads, lastShown,
    rows: Array.from(section.querySelectorAll("tbody tr")).filter(r => !r.hidden)
      .map(r => Array.from(r.cells).map(cell)),
  };
}
"""

_SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Resolves once the page has laid itself out again (resize observers run before a frame)."""


def _png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG file's header (IHDR chunk)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


async def _at_size(page: Page, size: tuple[int, int], shot: Path) -> None:
    """Resize the window, let the page lay itself out, and keep a screenshot of it."""
    await page.set_viewport_size({"width": size[0], "height": size[1]})
    await page.evaluate(_SETTLED)
    await page.screenshot(path=str(shot))
    assert shot.stat().st_size > 0
    assert _png_size(shot) == size


async def _geometry(page: Page, panel: str) -> dict[str, Any]:
    geometry: dict[str, Any] = await page.evaluate(_GEOMETRY, panel)
    return geometry


def _inside(geometry: dict[str, Any]) -> None:
    """Every header and cell has a width and lies within its panel and the window."""
    box = geometry["viewport"]
    assert box["right"] <= geometry["window"] + SLACK, geometry
    assert geometry["table"] <= box["right"] - box["left"] + SLACK, geometry
    for cell in geometry["heads"] + [c for row in geometry["rows"] for c in row]:
        assert cell["width"] > 0, cell
        assert cell["left"] >= box["left"] - SLACK, (cell, box)
        assert cell["right"] <= box["right"] + SLACK, (cell, box)
    assert geometry["lastShown"], geometry["heads"][-1]


def _whole(geometry: dict[str, Any], text: str) -> dict[str, Any]:
    """The body cell showing `text`, asserted to be shown in full (no ellipsis)."""
    cells = [c for row in geometry["rows"] for c in row if c["text"] == text]
    assert cells, (text, geometry["rows"])
    for cell in cells:
        assert cell["scroll"] <= cell["client"], cell
    first: dict[str, Any] = cells[0]
    return first


async def _open(page: Page, url: str) -> None:
    await page.goto(url)
    await expect(page.locator("#connection")).to_have_attribute("data-state", "live")


async def test_standings_show_every_column_and_the_names(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser, tmp_path: Path
) -> None:
    """Six players and five tie-breaks: the Name column has room for every name, and the
    last tie-break column is inside the panel, at both sizes."""
    tournament = await create_tournament(api, SIX, start=True, tiebreaks=FIVE_TIEBREAKS)
    games = await round_games(api, tournament, 1)
    await report(api, tournament, 1, games[0]["table"], "1-0")
    await report(api, tournament, 1, games[1]["table"], "1/2-1/2")
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tournament.id}/scoreboard")
    await expect(page.locator("#left tbody tr")).to_have_count(6)
    await expect(page.locator("#right tbody tr")).to_have_count(3)
    await expect(page.locator("#left thead th")).to_have_text(
        ["#", "No", "Name", "Rtg", "Pts", *FIVE_TIEBREAKS]
    )
    for size in SIZES:
        await _at_size(page, size, tmp_path / f"standings-{size[0]}x{size[1]}.png")
        standings = await _geometry(page, "left")
        _inside(standings)
        name = next(h for h in standings["heads"] if h["text"] == "Name")
        assert name["width"] >= NAME_LEAST, (size, name)
        for player, _ in SIX:
            assert _whole(standings, player)["width"] >= NAME_LEAST
        assert standings["scale"] == 1.0  # it fits without smaller type
        _inside(await _geometry(page, "right"))
    browser.check()


async def test_pairings_show_a_long_name_whole(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser, tmp_path: Path
) -> None:
    """A 30-character name paired with a short one is shown in full at both sizes: the
    name columns share the panel's width by what they hold."""
    assert len(LONG_NAME) == 30
    players = [(LONG_NAME, 2200), *SIX[1:]]
    tournament = await create_tournament(api, players, start=True)
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tournament.id}/scoreboard")
    await expect(page.locator("#right tbody")).to_contain_text(LONG_NAME)
    for size in SIZES:
        await _at_size(page, size, tmp_path / f"pairings-{size[0]}x{size[1]}.png")
        pairings = await _geometry(page, "right")
        _inside(pairings)
        _whole(pairings, LONG_NAME)
        box = pairings["viewport"]
        assert pairings["table"] >= box["right"] - box["left"] - 1  # the panel's width used
        names = [cell for row in pairings["rows"] for cell in row if cell["name"]]
        assert len(names) == 6
        for cell in names:  # every pairing's names fit: none is cut
            assert cell["scroll"] <= cell["client"], (size, cell)
        standings = await _geometry(page, "left")
        _inside(standings)
        name = next(h for h in standings["heads"] if h["text"] == "Name")
        assert name["width"] >= NAME_LEAST
    browser.check()


async def test_too_many_tiebreaks_shrink_the_type_not_the_names(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser, tmp_path: Path
) -> None:
    """Fourteen tie-break columns are wider than the standings panel at 1280x720: the
    table's type gets smaller so that every column stays inside and the names still get
    room, instead of the last columns being cut off."""
    tiebreaks = ["BH-C1", "BH", "SB", "DE", "WIN", "WON", "BPG", "BWG", "KS", "AOB", "FB"]
    tiebreaks += ["ARO", "TPR", "PS"]
    tournament = await create_tournament(api, SIX, start=True, tiebreaks=tiebreaks)
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tournament.id}/scoreboard")
    await expect(page.locator("#left thead th").last).to_have_text("PS")
    await _at_size(page, (1280, 720), tmp_path / "tiebreaks-1280x720.png")
    standings = await _geometry(page, "left")
    _inside(standings)
    assert standings["scale"] < 1.0
    name = next(h for h in standings["heads"] if h["text"] == "Name")
    assert name["width"] >= 100  # seven characters' room at the smaller type at least
    browser.check()


def _teams_event() -> dict[str, Any]:
    names = ["Warsaw Kings of Clubs", "Gdansk Seagulls", "Three", "Fourth team name"]
    return {
        "kind": "teams",
        "name": "Club teams",
        "boards": 4,
        "teams": [{"number": n, "name": name} for n, name in enumerate(names, start=1)],
        "rounds": [
            {
                "round": 1,
                "matches": [
                    {"home": 1, "away": 2, "open_table": 1, "closed_table": 2, "boards": [1, 2]},
                    {"home": 3, "away": 4, "open_table": 3, "closed_table": 4, "boards": [1, 2]},
                ],
            }
        ],
    }


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_bridge_teams_board_shows_its_matches_whole(
    server: ServerProcess,
    api: httpx.AsyncClient,
    browser: Browser,
    tmp_path: Path,
    size: tuple[int, int],
) -> None:
    """A teams event: the ranking and the round's matches lie inside their panels and a
    match's two team names are shown whole (the panels share the width by need)."""
    created = await api.post("/v1/bridge/events", json=_teams_event())
    assert created.status_code == 201, created.text
    page = browser.page
    await page.set_viewport_size({"width": size[0], "height": size[1]})
    await _open(page, f"{server.base_url}/v1/bridge/events/{created.json()['id']}/scoreboard")
    await expect(page.locator("#right tbody tr")).to_have_count(2)
    await _at_size(page, size, tmp_path / f"teams-{size[0]}x{size[1]}.png")
    ranking = await _geometry(page, "left")
    _inside(ranking)
    for team in ["Warsaw Kings of Clubs", "Gdansk Seagulls", "Fourth team name"]:
        _whole(ranking, team)
    matches = await _geometry(page, "right")
    _inside(matches)
    _whole(matches, "Warsaw Kings of Clubs – Gdansk Seagulls")
    browser.check()
