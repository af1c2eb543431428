"""The FastAPI application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from pydantic.json_schema import models_json_schema

from service.api.errors import install_error_handlers
from service.api.idempotency import IdempotencyMiddleware
from service.api.routes import (
    bridge_compute,
    bridge_events,
    cards,
    compute,
    flampark,
    health,
    live,
    players,
    rounds,
    scoreboard,
    standings,
    stats,
    tournaments,
    trf,
)
from service.api.schemas.compute import ComputeTournament
from service.api.state import AppState
from service.config import Settings, get_settings
from service.db.session import create_engine, create_session_factory
from service.live.bus import create_bus
from service.live.hub import Hub
from service.live.reader import create_reader

__all__ = ["create_app"]

DESCRIPTION = """
Tournament pairing and scoring: Berger round-robins (and, as they land, FLAMPARK, FIDE
Dutch and JCA Swiss), results from mobile apps and arbiters, standings with FIDE
tie-breaks, and live updates over WebSocket at `/v1/tournaments/{id}/live`.

Writes need `Authorization: Bearer <token>`: the organizer token returned once when the
tournament is created, or a player token (own games only) issued when the start list
closes. Send `Idempotency-Key` with writes to make retries safe. Errors are
`application/problem+json` (RFC 9457) with a stable `type` and the offending `field`.
"""


def _operation_id(route: APIRoute) -> str:
    """Stable operation ids (`<tag>-<function>`) so generated clients do not churn."""
    return f"{route.tags[0]}-{route.name}" if route.tags else route.name


def _document_extra_schemas(app: FastAPI) -> None:
    """Publish the schemas of bodies that routes read themselves (JSON or TRF text)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
        )
        _, extra = models_json_schema(
            [(ComputeTournament, "validation")], ref_template="#/components/schemas/{model}"
        )
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        for name, schema in extra.get("$defs", {}).items():
            schemas.setdefault(name, schema)
        app.openapi_schema = document
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; the lifespan opens the database engine and the event bus."""
    config = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_engine(config.database_url, echo=config.sql_echo)
        reader = create_reader(config)
        reader.start()
        hub = Hub(reader, config)
        bus = create_bus(config.database_url)
        bus.attach(hub.notify, hub.resync)
        await bus.start()
        app.state.arbiter = AppState(
            settings=config,
            engine=engine,
            sessions=create_session_factory(engine),
            bus=bus,
            hub=hub,
        )
        try:
            yield
        finally:
            await hub.stop()
            await bus.stop()
            reader.stop()
            await engine.dispose()

    app = FastAPI(
        title="Arbiter",
        version="1.0.0",
        summary="Tournament pairing and scoring service",
        description=DESCRIPTION,
        lifespan=lifespan,
        generate_unique_id_function=_operation_id,
    )
    install_error_handlers(app)
    app.add_middleware(IdempotencyMiddleware)
    _document_extra_schemas(app)
    for module in (
        health,
        tournaments,
        trf,
        players,
        rounds,
        standings,
        cards,
        live,
        compute,
        flampark,
        scoreboard,
        stats,
        bridge_compute,
        bridge_events,
    ):
        app.include_router(module.router)
    return app
