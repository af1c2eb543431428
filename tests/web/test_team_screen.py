"""The team wall screen (docs/scoreboard.md) as a person sees it, at
1920x1080 and 1280x720: the team standings (rank, team, MP, GP, tie-breaks) beside the
round's matches (home – away, the match score from the boards, each board's result when
there is room). Screenshots at each size, every column inside its panel, team names
whole; then boards confirmed by the captains while the page is open move the score and
the team's row, from the live feed's team delta."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import expect

from tests.web.conftest import Browser, ServerProcess
from tests.web.test_scoreboard_layout import SIZES, _at_size, _geometry, _inside, _open, _whole

TEAMS = [
    "Hamburger SK von 1830",
    "Wojciechowska Academy",
    "Lund Schackklubb",
    "Échecs Club Genève",
    "Oslo Sjakkselskap",
    "Roth Rooks",
]
BOARDS = 4
NAME_LEAST = 150.0
"""px: the least width of a team name column (the longest name is 21 characters)."""


async def _team_event(api: httpx.AsyncClient) -> tuple[str, str, dict[int, str]]:
    """Six teams of four players in a team round-robin, started and round 1 paired;
    returns (id, organizer token, captains' tokens)."""
    created = await api.post(
        "/v1/tournaments",
        json={"name": "Team league", "system": "team-round-robin", "team": {"boards": BOARDS}},
    )
    assert created.status_code == 201, created.text
    tid, organizer = created.json()["id"], created.json()["organizer_token"]
    auth = {"Authorization": f"Bearer {organizer}"}
    captains: dict[int, str] = {}
    for number, name in enumerate(TEAMS, start=1):
        players = [{"name": f"{name[:4]} P{k}", "rating": 2300 - 20 * k} for k in range(BOARDS)]
        answer = await api.post(
            f"/v1/tournaments/{tid}/teams", json={"name": name, "players": players}, headers=auth
        )
        assert answer.status_code == 201, answer.text
        captains[number] = answer.json()["captain_token"]
    started = await api.post(f"/v1/tournaments/{tid}/start", headers=auth)
    assert started.status_code == 200, started.text
    paired = await api.post(f"/v1/tournaments/{tid}/rounds", headers=auth)
    assert paired.status_code == 201, paired.text
    return tid, organizer, captains


async def _board(
    api: httpx.AsyncClient, tid: str, match: int, board: int, result: str, token: str
) -> None:
    answer = await api.put(
        f"/v1/tournaments/{tid}/rounds/1/matches/{match}/boards/{board}/result",
        json={"result": result},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.text


def _row_of(geometry: dict[str, Any], name: str) -> list[str]:
    (row,) = [[c["text"] for c in r] for r in geometry["rows"] if any(c["text"] == name for c in r)]
    return row


async def test_the_team_screen_shows_matches_and_team_standings(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser, tmp_path: Path
) -> None:
    """Round 1 of the Berger table: 1-6, 2-5, 3-4. Match 1 ends 2½-1½ for the home
    team (board 1 1-0, board 2 ½-½, board 3 0-1, board 4 0-1: on the even boards the
    home team has Black, so board 4 is a home win): 2 match points and 2½ game points
    for Hamburger, none and 1½ for Roth Rooks."""
    tid, organizer, captains = await _team_event(api)
    matches = (await api.get(f"/v1/tournaments/{tid}/rounds/1")).json()["matches"]
    assert [(m["home"], m["away"]) for m in matches] == [(1, 6), (2, 5), (3, 4)]
    for board, result in enumerate(["1-0", "1/2-1/2", "0-1", "0-1"], start=1):
        await _board(api, tid, 1, board, result, organizer)
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tid}/scoreboard")
    await expect(page.locator("#left tbody tr")).to_have_count(6)
    await expect(page.locator("#right tbody tr")).to_have_count(3)
    await expect(page.locator("#left h2")).to_have_text("Team standings after round 1")
    await expect(page.locator("#left thead th")).to_have_text(
        ["#", "Team", "MP", "GP", "MPVGP", "EDE", "EMGSB", "BC"]
    )
    await expect(page.locator("#subtitle")).to_have_text("Round 1 of 5 · 1 of 3 matches complete")
    for size in SIZES:
        await _at_size(page, size, tmp_path / f"teams-{size[0]}x{size[1]}.png")
        # the screen redraws after a resize (with the boards' column or without): settle
        await page.wait_for_timeout(1500)
        await _at_size(page, size, tmp_path / f"teams-{size[0]}x{size[1]}.png")
        standings = await _geometry(page, "left")
        _inside(standings)
        team = next(h for h in standings["heads"] if h["text"] == "Team")
        assert team["width"] >= NAME_LEAST, (size, team)
        for name in TEAMS:  # room for every name whole at both sizes
            assert _whole(standings, name)["width"] >= NAME_LEAST
        assert _row_of(standings, TEAMS[0])[:4] == ["1", TEAMS[0], "2", "2½"]
        assert _row_of(standings, TEAMS[5])[2:4] == ["0", "1½"]
        matches_panel = await _geometry(page, "right")
        _inside(matches_panel)
        for name in TEAMS:
            _whole(matches_panel, name)
        # the boards' column fits beside whole names at both sizes
        assert await page.locator("#right").get_attribute("data-boards") == "shown"
        first = _row_of(matches_panel, TEAMS[0])
        assert first[:4] == ["1", TEAMS[0], "2½ – 1½", TEAMS[5]]
        assert first[4:] == ["1 ½ 0 1"]  # each board, the home side's score
        assert [h["text"] for h in matches_panel["heads"]] == [
            "#",
            "Home",
            "Score",
            "Away",
            "Boards",
        ]
    # live: match 2 (2-5), each board reported by one captain and confirmed by the other;
    # the away team wins 3½-½ (boards 1 and 3 with Black, board 2 with White, board 4
    # drawn): Oslo leads on game points
    for board, result in enumerate(["0-1", "1-0", "0-1", "1/2-1/2"], start=1):
        await _board(api, tid, 2, board, result, captains[2])
        await _board(api, tid, 2, board, result, captains[5])
    oslo = page.locator("#left tbody tr", has_text=TEAMS[4])
    await expect(oslo.locator("td").nth(2)).to_have_text("2", timeout=20_000)
    await expect(oslo.locator("td").nth(3)).to_have_text("3½")
    await expect(oslo.locator("td").nth(0)).to_have_text("1")
    second = page.locator("#right tbody tr", has_text=TEAMS[1])
    await expect(second.locator("td").nth(2)).to_have_text("½ – 3½")
    await expect(page.locator("#subtitle")).to_have_text("Round 1 of 5 · 2 of 3 matches complete")
    browser.check()


async def test_before_the_start_the_screen_lists_the_teams(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser, tmp_path: Path
) -> None:
    """Two teams registered, not started: their number, name, players and the average
    rating of the first four (2300, 2280, 2260, 2240: 2270), across the screen."""
    created = await api.post(
        "/v1/tournaments",
        json={"name": "Team cup", "system": "team-round-robin", "team": {"boards": BOARDS}},
    )
    tid, auth = (
        created.json()["id"],
        {"Authorization": f"Bearer {created.json()['organizer_token']}"},
    )
    for name in TEAMS[:2]:
        players = [{"name": f"{name[:4]} P{k}", "rating": 2300 - 20 * k} for k in range(5)]
        answer = await api.post(
            f"/v1/tournaments/{tid}/teams", json={"name": name, "players": players}, headers=auth
        )
        assert answer.status_code == 201, answer.text
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tid}/scoreboard")
    await expect(page.locator("#left h2")).to_have_text("Registered teams")
    await expect(page.locator("#subtitle")).to_have_text("Registration open · 2 teams registered")
    await expect(page.locator("#left tbody tr").nth(0).locator("td")).to_have_text(
        ["1", TEAMS[0], "5", "2270"]
    )
    await expect(page.locator("#right")).to_be_hidden()
    await _at_size(page, SIZES[1], tmp_path / "teams-registered.png")
    _inside(await _geometry(page, "left"))
    browser.check()


LONG = [
    "Towarzystwo Szachowe Hetman Wrocław",
    "Sociedad Ajedrecística Villa de Madrid",
    "Schachgesellschaft Zürich von 1809",
    "Koninklijke Schaakvereniging Utrecht",
]


async def test_the_boards_column_gives_way_to_long_names(
    server: ServerProcess, api: httpx.AsyncClient, browser: Browser, tmp_path: Path
) -> None:
    """Four teams of 35-38 characters, eight boards: at 1280x720 the names need the
    room, so the Boards column is left out and the rest stays inside the panel."""
    created = await api.post(
        "/v1/tournaments",
        json={"name": "Club league", "system": "team-round-robin", "team": {"boards": 8}},
    )
    tid = created.json()["id"]
    auth = {"Authorization": f"Bearer {created.json()['organizer_token']}"}
    for name in LONG:
        players = [{"name": f"{name[:5]} P{k}", "rating": 2200 - 10 * k} for k in range(8)]
        answer = await api.post(
            f"/v1/tournaments/{tid}/teams", json={"name": name, "players": players}, headers=auth
        )
        assert answer.status_code == 201, answer.text
    assert (await api.post(f"/v1/tournaments/{tid}/start", headers=auth)).status_code == 200
    assert (await api.post(f"/v1/tournaments/{tid}/rounds", headers=auth)).status_code == 201
    page = browser.page
    await _open(page, f"{server.base_url}/v1/tournaments/{tid}/scoreboard")
    await expect(page.locator("#right tbody tr")).to_have_count(2)
    await _at_size(page, SIZES[1], tmp_path / "long-names.png")
    await expect(page.locator("#right")).to_have_attribute("data-boards", "hidden")
    await _at_size(page, SIZES[1], tmp_path / "long-names.png")
    matches = await _geometry(page, "right")
    _inside(matches)
    assert [h["text"] for h in matches["heads"]] == ["#", "Home", "Score", "Away"]
    _inside(await _geometry(page, "left"))
    browser.check()
