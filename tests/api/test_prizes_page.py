"""The printable prize list, `GET /v1/tournaments/{id}/prizes.html`
(docs/rules/prizes.md#printing): the awards of `GET /prizes` grouped by list, every
text escaped."""

from __future__ import annotations

import re

import httpx

from tests.api.conftest import create_round_robin

THREE = [('<b>Eve & "Co"</b>', 2200), ("Fay", 2100), ("Gus", 2000)]
PRIZES = {
    "places": [100],
    "categories": [{"name": "Under <1500>", "max_rating": 1500, "amounts": [10]}],
}


async def test_the_page_lists_the_awards_escaped(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, THREE, prizes=PRIZES, publish_personal_data=True)
    response = await client.get(f"/v1/tournaments/{event.id}/prizes.html")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    # nothing played: the three tie on 0 and split the one prize, place 1's 100 (100/3
    # each, 33.33 printed), each row naming the two others
    assert page.count("<tr><td class=n>1</td>") == 3
    assert "<td>2, 3</td></tr>" in page and "<td>1, 2</td></tr>" in page
    assert page.count("33.33 <span class=exact>(exactly 100/3)</span>") == 3
    assert "&lt;b&gt;Eve &amp; &quot;Co&quot;&lt;/b&gt;" in page
    assert "<b>Eve" not in page
    assert "Standings after round 0" in page
    # the category's only prize finds nobody rated 1500 or less: no table for it
    assert "Under &lt;1500&gt;" not in page and "<1500>" not in page
    assert len(re.findall(r"<section class=list>", page)) == 1


async def test_a_private_tournaments_page_takes_its_token(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, THREE, visibility="private")
    url = f"/v1/tournaments/{event.id}/prizes.html"
    assert (await client.get(url)).status_code == 401
    page = await client.get(url, params={"token": event.organizer})
    assert page.status_code == 200, page.text
    assert "No prizes awarded." in page.text
