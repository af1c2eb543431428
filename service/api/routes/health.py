"""Health for load balancers and the container check: the database and the live bus,
reported separately: an outage must be told apart from a slow bus (docs/api.md#outages)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Response

from service.api.deps import StateDep
from service.api.errors import is_outage
from service.api.state import AppState
from service.db.schema import schema_state

router = APIRouter(tags=["health"])

_DATABASE_WAIT = 2.0
"""Seconds the database gets to answer the probe before it counts as unreachable."""


async def database_state(state: AppState) -> str:
    """ "ok", "unreachable", or "not migrated" (no schema, or an older release's:
    `db.schema`); the probe reads the schema's revision, one statement. Also read once
    at start-up (`api.app.report_database_at_start`)."""

    async def probe() -> str:
        async with state.read_session() as session:
            return await schema_state(session)

    try:
        return await asyncio.wait_for(probe(), _DATABASE_WAIT)
    except TimeoutError:
        return "unreachable"
    except Exception as exc:
        if is_outage(exc):
            return "unreachable"
        raise


def _live_bus(state: AppState) -> str:
    """ "ok" (in-process, listening on PostgreSQL, subscribed on Redis), or "reconnecting"."""
    return "ok" if state.bus.listening else "reconnecting"


@router.get("/healthz")
async def healthz(state: StateDep, response: Response) -> dict[str, str]:
    """`{"status": "ok", "database": "ok", "live_bus": "ok"}`. 503 with `Retry-After`
    while the database is unreachable or not migrated to this release ("not
    migrated"); a live bus that is reconnecting leaves the status "degraded" (writes
    work, live clients catch up from the event log)."""
    database = await database_state(state)
    bus = _live_bus(state)
    if database != "ok":
        response.status_code = 503
        response.headers["Retry-After"] = str(state.settings.retry_after_seconds)
        status = "unavailable"
    else:
        status = "ok" if bus == "ok" else "degraded"
    return {"status": status, "database": database, "live_bus": bus}
