"""What an operator watches: Prometheus metrics at `/metrics`, a request id echoed on
every response (`X-Request-ID`), and one structured (JSON) log line per request.

Metrics live in a registry of the app's own (two apps in one process, as in the tests,
never collide). With several workers, set `PROMETHEUS_MULTIPROC_DIR` to a directory the
workers share: prometheus-client then aggregates every worker's figures at scrape time.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from asgi_correlation_id import CorrelationIdMiddleware, correlation_id
from fastapi import FastAPI
from prometheus_client import CollectorRegistry, Gauge, Histogram
from prometheus_fastapi_instrumentator import Instrumentator
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "REQUEST_ID_HEADER",
    "Metrics",
    "install_observability",
    "metrics_of",
    "observe_pairing",
]

REQUEST_ID_HEADER = "X-Request-ID"
_access_log = logging.getLogger("arbiter.access")


@dataclass(frozen=True, slots=True)
class Metrics:
    """The service's own metrics, beside the per-route request counts and latencies."""

    registry: CollectorRegistry
    live_subscribers: Gauge
    """Open live-channel sockets in this process."""
    bus_lag_seconds: Histogram
    """From the bus notification of an event to its frame queued for every spectator of
    this process (reading the event and bringing the table forward included)."""
    pairing_seconds: Histogram
    """Time to pair one round (or a whole schedule), by pairing system."""

    @classmethod
    def create(cls) -> Metrics:
        registry = CollectorRegistry(auto_describe=True)
        return cls(
            registry=registry,
            live_subscribers=Gauge(
                "arbiter_live_subscribers",
                "Open live-channel WebSocket connections",
                registry=registry,
                multiprocess_mode="livesum",
            ),
            bus_lag_seconds=Histogram(
                "arbiter_live_bus_lag_seconds",
                "Delay from an event's notification to its fan-out",
                registry=registry,
                buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15),
            ),
            pairing_seconds=Histogram(
                "arbiter_pairing_seconds",
                "Time to pair a round or a schedule",
                ["system"],
                registry=registry,
                buckets=(0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900),
            ),
        )


def metrics_of(app: FastAPI) -> Metrics:
    """The app's metrics (created by `install_observability`)."""
    metrics = app.state.metrics
    assert isinstance(metrics, Metrics)
    return metrics


@contextmanager
def observe_pairing(app: FastAPI, system: str) -> Iterator[None]:
    """Time one pairing (a round, or a whole schedule) into `arbiter_pairing_seconds`;
    a pairing that fails is not counted."""
    started = time.perf_counter()
    yield
    metrics_of(app).pairing_seconds.labels(system=system).observe(time.perf_counter() - started)


class AccessLogMiddleware:
    """One JSON line per HTTP request on the `arbiter.access` logger: request id, method,
    path, route template, status and duration."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def record_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, record_status)
        finally:
            if _access_log.isEnabledFor(logging.INFO):
                route = scope.get("route")
                client = scope.get("client")
                _access_log.info(
                    json.dumps(
                        {
                            "request_id": correlation_id.get(),
                            "method": scope["method"],
                            "path": scope["path"],
                            "route": getattr(route, "path", None),
                            "status": status,
                            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                            "client": client[0] if client else None,
                        },
                        separators=(",", ":"),
                    )
                )


def install_observability(app: FastAPI) -> Metrics:
    """Add metrics, request ids and access logs to the app (middleware added last runs
    first: the request id is set before anything else sees the request)."""
    metrics = Metrics.create()
    app.state.metrics = metrics
    Instrumentator(
        should_group_status_codes=False,
        should_ignore_untemplated=True,
        excluded_handlers=["/metrics"],
        registry=metrics.registry,
    ).instrument(app, metric_namespace="arbiter").expose(
        app, endpoint="/metrics", include_in_schema=False
    )
    app.add_middleware(AccessLogMiddleware)
    app.add_middleware(
        CorrelationIdMiddleware,
        header_name=REQUEST_ID_HEADER,
        update_request_header=True,
    )
    return metrics
