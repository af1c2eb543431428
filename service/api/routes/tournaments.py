"""Tournaments: create, read, close the start list."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status

from service.api.deps import (
    OrganizerWriteDep,
    SessionDep,
    StateDep,
    TournamentDep,
    WriteContextDep,
)
from service.api.observability import observe_pairing
from service.api.publish import commit_and_publish
from service.api.schemas.tournaments import (
    TournamentCreate,
    TournamentCreated,
    TournamentPublic,
    TournamentStarted,
)
from service.api.views import tournament_public
from service.app.create import create_tournament
from service.app.start import start as start_workflow

router = APIRouter(prefix="/v1/tournaments", tags=["tournaments"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=TournamentCreated)
async def create(
    body: TournamentCreate, context: WriteContextDep, state: StateDep
) -> dict[str, Any]:
    """Create a tournament; the organizer token in the response is shown only once."""
    settings = body.model_dump(mode="json", exclude={"name", "system", "rounds", "visibility"})
    session = context.session
    created = await create_tournament(
        session,
        name=body.name,
        system=body.system,
        settings=settings,
        total_rounds=body.rounds,
        private=body.visibility == "private",
    )
    await commit_and_publish(context, state, created.tournament)
    return {
        **await tournament_public(session, created.tournament),
        "organizer_token": created.organizer_token,
        "viewer_token": created.viewer_token,
    }


@router.get("/{tournament_id}", response_model=TournamentPublic)
async def read(tournament: TournamentDep, session: SessionDep) -> dict[str, Any]:
    """A tournament's settings and state."""
    return await tournament_public(session, tournament)


@router.post("/{tournament_id}/start", response_model=TournamentStarted)
async def start(request: Request, write: OrganizerWriteDep) -> dict[str, Any]:
    """Close the start list: number players by rating (descending, ties by name), issue
    their tokens (shown only this once) and, for round-robins and FLAMPARK, pair every
    round. FLAMPARK needs at least 2 x rounds players (422 naming both numbers) and
    warns below 3 x rounds."""
    session, tournament = write.session, write.tournament
    with observe_pairing(request.app, tournament.system):  # schedules paired in advance
        started = await start_workflow(session, tournament)
    await commit_and_publish(
        write.context, write.state, tournament, warm=True, schedule=started.schedule
    )
    tokens = [
        {"start_number": p.start_number, "name": p.name, "token": token}
        for p, token in started.issued
    ]
    return {
        **await tournament_public(session, tournament),
        "player_tokens": tokens,
        "warnings": started.warnings,
    }
