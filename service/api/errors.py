"""Rendering of every error as problem+json (RFC 9457).

The service's own problems are service.errors; the engine's errors (one tree under
`EngineError`, listed in service/engine/errors.py) map to problem types through
`ENGINE_PROBLEMS`, all 422, but for its rule refusals (`RuleRefusal`), which are the
service's own 403 and 409 (`RULE_REFUSALS`). Any other exception, a bare `ValueError`
included, is a bug: a 500 `internal` problem with its traceback logged.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from service.app.write_queue import LOCK_WAIT_DETAIL
from service.db.failures import (
    LOCK_NOT_AVAILABLE,
    error_chain,
    is_lock_timeout,
    is_not_migrated,
    sqlstate,
)
from service.engine.bridge.errors import BridgeInputError
from service.engine.byes import ByeRequestError
from service.engine.errors import EngineError, RuleRefusal
from service.engine.lifecycle import LifecycleError
from service.engine.pairing.flampark.errors import (
    FlamparkOptionError,
    FlamparkScheduleError,
    TooFewPlayersError,
)
from service.engine.pairing.round_pairing import PairingError
from service.engine.pairing.varma import VarmaError
from service.engine.result_reporting import NotOwnGame, ResultLocked
from service.engine.scoring.flampark import (
    FlamparkError,
    ShorteningByArbiterError,
    ShorteningError,
)
from service.engine.scoring.progress_premium import PremiumError
from service.engine.scoring.tiebreaks.errors import (
    TieBreakError,
    UnknownTieBreakError,
    UnsupportedEditionError,
)
from service.engine.trf import TrfError
from service.errors import Conflict, Forbidden, InvalidInput, Problem, Unavailable

__all__ = [
    "ENGINE_PROBLEMS",
    "PROBLEM_MEDIA_TYPE",
    "RULE_REFUSALS",
    "engine_problem",
    "install_error_handlers",
    "is_lock_timeout",
    "is_outage",
    "outage_problem",
    "problem_headers",
    "problem_response",
    "problem_type",
    "validation_problem",
]

PROBLEM_MEDIA_TYPE = "application/problem+json"
_log = logging.getLogger("arbiter.api")


_OUTAGE_SQLSTATES = ("08", "57P", "53300", "55000", LOCK_NOT_AVAILABLE)
"""PostgreSQL classes meaning "cannot talk to the database now": connection exceptions,
operator intervention (shutdown, terminated backend, starting up), too many
connections, a database not accepting connections, a lock held past `lock_timeout`
(busy, and nothing was written)."""
_OUTAGE_MESSAGES = ("database is locked", "connection is closed", "connection was closed")
NOT_MIGRATED_DETAIL = (
    "the database has not been migrated to this release; run `arbiter migrate`, then retry"
)


def is_outage(exc: BaseException) -> bool:
    """True when `exc` says the database is unreachable or busy, not that the request
    is wrong: the client should retry later (503), and nothing was written."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    return any(
        isinstance(seen, OSError | PoolTimeout)
        or sqlstate(seen).startswith(_OUTAGE_SQLSTATES)
        or any(text in str(seen).lower() for text in _OUTAGE_MESSAGES)
        for seen in error_chain(exc)
    )


def outage_problem(cause: BaseException | None = None) -> Unavailable:
    """The 503 sent while the database cannot be reached, or, when `cause` is a lock
    wait that ran out, while another write holds what this one needs."""
    if cause is not None and is_lock_timeout(cause):
        return Unavailable(LOCK_WAIT_DETAIL, field="database")
    return Unavailable(
        "the database is unreachable; the request changed nothing, retry later",
        field="database",
    )


def problem_headers(problem: Problem, retry_after: int | None = None) -> dict[str, str]:
    """The headers a problem goes out with, from a route or from middleware alike: the
    scheme to use on a 401 (RFC 9110 section 11.6.1), `Retry-After` when given."""
    headers = {"WWW-Authenticate": "Bearer"} if problem.status == 401 else {}
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return headers


def problem_response(
    problem: Problem, instance: str | None = None, *, retry_after: int | None = None
) -> JSONResponse:
    """Render a problem as an HTTP response."""
    return JSONResponse(
        problem.body(instance),
        status_code=problem.status,
        media_type=PROBLEM_MEDIA_TYPE,
        headers=problem_headers(problem, retry_after),
    )


ENGINE_PROBLEMS: dict[type[EngineError], tuple[str, str]] = {
    EngineError: ("invalid-input", "Invalid input"),
    TrfError: ("invalid-trf", "Invalid TRF file"),
    PairingError: ("pairing-impossible", "No pairing possible"),
    ByeRequestError: ("invalid-bye", "Bye not granted"),
    VarmaError: ("invalid-draw", "Varma draw impossible"),
    FlamparkScheduleError: ("invalid-schedule", "FLAMPARK schedule impossible"),
    FlamparkOptionError: ("invalid-schedule", "FLAMPARK schedule impossible"),
    TooFewPlayersError: ("too-few-players", "Too few players"),
    TieBreakError: ("invalid-tiebreak", "Invalid tie-break"),
    UnknownTieBreakError: ("unknown-tiebreak", "Unknown tie-break"),
    UnsupportedEditionError: ("unsupported-edition", "Unsupported tie-break edition"),
    FlamparkError: ("invalid-flampark-score", "Invalid FLAMPARK scoring input"),
    ShorteningError: ("invalid-shortening", "Invalid time shortening"),
    ShorteningByArbiterError: ("shortening-by-arbiter", "Time shortening is the arbiter's"),
    PremiumError: ("invalid-premium", "Invalid progress premium"),
    BridgeInputError: ("invalid-bridge-input", "Invalid bridge input"),
    LifecycleError: ("illegal-transition", "Not allowed in this state"),
}
"""Engine error class -> (problem type, title); a class not listed takes its nearest
listed base's row (`MatchingError` -> `pairing-impossible`). Every one is a 422. A
`LifecycleError` never gets here from a route: the application layer answers it as a
409 `conflict` (`app.lifecycle`); its row serves a direct caller of the engine."""

RULE_REFUSALS: dict[type[RuleRefusal], type[Problem]] = {
    RuleRefusal: Conflict,
    NotOwnGame: Forbidden,
    ResultLocked: Conflict,
}
"""Rule refusal class -> the service's problem it is answered with (its status, type
and title); a class not listed takes its nearest listed base's row. A workflow that
expects a refusal raises this problem itself (`app.report_result`), so that its callers
see the service's errors; any other refusal is answered here."""

_CONTRACT_PARTS = frozenset({"level", "strain", "doubling"})
"""Bridge engine fields that are parts of the one `contract` field of a request."""


def _refusal_problem(cls: type[RuleRefusal]) -> type[Problem]:
    return next(RULE_REFUSALS[k] for k in cls.__mro__ if k in RULE_REFUSALS)


def problem_type(cls: type[EngineError]) -> tuple[str, str]:
    """(type, title) of an engine error class: its own row or its nearest listed base's."""
    if issubclass(cls, RuleRefusal):
        problem = _refusal_problem(cls)
        return problem.slug, problem.title
    return next(ENGINE_PROBLEMS[k] for k in cls.__mro__ if k in ENGINE_PROBLEMS)


def engine_problem(exc: EngineError) -> Problem:
    """The problem for an engine error: its class's type, its message and field (a rule
    refusal: the service's problem for it, with the refusal's message and field)."""
    if isinstance(exc, RuleRefusal):
        return _refusal_problem(type(exc))(str(exc), field=exc.field)
    slug, title = problem_type(type(exc))
    field = exc.field
    if isinstance(exc, BridgeInputError) and field in _CONTRACT_PARTS:
        field = "contract"
    problem = InvalidInput(str(exc), field=field)
    problem.slug, problem.title = slug, title
    return problem


_UNION_TAG = re.compile(r"^(?:[A-Z]|[a-z-]*\[|[a-z]+-|(?:int|float|str|bool|bytes|decimal)$)")
"""Location parts pydantic adds for the member of a union that failed, not a field: a
model's name, a tag such as `literal[...]`, `list[int]`, `constrained-int` or
`function-after[...]`, or a plain type (`int`). Field names are snake_case words."""
_NAMED_MESSAGE = re.compile(r"^(?:Value error, )?([a-z_][a-z0-9_.\[\]]*): (.+)$")


def _describe(error: Any) -> dict[str, str]:
    """One validation error as {field, in, message}; a model-level check names its field
    at the start of its message ("rounds: ..."); a body that is not JSON is `body` (the
    location FastAPI gives it is the character where reading stopped)."""
    location = tuple(error.get("loc", ()))
    if error.get("type") == "json_invalid":
        reason = (error.get("ctx") or {}).get("error", "invalid JSON")
        at = f" at character {location[1]}" if len(location) > 1 else ""
        return {"field": "body", "in": "body", "message": f"not JSON: {reason}{at}"}
    field = _field_name(location)
    message = str(error.get("msg", ""))
    named = _NAMED_MESSAGE.match(message)
    if named and len(location) <= 1:
        field, message = named.group(1), named.group(2)
    return {"field": field, "in": str(location[0]) if location else "body", "message": message}


def _field_name(location: tuple[Any, ...]) -> str:
    """`("body", "points", "win")` -> `points.win`; the location is given separately."""
    parts = [str(p) for p in location[1:] if not _UNION_TAG.match(str(p))] if location else []
    return ".".join(parts) if parts else str(location[0] if location else "body")


_UNREADABLE_BODY = (ValueError, RecursionError)
"""Why FastAPI could not read a JSON body other than bad syntax (which it reports as a
validation error): bytes that are not UTF-8 (RFC 8259 section 8.1), or nesting deeper
than the parser goes. It answers those with a bare 400; they are bad input like any
other, so they get the same 422 `invalid-input` naming `body`."""


def unreadable_body(exc: StarletteHTTPException) -> InvalidInput | None:
    """The 422 for a 400 FastAPI raised because it could not read the JSON body, else
    None."""
    cause = exc.__cause__
    if exc.status_code != 400 or not isinstance(cause, _UNREADABLE_BODY):
        return None
    if isinstance(cause, UnicodeDecodeError):
        message = f"not UTF-8: byte 0x{cause.object[cause.start]:02x} at {cause.start}"
    elif isinstance(cause, RecursionError):
        message = "not JSON this service reads: nested too deeply"
    else:
        message = f"not JSON: {cause}"
    return InvalidInput(
        "invalid value for body",
        field="body",
        errors=[{"field": "body", "in": "body", "message": message}],
    )


def validation_problem(errors: Sequence[Any]) -> InvalidInput:
    """Request validation errors (pydantic's, located from "body", "query", ...) as one
    `invalid-input` problem listing every field."""
    described = [_describe(err) for err in errors]
    fields = ", ".join(dict.fromkeys(e["field"] for e in described))
    return InvalidInput(
        f"invalid value for {fields}",
        field=described[0]["field"] if described else None,
        errors=described,
    )


def install_error_handlers(app: FastAPI) -> None:
    """Route every error through problem+json."""

    async def on_problem(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, Problem)
        retry_after = exc.extra.get("retry_after")
        if retry_after is None and isinstance(exc, Unavailable):
            retry_after = request.app.state.arbiter.settings.retry_after_seconds
        return problem_response(exc, request.url.path, retry_after=retry_after)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return problem_response(validation_problem(exc.errors()), request.url.path)

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        unreadable = unreadable_body(exc)
        if unreadable is not None:
            return problem_response(unreadable, request.url.path)
        problem = Problem(str(exc.detail))
        problem.status = exc.status_code
        problem.slug = {404: "not-found", 405: "method-not-allowed"}.get(
            exc.status_code, "http-error"
        )
        problem.title = str(exc.detail)
        return problem_response(problem, request.url.path)

    async def on_engine_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, EngineError)
        return problem_response(engine_problem(exc), request.url.path)

    async def on_database(request: Request, exc: Exception) -> JSONResponse:
        if is_not_migrated(exc):
            return on_not_migrated(request, exc)
        if not is_outage(exc):
            return await on_unexpected(request, exc)
        _log.warning("database unreachable or busy on %s: %s", request.url.path, exc)
        retry_after = request.app.state.arbiter.settings.retry_after_seconds
        return problem_response(outage_problem(exc), request.url.path, retry_after=retry_after)

    def on_not_migrated(request: Request, exc: Exception) -> JSONResponse:
        _log.error("%s on %s: %s", NOT_MIGRATED_DETAIL, request.url.path, exc)
        retry_after = request.app.state.arbiter.settings.retry_after_seconds
        problem = Unavailable(NOT_MIGRATED_DETAIL, field="database")
        return problem_response(problem, request.url.path, retry_after=retry_after)

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        if is_outage(exc) or is_not_migrated(exc):
            return await on_database(request, exc)
        _log.exception("unhandled error on %s", request.url.path, exc_info=exc)
        problem = Problem("internal error; the request changed nothing")
        problem.status, problem.slug, problem.title = 500, "internal", "Internal error"
        return problem_response(problem, request.url.path)

    app.add_exception_handler(Problem, on_problem)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(EngineError, on_engine_error)
    app.add_exception_handler(DBAPIError, on_database)
    app.add_exception_handler(PoolTimeout, on_database)
    app.add_exception_handler(OSError, on_database)
    app.add_exception_handler(Exception, on_unexpected)
