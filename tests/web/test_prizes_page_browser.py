"""The printable prize list (docs/rules/prizes.md#printing) in headless Chromium: every
row laid out with columns of some width, the amounts inside the page, and the page
printed to a PDF (A4) without a script error or a policy violation."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.conftest import Browser, ServerProcess, create_tournament, report, round_games

PLAYERS = [
    ("Anand, Viswanathan", 2750),
    ("Carlsen, Magnus", 2830),
    ("<i>Hou</i> Yifan", 2650),
    ("Nakamura, Hikaru", 2790),
    ("Caruana, Fabiano", 2800),
    ("Giri, Anish", 2760),
]
PRIZES = {"places": [1000, 600, 400, 200], "ties": "hort"}


async def _geometry(browser: Browser) -> list[dict[str, Any]]:
    """Each row's box and its cells' widths, as laid out."""
    rows: list[dict[str, Any]] = await browser.page.evaluate(
        """() => [...document.querySelectorAll('tbody tr')].map(tr => {
             const box = tr.getBoundingClientRect();
             return {width: box.width, height: box.height, right: box.right,
                     cells: [...tr.cells].map(td => td.getBoundingClientRect().width),
                     text: tr.innerText};
           })"""
    )
    return rows


async def test_the_prize_list_renders_and_prints(
    browser: Browser, server: ServerProcess, api: httpx.AsyncClient
) -> None:
    tournament = await create_tournament(api, PLAYERS, start=True, prizes=PRIZES)
    for game in await round_games(api, tournament, 1):
        # Hou Yifan (start number 6, the lowest rated) wins; the other games are drawn
        result = "1/2-1/2"
        if 6 in (game["white"], game["black"]):
            result = "1-0" if game["white"] == 6 else "0-1"
        await report(api, tournament, 1, game["table"], result)
    awards = (await api.get(f"/v1/tournaments/{tournament.id}/prizes")).json()["awards"]
    # the winner's 1000; the four on a half tie on every tie-break after one round, so
    # each owns the mean of places 2-5's prizes, (600 + 400 + 200 + 0) / 4 = 300
    amounts = sorted(float(award["amount"]) for award in awards)
    assert amounts == [300.0, 300.0, 300.0, 300.0, 1000.0]
    page = browser.page
    await page.goto(f"{server.base_url}/v1/tournaments/{tournament.id}/prizes.html")
    await page.locator("tbody tr").first.wait_for()
    viewport = await page.evaluate("() => document.documentElement.clientWidth")
    for media in ("screen", "print"):
        await page.emulate_media(media=media)
        rows = await _geometry(browser)
        assert len(rows) == len(awards), media
        for row in rows:
            assert row["width"] > 0 and row["height"] > 0, (media, row)
            assert all(width > 0 for width in row["cells"]), (media, row)
            assert row["right"] <= viewport, (media, row)
        assert all(a["name"] in row["text"] for a, row in zip(awards, rows, strict=True))
    # a name is text, not markup: no <i> element made from it, its brackets shown
    assert await page.locator("td i").count() == 0
    assert any("<i>Hou</i> Yifan" in row["text"] for row in rows)
    pdf = await page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF-") and len(pdf) > 1000
    browser.check()
