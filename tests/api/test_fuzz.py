"""Never a 500: every operation of the published contract, fed generated requests
(valid and invalid, from the OpenAPI document) against a real server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings

from service.api.app import create_app
from service.config import Settings
from service.db.migrate import upgrade
from tests.live.conftest import free_port


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server on a loopback port, in a thread of its own, on a fresh SQLite file."""
    database = Path(tmp_path_factory.mktemp("fuzz")) / "fuzz.db"
    url = f"sqlite+aiosqlite:///{database}"
    upgrade(url)
    port = free_port()
    config = uvicorn.Config(
        create_app(Settings(database_url=url)), host="127.0.0.1", port=port, log_level="error"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


CONTRACT = schemathesis.openapi.from_dict(create_app().openapi())
OPERATIONS = [result.ok() for result in CONTRACT.get_all_operations()]  # type: ignore[union-attr]


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_no_server_errors(
    operation: schemathesis.APIOperation[Any, Any, Any, Any], base_url: str
) -> None:
    @given(case=operation.as_strategy())
    @settings(max_examples=20, suppress_health_check=list(HealthCheck), deadline=None)
    def call(case: schemathesis.Case[Any]) -> None:
        response = case.call(base_url=base_url, timeout=30)
        assert response.status_code < 500, f"{case.method} {case.path}: {response.text[:500]}"
        if response.status_code >= 400:
            content_type = response.headers.get("content-type") or [""]
            assert content_type[0].startswith("application/problem+json"), response.text[:300]

    call()
