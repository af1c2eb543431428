"""What an operator watches: Prometheus metrics at `/metrics`, a request id echoed on
every response (`X-Request-ID`), and one structured (JSON) log line per request.

Metrics live in a registry of the app's own (two apps in one process, as in the tests,
never collide). With several workers, set `PROMETHEUS_MULTIPROC_DIR` to a directory the
workers share: prometheus-client then aggregates every worker's figures at scrape time.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from asgi_correlation_id import CorrelationIdMiddleware, correlation_id
from fastapi import FastAPI, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "REQUEST_ID_HEADER",
    "Metrics",
    "install_observability",
    "metrics_of",
    "observe_pairing",
]

REQUEST_ID_HEADER = "X-Request-ID"
METRICS_PATH = "/metrics"
_METHODS = frozenset(
    {"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}
)
"""The methods of RFC 9110 section 9 and PATCH (RFC 5789): each its own metric label;
any other method a client makes up is counted as `other`, so it adds no series."""
_access_log = logging.getLogger("arbiter.access")


@dataclass(frozen=True, slots=True)
class Metrics:
    """The service's metrics: requests by route template, and its own."""

    registry: CollectorRegistry
    requests_total: Counter
    """HTTP requests answered, by route template, method and status."""
    request_seconds: Histogram
    """Time to answer an HTTP request, by route template and method."""
    live_subscribers: Gauge
    """Open live-channel sockets in this process."""
    bus_lag_seconds: Histogram
    """From the bus notification of an event to its frame queued for every spectator of
    this process (reading the event and bringing the table forward included)."""
    pairing_seconds: Histogram
    """Time to pair one round (or a whole schedule), by pairing system."""
    tables_warmed: Counter
    """Standings tables computed ahead of their first read, by what asked: `write` (a
    start or a pairing through this process) or `peer` (another replica's)."""

    @classmethod
    def create(cls) -> Metrics:
        registry = CollectorRegistry(auto_describe=True)
        return cls(
            registry=registry,
            requests_total=Counter(
                "arbiter_http_requests_total",
                "HTTP requests answered, by route template, method and status",
                ["handler", "method", "status"],
                registry=registry,
            ),
            request_seconds=Histogram(
                "arbiter_http_request_duration_seconds",
                "Time to answer an HTTP request, by route template and method",
                ["handler", "method"],
                registry=registry,
                buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
            ),
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
            tables_warmed=Counter(
                "arbiter_live_tables_warmed_total",
                "Standings tables computed ahead of their first read, by trigger",
                ["trigger"],
                registry=registry,
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


class RequestRecordMiddleware:
    """Per HTTP request: the request count and duration by route template (the route
    the router matched, read from the scope once it has: no second matching), and one
    JSON line on the `arbiter.access` logger (request id, method, path, route template,
    status, duration). Requests that matched no route, and scrapes of `/metrics`, are not
    counted; a method outside `_METHODS` is counted as `other` (the log keeps it). Every
    label is thus bounded: route templates, nine methods and `other`, the statuses the
    app answers with."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics
        self._series: dict[tuple[str, str, str], tuple[Any, Any]] = {}
        """Each label set's count and duration series, looked up once (`labels` takes
        a lock and checks its labels at every call); bounded as the labels are."""

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
            seconds = time.perf_counter() - started
            template = getattr(scope.get("route"), "path", None)
            method = scope["method"]
            if template is not None and template != METRICS_PATH:
                label = method if method in _METHODS else "other"
                key = (template, label, str(status))
                series = self._series.get(key)
                if series is None:
                    series = (
                        self.metrics.requests_total.labels(*key),
                        self.metrics.request_seconds.labels(template, label),
                    )
                    self._series[key] = series
                series[0].inc()
                series[1].observe(seconds)
            if _access_log.isEnabledFor(logging.INFO):
                client = scope.get("client")
                _access_log.info(
                    json.dumps(
                        {
                            "request_id": correlation_id.get(),
                            "method": method,
                            "path": scope["path"],
                            "route": template,
                            "status": status,
                            "duration_ms": round(seconds * 1000, 2),
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

    @app.get(METRICS_PATH, include_in_schema=False)
    async def scrape() -> Response:
        """The metrics in Prometheus text; summed over every worker process when they
        share `PROMETHEUS_MULTIPROC_DIR`."""
        registry = metrics.registry
        if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    app.add_middleware(RequestRecordMiddleware, metrics=metrics)
    app.add_middleware(
        CorrelationIdMiddleware,
        header_name=REQUEST_ID_HEADER,
        update_request_header=True,
    )
    return metrics
