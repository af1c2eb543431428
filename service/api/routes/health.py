"""Liveness for load balancers and the container health check."""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import text

from service.api.deps import SessionDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(session: SessionDep) -> dict[str, str]:
    """`{"status": "ok"}` when the database answers."""
    await session.exec(text("SELECT 1"))  # type: ignore[call-overload]
    return {"status": "ok"}
