"""The FastAPI application factory."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import timedelta
from functools import partial

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.routing import APIRoute
from fastapi_offline import FastAPIOffline
from sqlalchemy.ext.asyncio import AsyncEngine

from service.api.access import install_token_redaction
from service.api.compute_offload import compute_pool
from service.api.contract import install_contract
from service.api.errors import install_error_handlers
from service.api.idempotency import IdempotencyMiddleware, run_purger
from service.api.limits import BodyLimitMiddleware
from service.api.live_access import refusals
from service.api.observability import REQUEST_ID_HEADER, install_observability, metrics_of
from service.api.ratelimit import RateLimitMiddleware, RateLimits, parse_limit
from service.api.routes import (
    bridge_compute,
    bridge_events,
    cards,
    compute,
    flampark,
    health,
    listing,
    live,
    me,
    players,
    prizes,
    rating_trf,
    ratings_report,
    rounds,
    scoreboard,
    standings,
    stats,
    teams,
    tokens,
    tournaments,
    trf,
)
from service.api.routes.health import database_state
from service.api.security import SecurityHeadersMiddleware
from service.api.state import AppState
from service.config import Settings, get_settings
from service.db.schema import NOT_MIGRATED
from service.db.session import create_engine, create_session_factory
from service.heap import SpectatorHeap, settle_after_start
from service.live.bus import create_bus
from service.live.connection_pacing import ConnectionPacer, ConnectionPacingMiddleware
from service.live.hub import Hub
from service.live.reader import create_reader
from service.live.wire import ServerSendMiddleware
from service.views.live_tables import create_tables

__all__ = ["create_app"]

PURGER_GRACE_SECONDS = 5.0
"""How long the server's shutdown lets an idempotency purge under way finish."""
SWITCH_INTERVAL_SECONDS = 0.001
"""How often CPython asks a thread running Python code to hand the interpreter over (5 ms
by default). The CPU pool's threads (`app.offload`: uploads read, pairings, standings)
share it with the event loop, and a request answered meanwhile waits for it at each
step (the loop, the database driver's thread); at 1 ms `/healthz` answers within 100 ms
while a 5 MB upload is read (tests/api/test_upload_health.py)."""

DESCRIPTION = """
Tournament pairing and scoring: FLAMPARK, the FIDE Dutch and JCA Swiss systems, Berger
round-robins and Varma draws; results from mobile apps and arbiters; standings with the
FIDE tie-breaks; bridge scoring (IMP, VP, matchpoints, Butler, Cavendish, Patton); live
updates over WebSocket at `/v1/tournaments/{id}/live` (described by
the AsyncAPI 3 document at [/asyncapi.json](/asyncapi.json)).

Writes need `Authorization: Bearer <token>`: the organizer token returned once when the
tournament is created, or a player token (own games only) issued when the start list
closes. Send `Idempotency-Key` with writes to make retries safe. Errors are
`application/problem+json` (RFC 9457) with a stable `type` and the offending `field`.
"""


def _operation_id(route: APIRoute) -> str:
    """Stable operation ids (`<tag>-<function>`) so generated clients do not churn."""
    return f"{route.tags[0]}-{route.name}" if route.tags else route.name


def _install_http_policies(app: FastAPI, config: Settings) -> None:
    """Browser-facing policies (CORS, security headers) and the operators' view (metrics,
    request ids, access logs); the middleware added last runs first."""
    if config.rate_limits_enabled:
        app.add_middleware(
            RateLimitMiddleware,
            limits=RateLimits(
                creations=parse_limit(config.rate_limit_creations),
                writes=parse_limit(config.rate_limit_writes),
                failed_authentications=parse_limit(config.rate_limit_failed_authentications),
            ),
        )
    if config.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=config.cors_origins,
            allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key", REQUEST_ID_HEADER],
            expose_headers=["Idempotent-Replayed", "Retry-After", REQUEST_ID_HEADER],
            max_age=600,
        )
    app.add_middleware(SecurityHeadersMiddleware)
    install_observability(app)


def _read_engine(config: Settings) -> AsyncEngine | None:
    """The readers' pool (`read_pool_size`), or None where reads must share the writers'
    engine: an in-memory SQLite database exists once per engine."""
    if config.read_pool_size < 1 or ":memory:" in config.database_url:
        return None
    return create_engine(
        config.database_url,
        echo=config.sql_echo,
        pool_size=config.read_pool_size,
        lock_wait_seconds=config.lock_wait_seconds,
        sqlite_one_trip_driver=config.sqlite_one_trip_driver,
        driver_statements=config.driver_statements,
    )


_log = logging.getLogger("arbiter.api")

_NOT_MIGRATED_AT_START = (
    "the database has not been migrated to this release: run `arbiter migrate`; until "
    "then /healthz answers 503 and every request that reaches the database answers 503"
)
_UNREACHABLE_AT_START = (
    "the database did not answer at start-up; /healthz answers 503 until it does, and "
    "the service serves as soon as it is back"
)


async def report_database_at_start(state: AppState) -> str:
    """Say in the log, once, what `/healthz` would say of the database if it is not
    "ok": an operator who started the server on a database that was never migrated (or
    migrated for an older release) reads the cure at start-up instead of finding it in
    the first 503. The server starts either way; the probe waits 2 s at most."""
    try:
        database = await database_state(state)
    except Exception as exc:  # the server starts anyway; /healthz tells the rest
        _log.warning("the database's state could not be read at start-up: %r", exc)
        return "unknown"
    if database == NOT_MIGRATED:
        _log.warning(_NOT_MIGRATED_AT_START)
    elif database != "ok":
        _log.warning(_UNREACHABLE_AT_START)
    return database


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; the lifespan opens the database engine and the event bus."""
    config = settings or get_settings()
    pacer = ConnectionPacer(config.live_admissions_per_turn)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_engine(
            config.database_url,
            echo=config.sql_echo,
            pool_size=config.write_pool_size or None,
            lock_wait_seconds=config.lock_wait_seconds,
            sqlite_one_trip_driver=config.sqlite_one_trip_driver,
            driver_statements=config.driver_statements,
        )
        reader = create_reader(config, create_tables)
        reader.start()
        hub = Hub(reader, config, heap=SpectatorHeap(), pacer=pacer)
        metrics = metrics_of(app)
        hub.observe_lag = metrics.bus_lag_seconds.observe
        hub.count_warmup = lambda trigger: metrics.tables_warmed.labels(trigger=trigger).inc()
        bus = create_bus(config.database_url, config.bus_url, config.bus_namespace)
        bus.attach(hub.notify, hub.resync, hub.warm_for_peer)
        await bus.start()
        read_engine = _read_engine(config)
        compute = compute_pool(config)
        compute.start()
        app.state.arbiter = AppState(
            settings=config,
            db_engine=engine,
            sessions=create_session_factory(engine),
            bus=bus,
            hub=hub,
            read_db_engine=read_engine,
            read_sessions=None if read_engine is None else create_session_factory(read_engine),
            compute=compute,
        )
        hub.recheck = partial(refusals, app.state.arbiter)  # after an access change
        stop_purging = asyncio.Event()
        purger = asyncio.create_task(
            run_purger(
                app.state.arbiter.sessions,
                timedelta(hours=config.idempotency_ttl_hours),
                config.idempotency_purge_minutes * 60,
                stop_purging,
            )
        )
        sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
        settle_after_start()
        await report_database_at_start(app.state.arbiter)
        try:
            yield
        finally:
            stop_purging.set()  # a purge under way finishes; 5 s at most, then cancelled
            with suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(purger, PURGER_GRACE_SECONDS)
            await hub.stop()
            await bus.stop()
            reader.stop()
            await compute.stop()
            await engine.dispose()
            if read_engine is not None:
                await read_engine.dispose()

    app = FastAPIOffline(
        title="Arbiter",
        version="1.0.0",
        summary="Tournament pairing and scoring service",
        description=DESCRIPTION,
        lifespan=lifespan,
        generate_unique_id_function=_operation_id,
        separate_input_output_schemas=False,
    )
    install_error_handlers(app)
    install_token_redaction()  # `?token=` (live channel, pages) never reaches the logs
    app.add_middleware(IdempotencyMiddleware)
    app.add_middleware(BodyLimitMiddleware)  # outer: limits apply before any body is read
    _install_http_policies(app, config)
    install_contract(app)
    # The router tries each included router's routes in turn, in this order, so the
    # stateless compute routes come first: an anonymous `POST /v1/compute/pairings`
    # otherwise passed about fifty routes before its own (a tenth of a millisecond, no
    # small part of a request the service answers in the C++ engine's time). No other
    # router's paths start with `/v1/compute/`, so no request changes route; the
    # published contract sorts its paths.
    for module in (
        compute,
        health,
        listing,
        tournaments,
        trf,
        players,
        teams,
        rounds,
        standings,
        prizes,
        ratings_report,
        rating_trf,
        cards,
        me,
        live,
        flampark,
        scoreboard,
        stats,
        bridge_compute,
        bridge_events,
        tokens,
    ):
        app.include_router(module.router)
    app.add_middleware(ServerSendMiddleware)  # the live feed's direct path
    # outermost: a crowd of spectators connecting is let in a few per turn of the loop
    app.add_middleware(ConnectionPacingMiddleware, pacer=pacer)
    return app
