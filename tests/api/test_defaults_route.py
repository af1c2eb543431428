"""`DefaultsRoute` (service/api/defaults_route.py): a request without a query string
calls the route's function with the request alone, only where FastAPI would have
called it so; with a query string FastAPI solves and validates the parameters as
before, and a dependency of the including router still runs."""

from __future__ import annotations

import httpx
from fastapi import APIRouter, Body, Depends, FastAPI, Request, Response
from fastapi.routing import iter_route_contexts

from service.api.app import create_app
from service.api.defaults_route import DefaultsRoute, takes_defaults
from service.config import Settings


def _router(seen: list[str]) -> APIRouter:
    router = APIRouter(route_class=DefaultsRoute)

    @router.post("/count")
    async def count(request: Request, times: int = 3, unit: str = "ms") -> Response:
        seen.append(f"{request.method} {times} {unit}")
        return Response(f"{times} {unit}")

    @router.post("/echo")
    async def echo(request: Request, text: str = Body(default="x")) -> Response:
        return Response(text)

    @router.post("/document")
    async def document(request: Request, times: int = 3) -> dict[str, int]:
        return {"times": times}

    return router


async def _post(app: FastAPI, path: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        return await client.post(path)


async def test_no_query_string_gets_the_signature_defaults() -> None:
    seen: list[str] = []
    app = FastAPI()
    app.include_router(_router(seen))
    assert (await _post(app, "/count")).text == "3 ms"
    assert (await _post(app, "/count?times=5")).text == "5 ms"
    bad = await _post(app, "/count?times=five")
    assert bad.status_code == 422
    assert bad.json()["detail"][0]["loc"] == ["query", "times"]
    assert seen == ["POST 3 ms", "POST 5 ms"]


async def test_a_dependency_of_the_including_router_still_runs() -> None:
    calls: list[str] = []

    def check() -> None:
        calls.append("checked")

    app = FastAPI()
    app.include_router(_router([]), dependencies=[Depends(check)])
    assert (await _post(app, "/count")).text == "3 ms"
    assert calls == ["checked"]


def test_only_routes_fastapi_would_call_with_the_request_alone() -> None:
    app = FastAPI()
    app.include_router(_router([]))
    taken = {
        str(context.path): takes_defaults(context.dependant)
        for context in iter_route_contexts(app.routes)
        if isinstance(context.original_route, DefaultsRoute)
    }
    # a body parameter, and a document FastAPI would serialize, go through FastAPI
    assert taken == {"/count": True, "/echo": False, "/document": False}


def test_the_compute_routes_that_take_it() -> None:
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    taken = {
        str(context.path): takes_defaults(context.dependant)
        for context in iter_route_contexts(app.routes)
        if isinstance(context.original_route, DefaultsRoute)
    }
    assert taken == {
        "/v1/compute/pairings": True,
        "/v1/compute/standings": True,
        "/v1/compute/ratings": True,
        "/v1/compute/flampark/schedule": False,  # a JSON body FastAPI parses
        "/v1/compute/varma": False,
    }
