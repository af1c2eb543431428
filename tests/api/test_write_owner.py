"""Which tournament a write needs a token of before its body is read
(`api.credential_precheck.owner_of`), read from the app's route table: any path below
a tournament's or bridge event's own route, whatever the method and whether a route
takes it, and a route whose write dependency declares a token check."""

from __future__ import annotations

from functools import cache

import pytest
from fastapi import FastAPI

from service.api.app import create_app
from service.api.credential_precheck import owner_of
from service.config import Settings


@cache
def _app() -> FastAPI:
    return create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))


def _owner(method: str, path: str, root_path: str = "") -> str | None:
    scope = {"type": "http", "method": method, "path": path, "root_path": root_path, "app": _app()}
    return owner_of(scope)


@pytest.mark.parametrize(
    ("method", "path", "owner"),
    [
        ("PUT", "/v1/tournaments/t1/rounds/1/games/2/result", "t1"),
        ("POST", "/v1/tournaments/t1/standings", "t1"),  # no POST route: 405 after the check
        ("POST", "/v1/tournaments/t1/no/such/thing", "t1"),  # no route at all
        ("PATCH", "/v1/tournaments/t1", "t1"),  # the tournament's own route, checked
        ("DELETE", "/v1/tournaments/t1", "t1"),
        ("POST", "/v1/tournaments/t1", None),  # no such route, and not below one
        ("POST", "/v1/tournaments/t1/", None),  # nothing below it
        ("POST", "/v1/tournaments", None),  # a creation needs no token
        ("POST", "/v1/tournaments/import", None),
        ("PUT", "/v1/bridge/events/e1/tables/1/boards/2", "e1"),
        ("POST", "/v1/bridge/events/e1/import", "e1"),
        ("POST", "/v1/bridge/events", None),
        ("POST", "/v1/compute/standings", None),
        ("POST", "/v1/tournaments/a b/players", None),  # no id: the route answers 422
        ("POST", "/v2/tournaments/t1/players", None),
    ],
)
def test_the_owner_of_a_write(method: str, path: str, owner: str | None) -> None:
    assert _owner(method, path) == owner


def test_the_root_path_is_not_part_of_the_route() -> None:
    """Behind a root path (`uvicorn --root-path`) the routes are matched without it."""
    assert _owner("POST", "/api/v1/tournaments/t1/players", root_path="/api") == "t1"
    assert _owner("POST", "/api/v1/tournaments/t1/no/such/thing", root_path="/api") == "t1"
