"""What operators and browsers expect of the HTTP layer: metrics, request ids and access
logs, security headers, CORS, and API docs that work without the internet."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.api.security import PAGE_POLICY
from service.config import Settings
from tests.api.conftest import create_round_robin

PLAYERS = [("Ann", 2100), ("Bob", 2000), ("Cid", 1900), ("Dan", 1800)]


def _sample(metrics: str, name: str, **labels: str) -> float:
    """The value of one sample of the Prometheus text format (0 when absent)."""
    for line in metrics.splitlines():
        if not line.startswith(name + "{"):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def test_metrics_count_requests_by_route_and_status(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    for _ in range(3):
        assert (await client.get(f"/v1/tournaments/{event.id}/standings")).status_code == 200
    assert (await client.get("/v1/tournaments/no-such-id")).status_code == 404

    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    standings = "/v1/tournaments/{tournament_id}/standings"
    total = "arbiter_http_requests_total"
    assert _sample(text, total, handler=standings, method="GET", status="200") == 3
    assert _sample(text, total, handler="/v1/tournaments/{tournament_id}", status="404") == 1
    assert _sample(text, "arbiter_http_request_duration_seconds_count", handler=standings) == 3
    assert "arbiter_live_subscribers" in text
    assert "arbiter_pairing_seconds" in text


async def test_unrouted_requests_and_scrapes_are_not_counted(client: httpx.AsyncClient) -> None:
    """A path no route matches would give every scanner's guess a series of its own."""
    assert (await client.get("/no/such/path/12345")).status_code == 404
    await client.get("/metrics")
    text = (await client.get("/metrics")).text
    assert "/no/such/path" not in text
    assert _sample(text, "arbiter_http_requests_total", handler="/metrics") == 0
    assert _sample(text, "arbiter_http_request_duration_seconds_bucket", handler="/metrics") == 0


def _labels(metrics: str, name: str, label: str) -> set[str]:
    """Every value `label` takes in the samples of `name`."""
    return {
        dict(re.findall(r'(\w+)="([^"]*)"', line)).get(label, "")
        for line in metrics.splitlines()
        if line.startswith(name + "{")
    }


async def test_metric_labels_are_bounded(client: httpx.AsyncClient) -> None:
    """A client picks the method and the path it sends; neither may add series at will:
    methods outside RFC 9110 and PATCH are counted as `other`, paths by route template."""
    event = await create_round_robin(client, PLAYERS, start=False)
    for index in range(12):
        response = await client.request(f"FROB{index}", "/v1/tournaments")
        assert response.status_code == 405
    await client.request("get", f"/v1/tournaments/{event.id}")
    await client.request("OPTIONS", "/v1/tournaments")
    text = (await client.get("/metrics")).text
    standard = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"}
    for name in ("arbiter_http_requests_total", "arbiter_http_request_duration_seconds_count"):
        assert _labels(text, name, "method") <= standard | {"other"}
        assert all(h.startswith("/") and event.id not in h for h in _labels(text, name, "handler"))
    assert all(
        re.fullmatch(r"[1-5]\d\d", s)
        for s in _labels(text, "arbiter_http_requests_total", "status")
    )
    total = "arbiter_http_requests_total"
    assert _sample(text, total, handler="/v1/tournaments", method="other", status="405") == 12


async def test_two_apps_in_one_process_keep_their_own_metrics(database_url: str) -> None:
    first = create_app(Settings(database_url=database_url))
    second = create_app(Settings(database_url=database_url))
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=first), base_url="http://a.test"
        ) as a:
            await a.get("/healthz")
            seen = (await a.get("/metrics")).text
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=second), base_url="http://b.test"
        ) as b:
            unseen = (await b.get("/metrics")).text
    assert _sample(seen, "arbiter_http_requests_total", handler="/healthz") == 1
    assert _sample(unseen, "arbiter_http_requests_total", handler="/healthz") == 0


async def test_request_id_is_echoed_or_made(
    client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    given = "4b0d6c3e2a9f4e21b5f1c0d9e8a7b6c5"
    with caplog.at_level(logging.INFO, logger="arbiter.access"):
        echoed = await client.get("/healthz", headers={"X-Request-ID": given})
        made = await client.get("/v1/tournaments/unknown")
    assert echoed.headers["x-request-id"] == given
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["x-request-id"])
    assert made.headers["x-request-id"] != given

    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "arbiter.access"]
    by_id = {line["request_id"]: line for line in lines}
    assert by_id[given]["path"] == "/healthz" and by_id[given]["status"] == 200
    missing = by_id[made.headers["x-request-id"]]
    assert missing["status"] == 404
    assert missing["route"] == "/v1/tournaments/{tournament_id}"
    assert missing["duration_ms"] >= 0


async def test_html_pages_carry_the_security_headers(client: httpx.AsyncClient) -> None:
    event = await create_round_robin(client, PLAYERS)
    page = await client.get(f"/v1/tournaments/{event.id}/scoreboard")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"] == PAGE_POLICY
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"

    document = await client.get(f"/v1/tournaments/{event.id}")
    assert document.headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" not in document.headers


async def test_docs_are_served_from_the_package(client: httpx.AsyncClient) -> None:
    page = await client.get("/docs")
    assert page.status_code == 200
    assert "cdn." not in page.text and "https://" not in page.text.split("<body>", 1)[0]
    scripts = re.findall(r'src="([^"]+)"', page.text)
    styles = re.findall(r'href="([^"]+\.css)"', page.text)
    assert scripts and styles
    for asset in scripts + styles:
        assert asset.startswith("/"), asset
        served = await client.get(asset)
        assert served.status_code == 200, asset
        assert len(served.content) > 10_000, asset
    assert "'unsafe-inline'" in page.headers["content-security-policy"]

    redoc = await client.get("/redoc")
    assert redoc.status_code == 200
    assert "fonts.googleapis" not in redoc.text


@pytest.fixture
async def cors_app(database_url: str) -> AsyncIterator[FastAPI]:
    application = create_app(
        Settings(database_url=database_url, cors_origins=["https://club.example"])
    )
    async with application.router.lifespan_context(application):
        yield application


async def test_cors_preflight_for_an_allowed_origin(cors_app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=cors_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://arbiter.test") as client:
        allowed = await client.options(
            "/v1/tournaments",
            headers={
                "Origin": "https://club.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, idempotency-key",
            },
        )
        refused = await client.options(
            "/v1/tournaments",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        )
        simple = await client.get("/healthz", headers={"Origin": "https://club.example"})
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == "https://club.example"
    assert "POST" in allowed.headers["access-control-allow-methods"]
    assert "idempotency-key" in allowed.headers["access-control-allow-headers"].lower()
    assert refused.status_code == 400
    assert "access-control-allow-origin" not in refused.headers
    assert simple.headers["access-control-allow-origin"] == "https://club.example"
    assert "x-request-id" in simple.headers["access-control-expose-headers"].lower()


async def test_no_cross_origin_access_by_default(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz", headers={"Origin": "https://club.example"})
    assert "access-control-allow-origin" not in response.headers
