"""The player's result page `GET /me?token=` and the phone cards `POST /cards`
(docs/phone.md): the page shows the last paired round's game and where its result
stands (a player's report provisional, the opponent's same report confirms it, a
different one disputes it), answers a bad token with a readable page of the status the
API would send, is never cached, and its token never reaches a log; the cards carry a
QR code of exactly the page's address, made by segno."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import segno
from fastapi import FastAPI
from sqlmodel import select

from service.api.qr import QR_ERROR, QR_SCALE
from service.api.security import PAGE_POLICY
from service.db.tables import PlayerRow
from tests.api.conftest import Event, create_round_robin

PLAYERS = [("Kowalski, Jan", 2150), ("Nowak, Anna", 2100), ("Weiss, Eva", 1990)]
PLAYERS += [("Berg <b>Tom</b>", 0)]


def _me(event: Event, number: int) -> str:
    return f"/v1/tournaments/{event.id}/me?token={event.players[number]}"


async def _my_game(client: httpx.AsyncClient, event: Event, number: int) -> dict[str, int | str]:
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    game = next(g for g in games if number in (g["white"], g["black"]))
    colour = "white" if game["white"] == number else "black"
    opponent = game["black"] if colour == "white" else game["white"]
    return {"table": game["table"], "colour": colour, "opponent": opponent}


def _status(page: str) -> tuple[str, str]:
    match = re.search(
        r'<p id=status role=status aria-live=polite data-status="(\w+)">([^<]*)<', page
    )
    assert match is not None, page
    return match.group(1), match.group(2)


def _private_headers(response: httpx.Response) -> None:
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["content-security-policy"] == PAGE_POLICY


async def test_the_page_shows_the_game_and_never_the_token(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    for number in event.players:
        mine = await _my_game(client, event, number)
        response = await client.get(_me(event, number))
        assert response.status_code == 200, response.text
        _private_headers(response)
        page = response.text
        assert event.players[number] not in page
        name, rating = PLAYERS[mine["opponent"] - 1]  # type: ignore[operator]
        shown = f"{mine['opponent']}. {name} ({rating or 'unrated'})".replace("<", "&lt;")
        assert f"<b id=opponent>{shown.replace('>', '&gt;')}</b>" in page
        assert f"Round 1 · Table {mine['table']}" in page
        assert f"data-colour={mine['colour']}" in page
        assert f">{str(mine['colour']).capitalize()}</span>" in page
        assert _status(page) == ("pending", "No result reported yet")
        assert '<script src="../../web/me.js" defer></script>' in page
    assert "<b>Tom</b>" not in (await client.get(_me(event, 4))).text  # a name is text


async def test_reports_show_provisional_confirmed_and_disputed(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    games = (await client.get(f"/v1/tournaments/{event.id}/rounds/1")).json()["games"]
    first, second = games
    url = f"/v1/tournaments/{event.id}/rounds/1/games/{{}}/result"

    async def put(table: int, number: int, result: str) -> None:
        answer = await client.put(
            url.format(table), json={"result": result}, headers=event.auth(number)
        )
        assert answer.status_code == 200, answer.text

    white, black = first["white"], first["black"]
    await put(first["table"], white, "1-0")
    assert _status((await client.get(_me(event, white))).text) == (
        "provisional",
        "Provisional: you reported 1-0; waiting for your opponent to confirm",
    )
    assert _status((await client.get(_me(event, black))).text) == (
        "provisional",
        "Your opponent reported 1-0: report the same to confirm it, or your result to dispute it",
    )
    await put(first["table"], black, "1-0")
    page = (await client.get(_me(event, black))).text
    assert _status(page) == ("confirmed", "Confirmed: 1-0")
    assert "<div class=buttons hidden>" in page  # a confirmed result is not reported again
    await put(second["table"], second["white"], "1/2-1/2")
    await put(second["table"], second["black"], "0-1")
    assert _status((await client.get(_me(event, second["black"]))).text) == (
        "disputed",
        "Disputed: you reported 0-1, your opponent ½-½; the arbiter decides",
    )


BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
"""What a phone's browser asks for: a refusal comes as a page."""


async def _problem_page(
    client: httpx.AsyncClient, url: str, status: int, words: str, field: str
) -> None:
    """A browser gets a readable page of the status; a program the same status as
    problem+json naming the field."""
    response = await client.get(url, headers=BROWSER)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["content-security-policy"] == PAGE_POLICY
    assert words in response.text, response.text
    program = await client.get(url)
    assert program.status_code == status
    assert program.headers["content-type"].startswith("application/problem+json")
    assert words in program.json()["detail"] and program.json()["field"] == field


async def test_a_bad_token_answers_a_readable_page(app: FastAPI, client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    base = f"/v1/tournaments/{event.id}/me"
    await _problem_page(client, base, 401, "scan its QR code", "token")
    unknown = "does not belong to the tournament"
    await _problem_page(client, f"{base}?token=ply_nobody", 401, unknown, "Authorization")
    await _problem_page(client, f"{base}?token={event.organizer}", 403, "not a player", "token")
    nowhere = "/v1/tournaments/nope/me?token=x"
    await _problem_page(client, nowhere, 404, "no tournament", "tournament_id")
    async with app.state.arbiter.sessions() as session:  # player 2's token runs out
        player = (
            await session.exec(
                select(PlayerRow).where(
                    PlayerRow.tournament_id == event.id, PlayerRow.start_number == 2
                )
            )
        ).one()
        player.token_expires_at = datetime.now(UTC) - timedelta(seconds=1)
        session.add(player)
        await session.commit()
    await _problem_page(client, _me(event, 2), 401, "expired", "Authorization")
    archived = await client.delete(f"/v1/tournaments/{event.id}", headers=event.auth())
    assert archived.status_code == 204
    await _problem_page(client, _me(event, 1), 410, "archived", "tournament_id")


async def test_a_private_tournament_page_needs_the_players_token(
    client: httpx.AsyncClient,
) -> None:
    created = await client.post(
        "/v1/tournaments", json={"name": "Closed", "system": "round-robin", "visibility": "private"}
    )
    viewer = created.json()["viewer_token"]
    event = Event(created.json()["id"], created.json()["organizer_token"], {})
    for name, rating in PLAYERS:
        added = await client.post(
            f"/v1/tournaments/{event.id}/players",
            json={"name": name, "rating": rating},
            headers=event.auth(),
        )
        assert added.status_code == 201
    started = await client.post(f"/v1/tournaments/{event.id}/start", headers=event.auth())
    event.players = {t["start_number"]: t["token"] for t in started.json()["player_tokens"]}
    assert (await client.get(_me(event, 3))).status_code == 200
    base = f"/v1/tournaments/{event.id}/me"
    await _problem_page(client, f"{base}?token={viewer}", 403, "not a player", "token")


async def test_the_token_of_the_page_never_reaches_a_log(
    app: FastAPI, client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """The service's own access line holds the path only; uvicorn's lines (the address
    with its query) pass the redaction filter the app installs."""
    event = await create_round_robin(client, PLAYERS)
    token = event.players[1]
    with caplog.at_level(logging.INFO, logger="arbiter.access"):
        assert (await client.get(_me(event, 1))).status_code == 200
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "arbiter.access"]
    assert any(line["route"] == "/v1/tournaments/{tournament_id}/me" for line in lines)
    assert all(token not in json.dumps(line) for line in lines)
    logger = logging.getLogger("uvicorn.access")
    args = ("1.2.3.4:5", "GET", _me(event, 1), "1.1", 200)
    record = logger.makeRecord(
        logger.name, logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d', args, None
    )
    assert logger.filters
    for log_filter in logger.filters:
        assert isinstance(log_filter, logging.Filter)
        log_filter.filter(record)
    text = record.getMessage()
    assert token not in text and f"/v1/tournaments/{event.id}/me?token=***" in text


def _qr_of(url: str) -> str:
    """The QR code of `url` as segno draws it (what the card must carry)."""
    code = segno.make(url, error=QR_ERROR, micro=False)
    assert code.error == "M" and not code.is_micro
    return str(code.svg_inline(scale=QR_SCALE, title="result page", svgclass="qr", lineclass=None))


async def test_phone_cards_carry_the_qr_code_of_each_page(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    started = [{"start_number": n, "name": "as sent", "token": t} for n, t in event.players.items()]
    chosen = [started[2], started[0]]
    response = await client.post(
        f"/v1/tournaments/{event.id}/cards", json={"player_tokens": chosen}, headers=event.auth()
    )
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    page = response.text
    assert re.findall(r"</svg><h2>(\d+)\. ", page) == ["1", "3"]
    for number in (1, 3):
        url = f"http://arbiter.test/v1/tournaments/{event.id}/me?token={event.players[number]}"
        svg = _qr_of(url)
        assert svg.startswith("<svg") and svg in page
        assert (await client.get(url)).status_code == 200  # the code's address is the page
    for number in (2, 4):
        assert event.players[number] not in page
    plain = (await client.get(f"/v1/tournaments/{event.id}/cards")).text
    assert "<svg" not in plain and "token" not in plain


async def test_phone_cards_need_the_organizer_and_current_tokens(
    client: httpx.AsyncClient,
) -> None:
    event = await create_round_robin(client, PLAYERS)
    url = f"/v1/tournaments/{event.id}/cards"
    body = {"player_tokens": [{"start_number": 1, "token": event.players[1]}]}
    assert (await client.post(url, json=body)).status_code == 401
    assert (await client.post(url, json=body, headers=event.auth(1))).status_code == 403
    wrong = {"player_tokens": [{"start_number": 1, "token": event.players[2]}]}
    refused = await client.post(url, json=wrong, headers=event.auth())
    assert refused.status_code == 422
    assert refused.json()["field"] == "player_tokens[0].token"
    twice = {"player_tokens": [body["player_tokens"][0]] * 2}
    refused = await client.post(url, json=twice, headers=event.auth())
    assert refused.status_code == 422 and refused.json()["field"] == "player_tokens[1].start_number"
    rotated = await client.post(
        f"/v1/tournaments/{event.id}/tokens/rotate",
        json={"role": "player", "start_number": 1},
        headers=event.auth(),
    )
    assert rotated.status_code == 200
    stale = await client.post(url, json=body, headers=event.auth())
    assert stale.status_code == 422 and stale.json()["field"] == "player_tokens[0].token"


async def test_a_withdrawn_player_reads_without_buttons(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    players = (await client.get(f"/v1/tournaments/{event.id}/players")).json()
    player_id = next(p["id"] for p in players if p["start_number"] == 2)
    before = (await client.get(_me(event, 2))).text
    assert "<div class=buttons>" in before and "data-withdrawn" not in before
    withdrawn = await client.patch(
        f"/v1/tournaments/{event.id}/players/{player_id}",
        json={"withdrawn": True},
        headers=event.auth(),
    )
    assert withdrawn.status_code == 200, withdrawn.text
    page = await client.get(_me(event, 2))
    assert page.status_code == 200
    assert "data-withdrawn" in page.text and "<div class=buttons hidden>" in page.text
    assert "your token no longer reports results" in page.text
