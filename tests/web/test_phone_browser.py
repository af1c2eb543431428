"""The player's result page on a phone (docs/phone.md), in headless Chromium at
360x740: it shows the game, a tap reports the result with the token in the
Authorization header and an Idempotency-Key (the game shows provisional, then confirmed
once the opponent confirms), nothing is wider than the screen, and the screenshot is a
PNG of the screen's size. The address comes from the phone cards' QR code."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import httpx
import segno
from playwright.async_api import Request, ViewportSize, expect

from service.api.qr import QR_ERROR, QR_SCALE
from tests.web.conftest import Browser, ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}
PLAYERS = [("Wojciechowska-Szczepańska, Ana", 2200), ("Nowak, Anna", 2100)]
PLAYERS += [("Weiss, Eva", 2050), ("Berg, Tom", 2000)]
QR_PIXELS = 24 / 25.4 * 96
"""The printed code's 24 mm in CSS pixels (96 to the inch)."""
_QR_BOX = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
             height: r.height }; };
  return { card: box(document.querySelector(".card")), qr: box(document.querySelector(".qr")) };
}"""
_WIDTH = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def _png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG file's header (IHDR chunk)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


async def _started(api: httpx.AsyncClient) -> tuple[str, str, dict[int, str]]:
    """A started round-robin: its id, the organizer token, the players' tokens."""
    created = await api.post(
        "/v1/tournaments", json={"name": "Phone open", "system": "round-robin"}
    )
    assert created.status_code == 201, created.text
    tournament, organizer = created.json()["id"], created.json()["organizer_token"]
    auth = {"Authorization": f"Bearer {organizer}"}
    for name, rating in PLAYERS:
        added = await api.post(
            f"/v1/tournaments/{tournament}/players",
            json={"name": name, "rating": rating},
            headers=auth,
        )
        assert added.status_code == 201, added.text
    started = await api.post(f"/v1/tournaments/{tournament}/start", headers=auth)
    assert started.status_code == 200, started.text
    tokens = {t["start_number"]: t["token"] for t in started.json()["player_tokens"]}
    return tournament, organizer, tokens


async def _fits(browser: Browser) -> None:
    scroll, client = await browser.page.evaluate(_WIDTH)
    assert client == PHONE["width"]
    assert scroll <= PHONE["width"], scroll


async def test_a_tap_reports_the_result_on_a_phone(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser, tmp_path: Path
) -> None:
    tournament, organizer, tokens = await _started(api)
    cards = await api.post(
        f"/v1/tournaments/{tournament}/cards",
        json={"player_tokens": [{"start_number": 1, "token": tokens[1]}]},
        headers={"Authorization": f"Bearer {organizer}"},
    )
    assert cards.status_code == 200, cards.text
    url = f"{server.base_url}/v1/tournaments/{tournament}/me?token={tokens[1]}"
    code = segno.make(url, error=QR_ERROR, micro=False)
    assert code.svg_inline(scale=QR_SCALE, title="result page", svgclass="qr", lineclass=None) in (
        cards.text
    )
    await browser.page.set_content(cards.text)
    boxes = await browser.page.evaluate(_QR_BOX)
    card, qr = boxes["card"], boxes["qr"]
    assert abs(qr["width"] - QR_PIXELS) < 1 and abs(qr["height"] - QR_PIXELS) < 1, qr
    assert card["left"] <= qr["left"] and qr["right"] <= card["right"], boxes
    assert card["top"] <= qr["top"] and qr["bottom"] <= card["bottom"], boxes
    games = (await api.get(f"/v1/tournaments/{tournament}/rounds/1")).json()["games"]
    game = next(g for g in games if 1 in (g["white"], g["black"]))
    colour = "white" if game["white"] == 1 else "black"
    opponent = game["black"] if colour == "white" else game["white"]
    win = "1-0" if colour == "white" else "0-1"

    sent: list[dict[str, Any]] = []

    def on_request(request: Request) -> None:
        if request.method == "PUT":
            sent.append({"url": request.url, "headers": request.headers})

    page = browser.page
    page.on("request", on_request)
    await page.set_viewport_size(PHONE)
    await page.goto(url)
    status = page.locator("#status")
    await expect(status).to_have_attribute("data-status", "pending")
    await expect(page.locator("h2")).to_have_text(f"Round 1 · Table {game['table']}")
    await expect(page.locator(".colour")).to_have_text(colour.capitalize())
    await expect(page.locator("#opponent")).to_contain_text(PLAYERS[opponent - 1][0])
    await _fits(browser)

    await page.locator(f'.buttons button[data-result="{win}"]').click()
    await expect(status).to_have_attribute("data-status", "provisional")
    await expect(status).to_contain_text("waiting for your opponent")
    await expect(page.locator(f'button[data-result="{win}"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    assert len(sent) == 1
    assert sent[0]["url"].endswith(
        f"/v1/tournaments/{tournament}/rounds/1/games/{game['table']}/result"
    )
    assert tokens[1] not in sent[0]["url"]
    assert sent[0]["headers"]["authorization"] == f"Bearer {tokens[1]}"
    assert len(sent[0]["headers"]["idempotency-key"]) == 32

    confirmed = await api.put(
        f"/v1/tournaments/{tournament}/rounds/1/games/{game['table']}/result",
        json={"result": win},
        headers={"Authorization": f"Bearer {tokens[opponent]}"},
    )
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    await page.locator("#refresh").click()
    await expect(status).to_have_attribute("data-status", "confirmed")
    await expect(status).to_have_text(f"Confirmed: {win}")
    await expect(page.locator(".buttons")).to_be_hidden()
    await _fits(browser)
    shot = tmp_path / "phone-360x740.png"
    await page.screenshot(path=str(shot))
    assert _png_size(shot) == (PHONE["width"], PHONE["height"])
    browser.check()


async def test_a_bad_token_shows_a_page_that_fits(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser, tmp_path: Path
) -> None:
    tournament, _, _ = await _started(api)
    page = browser.page
    await page.set_viewport_size(PHONE)
    response = await page.goto(f"{server.base_url}/v1/tournaments/{tournament}/me?token=ply_wrong")
    assert response is not None and response.status == 401
    await expect(page.locator("#problem")).to_have_text(
        "this token does not belong to the tournament"
    )
    await _fits(browser)
    shot = tmp_path / "phone-401.png"
    await page.screenshot(path=str(shot))
    assert _png_size(shot) == (PHONE["width"], PHONE["height"])
    browser.check()
