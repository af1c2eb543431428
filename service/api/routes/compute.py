"""Stateless compute: the engine as a service, nothing stored (DESIGN: API conventions)."""

from __future__ import annotations

from fastapi import APIRouter

from service.api.flampark_views import schedule_document
from service.api.schemas.flampark import ScheduleRequest, ScheduleResponse
from service.api.systems import schedule_for

router = APIRouter(prefix="/v1/compute", tags=["compute"])


@router.post("/flampark/schedule", response_model=ScheduleResponse)
async def flampark_schedule(body: ScheduleRequest) -> ScheduleResponse:
    """The whole FLAMPARK schedule for a start list (or a player count), rounds and kinds,
    with its pairing-quality figures: compare a Swiss open with a FLAMPARK clone of it."""
    schedule = schedule_for(body.count, body.rounds, body.options())
    return schedule_document(schedule)
