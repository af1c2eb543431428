"""The scoreboard's routes and files without a browser: the pages, their policy, the
scripts they load, and the rules the scripts keep (no markup built from data)."""

from __future__ import annotations

import re
import shutil
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path

import httpx
import pytest

from service.api.app import create_app
from service.api.routes.scoreboard import CONTENT_SECURITY_POLICY
from service.config import Settings

WEB = files("service.web")
SCRIPTS = sorted(entry.name for entry in WEB.iterdir() if entry.name.endswith(".js"))


@pytest.fixture
async def client(migrated: Path, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    database = tmp_path / "arbiter.db"
    shutil.copy(migrated, database)
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{database}"))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://arbiter.test") as c:
            yield c


async def _tournament(client: httpx.AsyncClient) -> str:
    created = await client.post("/v1/tournaments", json={"name": "Open", "system": "round-robin"})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def _bridge_event(client: httpx.AsyncClient) -> str:
    body = {
        "kind": "pairs",
        "name": "Pairs",
        "scoring": "matchpoints",
        "boards": 1,
        "pairs": [{"number": n, "name": f"Pair {n}"} for n in (1, 2)],
        "movement": [{"round": 1, "tables": [{"table": 1, "ns": 1, "ew": 2, "boards": [1]}]}],
    }
    created = await client.post("/v1/bridge/events", json=body)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def test_page_has_the_policy_and_no_inline_script(client: httpx.AsyncClient) -> None:
    tournament = await _tournament(client)
    page = await client.get(f"/v1/tournaments/{tournament}/scoreboard")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", page.text, re.DOTALL)
    assert scripts, "the page loads its script"
    assert all("src=" in attributes and not body.strip() for attributes, body in scripts)
    assert not re.search(r"\son[a-z]+\s*=", page.text, re.IGNORECASE)  # no inline handlers
    # the script address is relative to the page and lands on the served file
    source = re.search(r'<script[^>]*src="([^"]+)"', page.text)
    assert source is not None
    resolved = httpx.URL(f"http://arbiter.test/v1/tournaments/{tournament}/scoreboard").join(
        source.group(1)
    )
    assert (await client.get(resolved.path)).status_code == 200


async def test_bridge_page_loads_the_same_files(client: httpx.AsyncClient) -> None:
    event = await _bridge_event(client)
    page = await client.get(f"/v1/bridge/events/{event}/scoreboard")
    assert page.status_code == 200
    for address in re.findall(r'(?:src|href)="(\.[^"]+)"', page.text):
        url = httpx.URL(f"http://arbiter.test/v1/bridge/events/{event}/scoreboard").join(address)
        assert (await client.get(url.path)).status_code == 200, address


async def test_each_page_answers_for_its_own_kind(client: httpx.AsyncClient) -> None:
    tournament = await _tournament(client)
    event = await _bridge_event(client)
    wrong = await client.get(f"/v1/bridge/events/{tournament}/scoreboard")
    assert wrong.status_code == 404
    assert wrong.json()["field"] == "event_id"
    missing = await client.get("/v1/tournaments/nope/scoreboard")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")
    moved = await client.get(f"/v1/tournaments/{event}/scoreboard?page=5")
    assert moved.status_code == 307
    target = httpx.URL(f"http://arbiter.test/v1/tournaments/{event}/scoreboard").join(
        moved.headers["location"]
    )
    assert (target.path, target.query) == (f"/v1/bridge/events/{event}/scoreboard", b"page=5")


@pytest.mark.parametrize("name", SCRIPTS)
async def test_scripts_are_served_and_revalidated(client: httpx.AsyncClient, name: str) -> None:
    first = await client.get(f"/v1/web/{name}")
    assert first.status_code == 200
    assert first.headers["content-type"].startswith("text/javascript")
    assert first.text == WEB.joinpath(name).read_text(encoding="utf-8")
    again = await client.get(f"/v1/web/{name}", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.content == b""


async def test_only_the_page_files_are_served(client: httpx.AsyncClient) -> None:
    assert (
        (await client.get("/v1/web/scoreboard.css")).headers["content-type"].startswith("text/css")
    )
    for name in ("__init__.py", "scoreboard.html", "..%2Fapp.py", "nope.js"):
        assert (await client.get(f"/v1/web/{name}")).status_code == 404, name


@pytest.mark.parametrize("name", SCRIPTS)
def test_scripts_never_build_markup_from_text(name: str) -> None:
    """Names are user input: the scripts write text nodes only (no innerHTML, no
    document.write, no eval), and every module they import is a served file."""
    source = WEB.joinpath(name).read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*", "", source)
    for unsafe in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert unsafe not in code, unsafe
    assert "new Function" not in code
    for imported in re.findall(r'from "\./([^"]+)"', code):
        assert imported in SCRIPTS, imported
