"""Who may write through each route, and what each write route declares of its unit of
work, for middleware that must know it before the route runs: the idempotency
middleware replays a stored answer only to a caller the route itself would admit now,
and asks an unguessable key of a route that needs no token (IETF draft "The
Idempotency-Key HTTP Header Field": the key names a request; it is no credential where
a token is one); the writers queue in the write queue of the tournament the route names
by its path parameter (`writes_to`), and a route that may join a group commit says so
(`joins_group`); the credential precheck asks which tournament a write needs a token of
(`WriteRoutes.owner`). The routes are read once, on the first write.

A route declares the credential it needs by its write dependency (`deps.get_write`,
`deps.get_organizer_write`, the bridge's own): each is registered here (`checked_by`)
with the check it makes of the caller, the tournament's state included (401 for a
token unknown or expired, 403 for one of the wrong role, 410 once archived). A route
with none of them needs no token. `WriteRoutes` finds a request's route by the app's own
path templates and hands back that route's check, made of the same functions as the
dependency's own (`deps._access` and `deps._writer`, say), so the two cannot drift.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import fastapi.routing
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from sqlmodel.ext.asyncio.session import AsyncSession
from starlette.routing import compile_path
from starlette.types import Scope

__all__ = [
    "OWNER_PARAMS",
    "TokenCheck",
    "WriteRoute",
    "WriteRoutes",
    "checked_by",
    "joins_group",
    "write_routes",
    "writes_to",
]

TokenCheck = Callable[[AsyncSession, Mapping[str, Any], str | None], Awaitable[None]]
"""A route's check of its caller: the session, the path parameters and the bearer token
(None: none sent); raises the route's own problem (401, 403, 404, 410) or returns."""

_Dependency = TypeVar("_Dependency", bound=Callable[..., Any])
_Found = TypeVar("_Found")
_CHECKS: dict[Callable[..., Any], TokenCheck] = {}
_QUEUES: dict[Callable[..., Any], str] = {}
_GROUPED: set[Callable[..., Any]] = set()
_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
OWNER_PARAMS = ("tournament_id", "event_id")
"""The path parameters that name the tournament (or bridge event) a route belongs to."""
_FOUND_KEY = "arbiter.write_route"
"""Where `WriteRoutes.find` keeps its answer in a request's ASGI scope."""


def checked_by(check: TokenCheck) -> Callable[[_Dependency], _Dependency]:
    """Declare that the write dependency this decorates admits its caller by `check`
    (the dependency itself is returned unchanged)."""

    def register(dependency: _Dependency) -> _Dependency:
        _CHECKS[dependency] = check
        return dependency

    return register


def writes_to(queue: str) -> Callable[[_Dependency], _Dependency]:
    """Declare that the routes using the write dependency this decorates write to one
    tournament (or bridge event), whose write queue key `queue` names by the route's path
    parameter (`"tournaments/{tournament_id}"`); the dependency is returned unchanged."""

    def register(dependency: _Dependency) -> _Dependency:
        _QUEUES[dependency] = queue
        return dependency

    return register


def joins_group(endpoint: _Dependency) -> _Dependency:
    """Declare that a route's writes may commit in one transaction with the writes of the
    same route queued behind them (`api.group_commit`): it checks everything before it
    changes anything, then makes one change. Returns the endpoint unchanged."""
    _GROUPED.add(endpoint)
    return endpoint


def _declared(dependant: Dependant, table: Mapping[Callable[..., Any], _Found]) -> _Found | None:
    """What the first dependency of a route's dependency tree registered in `table`
    declares."""
    for sub in dependant.dependencies:
        if sub.call is not None and sub.call in table:
            return table[sub.call]
        found = _declared(sub, table)
        if found is not None:
            return found
    return None


@dataclass(frozen=True, slots=True)
class WriteRoute:
    """A write route and what it needs: `check` None when it needs no token; `queue` the
    template of its write queue's key (None: it writes to no existing tournament);
    `joins_group` whether its writes may commit in a group."""

    methods: frozenset[str]
    path: str
    check: TokenCheck | None
    _compiled: Any
    queue: str | None = None
    joins_group: bool = False

    def queue_key(self, params: Mapping[str, Any]) -> str | None:
        """The key of the write queue a request with these path parameters waits in."""
        return None if self.queue is None else self.queue.format_map(params)

    def params(self, path: str) -> dict[str, Any] | None:
        """The path parameters of `path` if it is this route's, else None."""
        regex, _format, convertors = self._compiled
        match = regex.match(path)
        if match is None:
            return None
        return {name: convertors[name].convert(value) for name, value in match.groupdict().items()}


class WriteRoutes:
    """The app's write routes in its routing order, with their checks."""

    def __init__(self, app: FastAPI) -> None:
        self.routes: list[WriteRoute] = []
        for path, methods, route in _api_routes(app):
            if methods & _WRITE_METHODS:
                self.routes.append(
                    WriteRoute(
                        methods & _WRITE_METHODS,
                        path,
                        _declared(route.dependant, _CHECKS),
                        compile_path(path),
                        _declared(route.dependant, _QUEUES),
                        route.endpoint in _GROUPED,
                    )
                )
        self._by_method = {
            method: [route for route in self.routes if method in route.methods]
            for method in _WRITE_METHODS
        }
        self._subtrees = [
            compile_path(f"{path}/{{below:path}}")[0]
            for path in dict.fromkeys(path for path, _methods, _route in _api_routes(app))
            if path.rpartition("/")[2].strip("{}") in OWNER_PARAMS
        ]
        """Every path below a tournament's (or bridge event's) own route, whatever its
        method: `/v1/tournaments/{tournament_id}/{below}`, `/v1/bridge/events/..."""

    @staticmethod
    def _path(scope: Scope) -> str:
        """The request's path inside the app (its root path taken off)."""
        path: str = scope["path"]
        root = scope.get("root_path", "")
        return path[len(root) :] if root and path.startswith(root) else path

    def find(self, scope: Scope) -> tuple[WriteRoute, dict[str, Any]] | None:
        """The route a write request goes to and its path parameters; None when no
        route takes it (the app answers 404 or 405 and stores nothing). Found once per
        request: the body limit, the idempotency middleware and the write dependency
        all ask, and the answer is kept in the scope (`_FOUND_KEY`) with the method and
        path it was found for."""
        method, path, root = scope["method"], scope["path"], scope.get("root_path", "")
        kept = scope.get(_FOUND_KEY)
        if kept is not None and kept[0] == (method, path, root):
            return kept[1]  # type: ignore[no-any-return]
        found = self._find(method, self._path(scope))
        scope[_FOUND_KEY] = ((method, path, root), found)
        return found

    def _find(self, method: str, path: str) -> tuple[WriteRoute, dict[str, Any]] | None:
        for route in self._by_method.get(method, ()):
            params = route.params(path)
            if params is not None:
                return route, params
        return None

    def owner(self, scope: Scope) -> str | None:
        """The tournament (or bridge event) a write request needs a token of, by the path
        parameter that names it (`OWNER_PARAMS`): for any path below a tournament's own
        route, whether a route takes it or not (the app would answer 404 or 405), and for a
        route whose write dependency declares a token check (a tournament's own PATCH and
        DELETE); None otherwise."""
        path = self._path(scope)
        for subtree in self._subtrees:
            match = subtree.match(path)
            if match is not None and match["below"]:
                return _owner_in(match.groupdict())
        found = self.find(scope)
        if found is None or found[0].check is None:
            return None
        return _owner_in(found[1])

    def needs_token(self, scope: Scope) -> bool:
        """Whether the route of this request admits its caller by a token."""
        found = self.find(scope)
        return found is not None and found[0].check is not None


def _owner_in(params: Mapping[str, Any]) -> str | None:
    """The value of the first owner parameter among a route's path parameters."""
    for name in OWNER_PARAMS:
        if name in params:
            return str(params[name])
    return None


def _api_routes(app: FastAPI) -> Iterator[tuple[str, frozenset[str], fastapi.routing.APIRoute]]:
    """Each API route of the app, with its full path and methods, in routing order.
    Recent FastAPI versions keep included routers as such (`iter_route_contexts` walks
    them); older ones hold every route in `app.routes`, flat."""
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)
    if contexts is None:
        for route in app.routes:
            if isinstance(route, fastapi.routing.APIRoute):
                yield route.path, frozenset(route.methods or ()), route
        return
    for context in contexts(app.routes):
        route = context.original_route
        if isinstance(route, fastapi.routing.APIRoute):
            yield str(context.path), frozenset(context.methods or ()), route


def write_routes(app: FastAPI) -> WriteRoutes:
    """The app's `WriteRoutes`, built once, on first use (every route is included by
    then)."""
    routes: WriteRoutes | None = getattr(app.state, "write_routes", None)
    if routes is None:
        routes = WriteRoutes(app)
        app.state.write_routes = routes
    return routes
