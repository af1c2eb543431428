"""Printable cards come in bounded pages (docs/api.md#limits; `/cards` of a 400-player
round-robin once built 400 cards of 399 lines in one request): `?first=` and `?count=`, a
`Link: rel="next"` to the following page, a 422 naming `count` when a page would exceed
the line budget, and each card on the page the same as the player's JSON card."""

from __future__ import annotations

import re

import httpx
import pytest

from service.api.routes import cards as cards_route
from tests.api.conftest import create_round_robin

PLAYERS = [(f"Player {n:02d}", 2400 - 10 * n) for n in range(1, 13)]
ROUNDS = len(PLAYERS) - 1


def _cards_on(page: str) -> list[int]:
    return [int(n) for n in re.findall(r"<section class=card><h2>(\d+)\. ", page)]


def _next(response: httpx.Response) -> str | None:
    link = response.headers.get("link")
    if link is None:
        return None
    match = re.fullmatch(r'<([^>]+)>; rel="next"', link)
    assert match is not None, link
    return match.group(1)


async def test_pages_follow_each_other_and_cover_every_player_once(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, PLAYERS)
    seen: list[int] = []
    url: str | None = f"/v1/tournaments/{event.id}/cards?count=5"
    pages = 0
    while url is not None:
        response = await client.get(url)
        assert response.status_code == 200, response.text
        on_page = _cards_on(response.text)
        assert 1 <= len(on_page) <= 5
        seen += on_page
        url = _next(response)
        if url is not None:
            assert 'rel=next href="' in response.text
        pages += 1
    assert seen == list(range(1, len(PLAYERS) + 1))
    assert pages == 3
    whole = await client.get(f"/v1/tournaments/{event.id}/cards")
    assert _cards_on(whole.text) == seen and _next(whole) is None


async def test_a_page_shows_what_the_json_cards_say(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    page = (await client.get(f"/v1/tournaments/{event.id}/cards?first=4&count=2")).text
    assert _cards_on(page) == [4, 5]
    for number in (4, 5):
        card = (await client.get(f"/v1/tournaments/{event.id}/players/{number}/card")).json()
        assert len(card["rounds"]) == ROUNDS
        for line in card["rounds"]:
            opponent = line["opponent"]
            row = (
                f"<tr><td class=n>{line['round']}</td><td></td>"
                f"<td class=n>{line['table']}</td><td class={line['colour']}>{line['colour']}"
                f"</td><td class=n>{opponent['start_number']}</td>"
            )
            assert row in page


async def test_a_page_over_the_line_budget_is_a_422_naming_count(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = await create_round_robin(client, PLAYERS)
    monkeypatch.setattr(cards_route, "MAX_CARD_LINES", 3 * ROUNDS)
    refused = await client.get(f"/v1/tournaments/{event.id}/cards?count=4")
    assert refused.status_code == 422
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["field"] == "count"
    assert refused.json()["limit"] == 3
    default = await client.get(f"/v1/tournaments/{event.id}/cards")
    assert _cards_on(default.text) == [1, 2, 3]
    assert _next(default) is not None and "first=4" in str(_next(default))
    too_many = await client.get(f"/v1/tournaments/{event.id}/cards?count=101")
    assert too_many.status_code == 422
    assert too_many.json()["field"] == "count"


async def test_a_private_tournaments_next_page_keeps_its_token(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS, visibility="private")
    detail = await client.get(f"/v1/tournaments/{event.id}", headers=event.auth())
    assert detail.status_code == 200, detail.text
    viewer = detail.json().get("viewer_token")
    token = viewer or event.organizer
    first = await client.get(f"/v1/tournaments/{event.id}/cards?count=6&token={token}")
    assert first.status_code == 200, first.text
    follow = _next(first)
    assert follow is not None and f"token={token}" in follow
    second = await client.get(follow)
    assert second.status_code == 200
    assert _cards_on(second.text) == list(range(7, 13))
