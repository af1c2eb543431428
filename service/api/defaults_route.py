"""Routes that skip FastAPI's parameter solving when a request sends no query string.

FastAPI solves a route's parameters for every request: for each query parameter it
inspects the parameter's type, looks the value up, and validates or copies the default.
For the stateless compute routes, whose callers mostly send nothing but the body, that
is most of the framework's own time per request, spent to arrive at the defaults of
the function's signature. `DefaultsRoute` (FastAPI's documented extension point, a
custom `APIRoute` class) calls such a route's function with the request alone when the
query string is empty; any query string goes through FastAPI's handler as before, so
validation and its problems are unchanged.

A route takes this path only when that call is the same as FastAPI's: an `async`
function whose parameters are the request and query parameters with defaults (no path,
header, cookie or body parameter, and no dependency, its own or its router's, as the
route is included), returning a `Response`, which FastAPI sends as it is.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Coroutine
from typing import Any

import fastapi.routing
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

__all__ = ["DefaultsRoute", "takes_defaults"]

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


def takes_defaults(dependant: Dependant) -> bool:
    """Whether calling the dependant's function with the request alone is what FastAPI
    does for a request without a query string (see the module docstring)."""
    endpoint = dependant.call
    if not inspect.iscoroutinefunction(endpoint) or dependant.request_param_name is None:
        return False
    if (
        dependant.path_params
        or dependant.header_params
        or dependant.cookie_params
        or dependant.body_params
        or dependant.dependencies
        or dependant.websocket_param_name
        or dependant.http_connection_param_name
        or dependant.response_param_name
        or dependant.background_tasks_param_name
        or dependant.security_scopes_param_name
    ):
        return False
    if any(field.field_info.is_required() for field in dependant.query_params):
        return False
    try:
        returns = typing.get_type_hints(endpoint).get("return")
    except (NameError, TypeError):
        return False
    return isinstance(returns, type) and issubclass(returns, Response)


def _effective_dependant(route: APIRoute) -> Dependant:
    """The dependant FastAPI builds the route's handler for: as included, with the
    including router's dependencies (recent FastAPI versions keep those apart from the
    route, in the context its handler is built in), else the route's own."""
    context_var = getattr(fastapi.routing, "_effective_route_context_var", None)
    context = context_var.get() if context_var is not None else None
    if context is not None and getattr(context, "original_route", None) is route:
        dependant = getattr(context, "dependant", None)
        if isinstance(dependant, Dependant):
            return dependant
    return route.dependant


class DefaultsRoute(APIRoute):
    """An `APIRoute` that calls its function with the request alone when the request
    has no query string and the route `takes_defaults`."""

    def get_route_handler(self) -> Handler:
        handler: Handler = super().get_route_handler()
        dependant = _effective_dependant(self)
        if not takes_defaults(dependant):
            return handler
        endpoint: Callable[..., Coroutine[Any, Any, Response]] = dependant.call  # type: ignore[assignment]
        name = dependant.request_param_name
        assert name is not None

        async def with_defaults(request: Request) -> Response:
            if request.scope.get("query_string"):
                return await handler(request)
            return await endpoint(**{name: request})

        return with_defaults
