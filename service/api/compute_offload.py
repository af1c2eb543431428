"""Stateless computations in the compute workers (`app.compute_pool`), apart from the
API process where stored tournaments compute.

`compute` sends a job for the request's client address and answers with the JSON the
worker made; the pool's bounds become problems naming their settings:

- the client already has `compute_per_client` computations waiting or running: 429
  `rate-limited`, `Retry-After: 1`;
- `compute_queue` computations are already waiting for a worker: 503 `compute-busy`,
  `Retry-After` of `retry_after_seconds`;
- the computation ran past `compute_seconds`: its worker was killed, 422
  `compute-timeout`.

`encoded` is what the worker runs: the job function's whole work (reading the body,
the engine, the response document) and the document's JSON, so nothing but bytes
crosses back and the API process only sends them. Engine errors become their problems
there (RFC 9457 documents, `api.errors`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request, Response
from pydantic import BaseModel

from service.api.errors import engine_problem
from service.app.compute_pool import ClientBusy, ComputePool, PoolBusy, TimedOut
from service.config import Settings
from service.engine.errors import EngineError
from service.errors import ComputeBusy, ComputeTimeout, RateLimited

__all__ = ["PRELOAD", "compute", "compute_pool", "encoded"]

PRELOAD = (
    "service.api.routes.compute",
    "service.api.routes.bridge_compute",
)
"""Modules every compute worker has imported before its first job (the jobs' own)."""


def compute_pool(settings: Settings) -> ComputePool:
    """The pool the settings describe (`compute_*`)."""
    return ComputePool(
        settings.compute_workers,
        seconds=settings.compute_seconds,
        per_client=settings.compute_per_client,
        queue=settings.compute_queue,
        max_tasks=settings.compute_worker_tasks,
        preload=PRELOAD,
    )


def encoded(function: Callable[..., BaseModel], /, *args: Any) -> bytes:
    """In a worker: `function(*args)`'s document as JSON bytes; an engine error raised
    as its problem."""
    try:
        document = function(*args)
    except EngineError as exc:
        raise engine_problem(exc) from None
    return document.__pydantic_serializer__.to_json(document, by_alias=True)


async def compute(request: Request, function: Callable[..., BaseModel], /, *args: Any) -> Response:
    """`function(*args)` in a compute worker for the request's client; its document as
    the 200 response."""
    state = request.app.state.arbiter
    settings: Settings = state.settings
    pool: ComputePool | None = state.compute
    assert pool is not None, "the app's lifespan starts the compute pool"
    client = request.client.host if request.client else "unknown"
    try:
        body = await pool.run(client, encoded, function, *args)
    except ClientBusy:
        allowed = settings.compute_per_client
        raise RateLimited(
            f"this client already has {allowed} computation{'s' if allowed > 1 else ''} "
            "waiting or running (ARBITER_COMPUTE_PER_CLIENT); retry in 1 s",
            retry_after=1,
        ) from None
    except PoolBusy:
        raise ComputeBusy(
            f"every compute worker is busy and {settings.compute_queue} computations are "
            f"waiting (ARBITER_COMPUTE_QUEUE); retry in {settings.retry_after_seconds} s",
            retry_after=settings.retry_after_seconds,
        ) from None
    except TimedOut:
        raise ComputeTimeout(
            f"the computation ran past {settings.compute_seconds:g} s "
            "(ARBITER_COMPUTE_SECONDS) and was stopped",
            seconds=settings.compute_seconds,
        ) from None
    return Response(body, media_type="application/json")
